/**
 * Generators for verifier property tests: streams valid by construction (several runs, each
 * interleaving concurrently open text messages, tool calls, reasoning spans and messages, steps, subagents,
 * activities, tagged events and state events), and one structural mutation per stream that
 * provably breaks a rule.
 */
import * as fc from "fast-check";
import type { Event } from "../../../src/protocol/events";
import { PARENT } from "../../../src/operators/verify/VerifierState";
import {
  AD,
  AS,
  CUS,
  MS,
  RAW,
  RE,
  REND,
  REV,
  RF,
  RMC,
  RME,
  RMS,
  RS,
  RST,
  SAE,
  SAF,
  SAS,
  SD,
  SS,
  STF,
  STS,
  TCA,
  TCE,
  TCR,
  TCS,
  TMC,
  TME,
  TMS,
  msg,
} from "../../support/streams";

/** An owner as producers write it: a tag, or `undefined` for the parent agent. */
type Tag = string | undefined;

/**
 * What a mutation may do to one event, decided while generating, with the rule it then breaks:
 * - `deletable`: removing it makes a later event (or the run's RUN_FINISHED) invalid;
 * - `duplicable`: a copy right after it is invalid.
 */
export interface Slot {
  readonly event: Event;
  deletable: boolean;
  duplicable: boolean;
  /**
   * A REASONING_START that was the only open block of its owner when a reasoning message of that
   * owner opened: deleting it leaves that message outside any block (R22), which `@ag-ui/client`
   * 1.0.0 does not check, so there the official verifier rejects later or not at all.
   */
  bracketsMessage?: boolean;
}

export interface Stream {
  readonly slots: Slot[];
}

/**
 * Interprets a list of random numbers as producer decisions, keeping a model of what is open so
 * every event it writes is valid. Ids are fresh within a run and reused across runs (R6).
 */
export function buildStream(choices: readonly number[]): Stream {
  let cursor = 0;
  const pick = (n: number): number => (n <= 1 ? 0 : (choices[cursor++] ?? 0) % n);
  const hasMore = () => cursor < choices.length;
  const slots: Slot[] = [];
  const emit = (event: Event, deletable = false, duplicable = false): Slot => {
    const slot = { event, deletable, duplicable };
    slots.push(slot);
    return slot;
  };
  const choose = <T>(items: readonly T[]): T => items[pick(items.length)];
  const continuationTag = (owner: Tag): Tag => (owner === undefined || pick(2) === 0 ? undefined : owner);

  let runNumber = 0;
  while (runNumber === 0 || hasMore()) {
    runNumber += 1;
    // ─── One run ───
    let counter = 0;
    const fresh = (prefix: string) => `${prefix}${counter++}`;
    // Opener slots waiting for a continuation that makes their deletion fatal, by entity key.
    const openers = new Map<string, Slot>();
    const openText = new Map<string, Tag>();
    const messages = new Map<string, Tag>(); // every text message of the run and its owner
    const openTools = new Map<string, Tag>();
    const tools = new Map<string, Tag>();
    const reasoning = new Map<string, Tag>(); // every reasoning id of the run (spans and messages share one owner map, R38)
    const ownerRecordedBy = new Map<string, Slot>(); // the opener that recorded each reasoning id's owner (R38)
    const openSpans = new Map<string, Tag>(); // open span → its owner (recorded once, R38; R22 places messages by it)
    const openReasoning = new Map<string, Tag>();
    const activities = new Map<string, Tag>();
    const steps = new Map<string, { name: string; owner: Tag }>(); // key → step
    const activeSubs: string[] = [];
    const startedSubs: string[] = [];
    const closers: Slot[] = []; // END / STF / SAF slots: deleting one breaks RF (R7) if the run finishes
    const owners = (): Tag[] => [undefined, "", "a", "b", ...activeSubs];
    const stepKey = (name: string, owner: Tag) => `${owner === undefined ? "P" : `S${owner}`}|${name}`;
    /** A continuation of `key` exists: deleting its opener makes that continuation invalid (R15/R19/R26/R27/R33/R32). */
    const continued = (key: string) => {
      const opener = openers.get(key);
      if (opener) opener.deletable = true;
    };

    const rsSlot = emit(RS({ runId: `r${runNumber}` }), false, true); // a duplicate RS is R2
    const firstInner = slots.length;
    let steps_budget = 0;
    while (hasMore() && steps_budget++ < 60) {
      const action = pick(20);
      if (action === 19) break; // end this run here
      switch (action) {
        case 0:
        case 1: {
          const id = fresh("m");
          const owner = choose(owners());
          openText.set(id, owner);
          messages.set(id, owner);
          openers.set(`text|${id}`, emit(TMS(id, owner), false, true)); // duplicate: R14
          break;
        }
        case 2:
          if (openText.size) {
            const [id, owner] = choose([...openText]);
            emit(TMC(id, continuationTag(owner)));
            continued(`text|${id}`);
          }
          break;
        case 3:
          if (openText.size) {
            const [id, owner] = choose([...openText]);
            openText.delete(id);
            closers.push(emit(TME(id, continuationTag(owner)), false, true)); // duplicate: R15
            continued(`text|${id}`);
          }
          break;
        case 4: {
          const id = fresh("t");
          if (messages.size && pick(2) === 0) {
            // Lives in a known message: inherits its owner, tagged with it or untagged (R39).
            const [parent, owner] = choose([...messages]);
            openTools.set(id, owner);
            tools.set(id, owner);
            openers.set(`tool|${id}`, emit(TCS(id, continuationTag(owner), { parentMessageId: parent }), false, true)); // duplicate: R18
          } else {
            const owner = choose(owners());
            openTools.set(id, owner);
            tools.set(id, owner);
            openers.set(`tool|${id}`, emit(TCS(id, owner), false, true));
          }
          break;
        }
        case 5:
          if (openTools.size) {
            const [id, owner] = choose([...openTools]);
            emit(TCA(id, continuationTag(owner)));
            continued(`tool|${id}`);
          }
          break;
        case 6:
          if (openTools.size) {
            const [id, owner] = choose([...openTools]);
            openTools.delete(id);
            closers.push(emit(TCE(id, continuationTag(owner)), false, true)); // duplicate: R19
            continued(`tool|${id}`);
          }
          break;
        case 7:
        case 13: {
          // Reasoning (R22): spans and reasoning messages open, continue and close like any span, each
          // in its own namespace; an id may name both, and its owner is recorded once (R38). A message
          // opens only while its owner has a span open.
          // 0 span, 1 message, 2 content, 3 message end, 4 span end; messages and content weighted up.
          const move = [0, 1, 1, 2, 2, 3, 4][pick(7)];
          if (move <= 1) {
            // A message needs a block of its owner (R22): its tag, or for an untagged one the owner recorded for its id.
            const blockOwners = new Set(openSpans.values());
            const span = move === 0 || blockOwners.size === 0; // with no block open, a span opens instead
            const open = span ? openSpans : openReasoning;
            const reusable = [...reasoning].filter(([id, owner]) => !open.has(id) && (span || blockOwners.has(owner))).map(([id]) => id);
            const newOwners = span ? owners() : owners().filter((owner) => blockOwners.has(owner));
            const known = reusable.length > 0 && (newOwners.length === 0 || pick(3) === 0);
            if (!known && newOwners.length === 0) break; // the only blocks belong to subagents that have ended
            const id = known ? choose(reusable) : fresh("r");
            const owner = known ? reasoning.get(id) : choose(newOwners);
            reasoning.set(id, owner);
            open.set(id, owner);
            // Only an opener records an owner, so a new id carries the owner's tag; a known one may omit it.
            const tag = known ? continuationTag(owner) : owner;
            const opener = (span ? RST : RMS)(id, tag);
            const openerSlot = emit(opener, false, true); // duplicate: R22
            openers.set(`${span ? "span" : "reasoning"}|${id}`, openerSlot);
            if (!known) ownerRecordedBy.set(id, openerSlot);
            if (!span) {
              // An untagged message of a known id reads its owner from the opener that recorded it:
              // without that opener it reads as the parent's, outside the blocks of its owner.
              const recorder = known && tag === undefined && owner !== undefined ? ownerRecordedBy.get(id) : undefined;
              if (recorder !== undefined) recorder.bracketsMessage = true;
              const holders = [...openSpans].filter(([, spanOwner]) => spanOwner === owner);
              const only = holders.length === 1 ? openers.get(`span|${holders[0][0]}`) : undefined;
              // Deleting the one opener that also recorded this untagged message's owner makes the message the
              // parent's: a block of the parent still holds it then, and the stream stays valid.
              const parentHolds = [...openSpans].some(([, spanOwner]) => spanOwner === undefined);
              if (only !== undefined && !(only === recorder && parentHolds)) {
                only.deletable = true; // without it this message opens outside any block of its owner
                only.bracketsMessage = true;
              }
            }
          } else if (move === 2 && openReasoning.size) {
            const [id, owner] = choose([...openReasoning]);
            emit(RMC(id, continuationTag(owner)));
            continued(`reasoning|${id}`);
          } else if (move === 3 && openReasoning.size) {
            const [id, owner] = choose([...openReasoning]);
            openReasoning.delete(id);
            closers.push(emit(RME(id, continuationTag(owner)), false, true)); // duplicate: R22
            continued(`reasoning|${id}`);
          } else if (move === 4 && openSpans.size) {
            const [id, owner] = choose([...openSpans]);
            openSpans.delete(id);
            closers.push(emit(REND(id, continuationTag(owner)), false, true)); // duplicate: R22
            continued(`span|${id}`);
          }
          break;
        }
        case 8: {
          const owner = choose(owners());
          const name = choose(["plan", "tools", "x"]);
          const key = stepKey(name, owner);
          if (!steps.has(key)) {
            steps.set(key, { name, owner });
            openers.set(`step|${key}`, emit(STS(name, owner), false, true)); // duplicate: R25
          }
          break;
        }
        case 9:
          if (steps.size) {
            const [key, step] = choose([...steps]);
            steps.delete(key);
            closers.push(emit(STF(step.name, step.owner), false, true)); // duplicate: R26 or R27
            continued(`step|${key}`);
          }
          break;
        case 10: {
          const id = fresh("s");
          const parent = startedSubs.length && pick(3) === 0 ? choose(startedSubs) : undefined;
          activeSubs.push(id);
          startedSubs.push(id);
          openers.set(`sub|${id}`, emit(SAS(id, parent === undefined ? {} : { parentSubagentRunId: parent }), false, true)); // duplicate: R30
          if (parent !== undefined) continued(`sub|${parent}`); // without the parent's SAS this one breaks R32
          break;
        }
        case 11:
          if (activeSubs.length) {
            const id = activeSubs.splice(pick(activeSubs.length), 1)[0];
            closers.push(emit(pick(2) ? SAF(id) : SAE(id, "failed"), false, true)); // duplicate: R33
            continued(`sub|${id}`);
          }
          break;
        case 12: {
          // Unordered events with any provenance tag, announced or not (R35, R36, docs/seeds.md#seed-000).
          const tag = choose([...owners(), "never-announced"]);
          emit(choose([SS, SD, CUS, RAW])(tag));
          break;
        }
        case 14: {
          const existing = activities.size > 0 && pick(2) === 0;
          const id = existing ? choose([...activities.keys()]) : fresh("a");
          const owner = choose(owners());
          activities.set(id, owner); // a replacing snapshot takes ownership (R41)
          emit(AS(id, owner));
          break;
        }
        case 15:
          if (activities.size) {
            const [id, owner] = choose([...activities]);
            emit(AD(id, continuationTag(owner)));
          }
          break;
        case 16:
          emit(TCR(fresh("res"), tools.size ? choose([...tools.keys()]) : "unknown", choose(owners())));
          break;
        case 17:
          if (tools.size && pick(2) === 0) {
            const [id, owner] = choose([...tools]);
            emit(REV("tool-call", id, continuationTag(owner)));
          } else if (messages.size) {
            const [id, owner] = choose([...messages]);
            emit(REV("message", id, continuationTag(owner)));
          }
          break;
        case 18:
          // A snapshot that restates the known messages with their owners changes no owner (R43).
          emit(MS(...[...messages].map(([id, owner]) => msg(id, owner))));
          break;
      }
    }

    if (pick(4) === 0) {
      emit(RE("stopped"), false, false); // anything may be open before RUN_ERROR (R5)
    } else {
      // Close everything, in a random order (close order is free, R29), then finish.
      const pending: Array<() => void> = [
        ...[...steps.values()].map((step) => () => void closers.push(emit(STF(step.name, step.owner), false, true))),
        ...[...openText].map(
          ([id, owner]) =>
            () =>
              void closers.push(emit(TME(id, continuationTag(owner)), false, true)),
        ),
        ...[...openTools].map(
          ([id, owner]) =>
            () =>
              void closers.push(emit(TCE(id, continuationTag(owner)), false, true)),
        ),
        ...[...openReasoning].map(
          ([id, owner]) =>
            () =>
              void closers.push(emit(RME(id, continuationTag(owner)), false, true)),
        ),
        ...[...openSpans].map(
          ([id, owner]) =>
            () =>
              void closers.push(emit(REND(id, continuationTag(owner)), false, true)),
        ),
        ...activeSubs.map((id) => () => void closers.push(emit(SAF(id), false, true))),
      ];
      const keys = [...steps.keys()]
        .map((k) => `step|${k}`)
        .concat(
          [...openText.keys()].map((id) => `text|${id}`),
          [...openTools.keys()].map((id) => `tool|${id}`),
          [...openReasoning.keys()].map((id) => `reasoning|${id}`),
          [...openSpans.keys()].map((id) => `span|${id}`),
          activeSubs.map((id) => `sub|${id}`),
        );
      keys.forEach(continued);
      while (pending.length) pending.splice(pick(pending.length), 1)[0]();
      // Deleting any END, STF or SAF/SAE of this run leaves it open at RUN_FINISHED (R7).
      for (const slot of closers) slot.deletable = true;
      emit(RF({ runId: `r${runNumber}` }), false, true); // a duplicate RF is R3; its runId is its RUN_STARTED's (R7a)
    }
    // Deleting RS exposes the run's first inner event after the previous terminal (R1, R3, R4);
    // an empty run (RS straight to its terminal) would leave a valid stream, so it is not deleted.
    rsSlot.deletable = slots.length - firstInner > 1;
  }
  return { slots };
}

export const streams = fc.array(fc.nat({ max: 10_000 }), { minLength: 1, maxLength: 200, size: "large" }).map(buildStream);

export type Mutation = { kind: "delete" | "duplicate"; index: number };

/** A valid stream from `source` together with one mutation that provably breaks a rule (see Slot). */
export function withMutation(source: fc.Arbitrary<Stream>): fc.Arbitrary<{ stream: Stream; mutation: Mutation }> {
  return source
    .filter((s) => s.slots.some((slot) => slot.deletable || slot.duplicable))
    .chain((s) => {
      const candidates: Mutation[] = [];
      s.slots.forEach((slot, index) => {
        if (slot.deletable) candidates.push({ kind: "delete", index });
        if (slot.duplicable) candidates.push({ kind: "duplicate", index });
      });
      return fc.constantFrom(...candidates).map((mutation) => ({ stream: s, mutation }));
    });
}

export const mutated = withMutation(streams);

export function applyMutation(events: readonly Event[], { kind, index }: Mutation): Event[] {
  const copy = [...events];
  if (kind === "delete") copy.splice(index, 1);
  else copy.splice(index + 1, 0, { ...events[index] });
  return copy;
}

export const eventsOf = (s: Stream) => s.slots.map((slot) => slot.event);

/** A plain, comparable copy of the verifier state. */
export function snapshot(value: unknown): unknown {
  if (value === PARENT) return "<parent>";
  if (value instanceof Map) return [...value].map(([k, v]) => [snapshot(k), snapshot(v)]);
  if (value instanceof Set) return [...value].map(snapshot);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, snapshot(v)]));
  return value;
}
