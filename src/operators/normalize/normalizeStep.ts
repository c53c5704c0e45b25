/**
 * The pure step of the chunk normalizer (RULES §2, WIRE §5.3): one event in, either the events to
 * emit for it and the state after it, or the ProtocolError that rejects it. `normalizeChunks()`
 * runs it per subscription; the server calls it synchronously for every emitted event, before the
 * verifier step.
 */
import * as E from "fp-ts/Either";
import type { ChunkEvent, Event } from "../../protocol/events";
import { mapThinkingEvent, type ThinkingIds } from "../../protocol/thinking";
import { ProtocolError } from "../ProtocolError";
import { clearBlocks, emptyBlocks, recordMessages, type ReasoningBlocks } from "./blocks";
import { blockStart, conflictingField, deltaEvent, describeKind, endEvents, idMember, idOf, kindOf, opening, type OpenStream, type StreamKind } from "./expand";
import { blockFor, explicitReasoning } from "./reasoning";

/** A lane's key: the owner's subagent id, or `undefined` for the parent agent (C1). */
export type LaneKey = string | undefined;

/**
 * What the normalizer remembers between events. Bounded by what is open: one entry per lane that
 * holds an open stream, the explicit reasoning blocks open in the run, plus the ids of the open
 * legacy thinking span and message.
 */
export interface NormalizerState {
  /**
   * The lanes that hold an open stream, keyed by owner. A lane without an open stream has no
   * entry, so the Map's insertion order is the order in which the current streams opened, and a
   * lane that closes and reopens moves to the end (C1). "Close all lanes in lane order" walks it.
   */
  readonly lanes: Map<LaneKey, OpenStream>;
  /** The same open streams indexed by kind and id, so resolving a chunk by id is one lookup (C2). */
  readonly open: { readonly [K in StreamKind]: Map<string, OpenStream> };
  /**
   * The explicit reasoning blocks open (REASONING_START … END that passed through, THINKING_START
   * mapped included) per owner, and the owner recorded for each reasoning id: whether a chunk's
   * reasoning message needs a block of its own (R22). Reset by RUN_STARTED.
   */
  readonly blocks: ReasoningBlocks;
  /** Ids implied by nesting for the deprecated THINKING_* events (WIRE §7). Reset by RUN_STARTED. */
  thinking: ThinkingIds;
  /** Mints the ids the THINKING_* mapping needs. */
  readonly newId: () => string;
}

/** The result of one accepted step: the state after it and the events to emit, in order. */
export interface NormalizerStep {
  readonly state: NormalizerState;
  readonly events: Event[];
}

/** Options of `initialNormalizerState()`. */
export interface NormalizerOptions {
  /**
   * Mints the ids THINKING_* events imply (a span id, a message id). Defaults to
   * `globalThis.crypto.randomUUID()`; inject a counter for deterministic tests.
   */
  readonly newId?: () => string;
}

/**
 * A fresh normalizer state: no open lane, no legacy thinking span.
 *
 * @example
 * let n = 0;
 * const state = initialNormalizerState({ newId: () => `id-${++n}` });
 */
export function initialNormalizerState(options: NormalizerOptions = {}): NormalizerState {
  return {
    lanes: new Map(),
    open: { text: new Map(), tool: new Map(), reasoning: new Map() },
    blocks: emptyBlocks(),
    thinking: {},
    newId: options.newId ?? (() => globalThis.crypto.randomUUID()),
  };
}

/**
 * Normalizes one event given `state`, the normalizer state after every earlier accepted event.
 *
 * - `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` expand to the explicit
 *   START / CONTENT (ARGS) events of their lane, preceded by the END of the stream they replace
 *   (C1–C9). A reasoning message whose owner has no reasoning block open is bracketed by one of
 *   its own (R22: REASONING_START, named after the message, before its START; REASONING_END right
 *   after its END); inside an open block of its owner only the message is added (`reasoning.ts`).
 * - `THINKING_*` become their `REASONING_*` equivalents (ids minted with `state.newId`) and are
 *   then treated as explicit parent events.
 * - Every other event passes through unchanged, preceded by the ENDs it synthesizes (C10): the
 *   lane of its own tag for explicit events, all lanes in lane order for RUN_STARTED,
 *   RUN_FINISHED, RUN_ERROR and MESSAGES_SNAPSHOT, the named subagent's lane for
 *   SUBAGENT_FINISHED/ERROR, none for RAW, ACTIVITY_*, REASONING_ENCRYPTED_VALUE and
 *   SUBAGENT_STARTED.
 * - End of input synthesizes nothing: open lanes are just dropped with the state (C11).
 *
 * Accepted: `Right({ state, events })`. To keep the work O(1) per event, `state` is **mutated in
 * place** once every check has passed, and that same object is returned; keep using it.
 * Rejected: `Left(ProtocolError)` with code `"chunk"` and the rule (`"C2"`, `"C3"`, `"C5"`,
 * `"C6"`); a rejected chunk changes **nothing** in `state` (all checks run before the first write),
 * so the caller may drop it and go on.
 *
 * - role, name, toolCallName and parentMessageId on a continuation chunk may repeat the opener's
 *   value; a different one (an absent role counts as the `assistant` it defaulted to) is a
 *   violation, C6 (AG-UI 1.1 streaming, as 1.0.0 does; revised: they used to be ignored);
 * - a chunk's `rawEvent` goes on the CONTENT/ARGS only; a chunk with no delta that carries one
 *   (opening or continuing) emits an empty-delta CONTENT/ARGS for it (C8, as 1.0.0 does).
 *
 * Where RULES §2 is silent (decisions; the official transformChunks is listed where it differs):
 * - the events made from a chunk carry its `timestamp` (the official client drops it); members the
 *   chunk schema does not declare are not copied (decoding strips them before, AG-UI 1.1);
 * - a stray `null` tag reads as the parent and is never copied to the output (C1);
 * - RUN_STARTED forgets the THINKING_* span and message ids of the previous run.
 *
 * @example
 * const state = initialNormalizerState();
 * normalizeStep(state, ev.textMessageChunk({ messageId: "m1", delta: "Hi" }));
 * // right({ state, events: [TEXT_MESSAGE_START(m1, assistant), TEXT_MESSAGE_CONTENT(m1, "Hi")] })
 * normalizeStep(state, ev.runFinished("t", "r"));
 * // right({ state, events: [TEXT_MESSAGE_END(m1), RUN_FINISHED] })
 * normalizeStep(state, ev.reasoningMessageChunk({ messageId: "r1", delta: "hm" }));
 * // right({ state, events: [REASONING_START(r1), REASONING_MESSAGE_START(r1), REASONING_MESSAGE_CONTENT(r1, "hm")] })
 */
export function normalizeStep(state: NormalizerState, event: Event): E.Either<ProtocolError, NormalizerStep> {
  switch (event.type) {
    case "TEXT_MESSAGE_CHUNK":
    case "TOOL_CALL_CHUNK":
    case "REASONING_MESSAGE_CHUNK":
      return expandChunk(state, event);

    case "THINKING_START":
    case "THINKING_END":
    case "THINKING_TEXT_MESSAGE_START":
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END": {
      const mapped = mapThinkingEvent(event, state.thinking, state.newId);
      state.thinking = mapped.ids;
      // THINKING_* carry no tag: they are explicit events of the parent lane (C10 b).
      const ends = closeLane(state, undefined, []);
      if (mapped.closing !== undefined) ends.push(mapped.closing);
      explicitReasoning(state, mapped.event, ends);
      return accepted(state, ends, mapped.event);
    }

    case "RUN_STARTED": {
      // Thinking ids, blocks and reasoning owners belong to one run; a new run starts with none but its input's.
      state.thinking = {};
      const ends = closeAll(state);
      clearBlocks(state.blocks);
      recordMessages(state.blocks, event.input?.messages, false);
      return accepted(state, ends, event);
    }
    case "RUN_FINISHED":
    case "RUN_ERROR":
      return accepted(state, closeAll(state), event);
    case "MESSAGES_SNAPSHOT": {
      const ends = closeAll(state);
      recordMessages(state.blocks, event.messages, true); // a snapshot's word on owners wins (R43)
      return accepted(state, ends, event);
    }

    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
      // The codec requires the id, but an in-process producer may omit it: then it names no lane
      // and closes nothing (C10 d), rather than the parent's lane that an absent tag would mean.
      return accepted(state, typeof event.subagentRunId === "string" ? closeLane(state, event.subagentRunId, []) : [], event);

    case "RAW":
    case "ACTIVITY_SNAPSHOT":
    case "ACTIVITY_DELTA":
    case "REASONING_ENCRYPTED_VALUE":
    case "SUBAGENT_STARTED":
      return accepted(state, [], event);

    case "TEXT_MESSAGE_START":
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
    case "TOOL_CALL_START":
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
    case "TOOL_CALL_RESULT":
    case "STATE_SNAPSHOT":
    case "STATE_DELTA":
    case "CUSTOM":
    case "STEP_STARTED":
    case "STEP_FINISHED":
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
      // Explicit events close only their own lane (C10 b); `?? undefined` reads a stray null as the parent (C1).
      return accepted(state, closeLane(state, event.subagentRunId ?? undefined, []), event);
    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_END": {
      // As above; then the blocks learn of it (R22), after the lane closed: a bracketed chunk message in it ends first.
      const ends = closeLane(state, event.subagentRunId ?? undefined, []);
      explicitReasoning(state, event, ends);
      return accepted(state, ends, event);
    }
  }
  // Unreachable for a decoded Event. A type unknown at run time (an in-process producer's) passes
  // through untouched, as in the official client, for the verifier or the decoder to report.
  return accepted(state, [], event);
}

/**
 * Whether `normalizeStep(state, event)` would emit `event` alone and change nothing: no stream is
 * open in any lane (so there is no END to synthesize) and the event is neither a chunk, a
 * THINKING_* event (both rewritten) nor RUN_STARTED (it resets the thinking ids). The operator
 * checks this first and passes such events on without the step's allocations; the answer is
 * exact, so behaviour does not depend on which path an event takes.
 *
 * @example
 * passesThrough(initialNormalizerState(), ev.stateDelta([])); // true
 * passesThrough(initialNormalizerState(), ev.textMessageChunk({ messageId: "m1", delta: "Hi" })); // false
 */
export function passesThrough(state: NormalizerState, event: Event): boolean {
  if (state.lanes.size !== 0) return false;
  switch (event.type) {
    case "TEXT_MESSAGE_CHUNK":
    case "TOOL_CALL_CHUNK":
    case "REASONING_MESSAGE_CHUNK":
    case "THINKING_START":
    case "THINKING_END":
    case "THINKING_TEXT_MESSAGE_START":
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END":
    case "RUN_STARTED":
    case "MESSAGES_SNAPSHOT":
    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_END":
      return false;
    default:
      return true;
  }
}

function accepted(state: NormalizerState, ends: Event[], event: Event): E.Either<ProtocolError, NormalizerStep> {
  ends.push(event);
  return E.right({ state, events: ends });
}

/** Closes the stream open in lane `key`, if any, appending its END (and its block's) to `out` (C9). */
function closeLane(state: NormalizerState, key: LaneKey, out: Event[]): Event[] {
  const stream = state.lanes.get(key);
  if (stream !== undefined) {
    state.lanes.delete(key);
    state.open[stream.kind].delete(stream.id);
    endEvents(stream, out);
  }
  return out;
}

/** Closes every open lane in lane order (C10 c). O(open lanes). */
function closeAll(state: NormalizerState): Event[] {
  const out: Event[] = [];
  for (const stream of state.lanes.values()) endEvents(stream, out);
  state.lanes.clear();
  state.open.text.clear();
  state.open.tool.clear();
  state.open.reasoning.clear();
  return out;
}

function expandChunk(state: NormalizerState, chunk: ChunkEvent): E.Either<ProtocolError, NormalizerStep> {
  const kind = kindOf(chunk);
  const id = idOf(chunk);
  const tag = chunk.subagentRunId ?? undefined; // a stray null reads as the parent (C1)
  const resolved = resolveLane(state, chunk, kind, id, tag);
  if (E.isLeft(resolved)) return resolved;
  const key = resolved.right;

  const current = state.lanes.get(key);
  if (current !== undefined && current.kind === kind && (id === undefined || id === current.id)) {
    // C6: a continuation may repeat an opener field, never contradict it.
    const conflict = conflictingField(current, chunk);
    if (conflict !== undefined) {
      const open = conflict.open === undefined ? "absent" : JSON.stringify(conflict.open);
      return E.left(
        new ProtocolError(
          "chunk",
          "C6",
          chunk,
          `${chunk.type} continues ${describeKind(kind)} "${current.id}" with ${conflict.field} ${JSON.stringify(conflict.value)}, ` +
            `but the open stream's ${conflict.field} is ${open}; a continuation may repeat an opener field only with the same value`,
        ),
      );
    }
    // C4 continue; C7 a delta, even "", becomes CONTENT/ARGS; C8 metadata or a rawEvent alone becomes an empty delta.
    if (chunk.delta !== undefined) return E.right({ state, events: [deltaEvent(current, chunk, chunk.delta)] });
    if (chunk.metadata !== undefined || chunk.rawEvent !== undefined) return E.right({ state, events: [deltaEvent(current, chunk, "")] });
    return E.right({ state, events: [] });
  }

  // C4 open: check C5 before the lane is touched, so a rejected chunk leaves every lane as it was.
  const opened = opening(chunk, key); // opening happens only in the lane the chunk's own tag names
  if ("missing" in opened) return E.left(cannotOpen(chunk, kind, key, current, opened.missing));

  const events = closeLane(state, key, []);
  // R22: a reasoning message opens inside a block of its owner; with none open the normalizer brackets it itself.
  const block = kind === "reasoning" ? blockFor(state, opened.id, key) : undefined;
  const stream: OpenStream =
    block === undefined ? { kind, id: opened.id, owner: key, fields: opened.fields } : { kind, id: opened.id, owner: key, fields: opened.fields, block };
  state.lanes.set(key, stream); // re-inserted: the lane moves to the end of lane order (C1)
  state.open[kind].set(opened.id, stream);
  if (block !== undefined) events.push(blockStart(block.id, key, chunk));
  events.push(opened.start);
  if (chunk.delta !== undefined) events.push(deltaEvent(stream, chunk, chunk.delta));
  else if (chunk.rawEvent !== undefined) events.push(deltaEvent(stream, chunk, "")); // C8: the rawEvent rides an empty delta
  return E.right({ state, events });
}

/** The lane a chunk goes to (C2, C3), or the error that rejects it. Reads the state only. */
function resolveLane(
  state: NormalizerState,
  chunk: ChunkEvent,
  kind: StreamKind,
  id: string | undefined,
  tag: LaneKey,
): E.Either<ProtocolError, LaneKey> {
  const index = state.open[kind];
  if (id !== undefined) {
    // C2: an open stream of this kind and id continues in its own lane, whatever lane the tag names.
    const holder = index.get(id);
    if (holder === undefined) return E.right(tag);
    if (tag !== undefined && tag !== holder.owner) {
      return E.left(
        new ProtocolError(
          "chunk",
          "C2",
          chunk,
          `${chunk.type} for ${describeKind(kind)} "${id}" has subagentRunId ${JSON.stringify(tag)}, but that ${describeKind(kind)} ` +
            `is open in ${describeLane(holder.owner)}; expected ${holder.owner === undefined ? "no subagentRunId" : `subagentRunId ${JSON.stringify(holder.owner)} or none`}`,
        ),
      );
    }
    return E.right(holder.owner);
  }
  // C3: no id.
  if (tag !== undefined) return E.right(tag); // 1. its tag's lane
  if (state.lanes.get(undefined)?.kind === kind) return E.right(undefined); // 2. the parent first
  if (index.size === 1) {
    // 3. the only lane with an open stream of this kind
    for (const only of index.values()) return E.right(only.owner);
  }
  if (index.size > 1) {
    // 4. ambiguous. Listing the candidates is O(open lanes), paid only on this error path.
    const candidates = [...index.values()].map((s) => `"${s.id}" in ${describeLane(s.owner)}`).join(", ");
    return E.left(
      new ProtocolError(
        "chunk",
        "C3",
        chunk,
        `${chunk.type} has neither a ${idMember(kind)} nor a subagentRunId, and the parent has no open ${describeKind(kind)}, ` +
          `so it could continue any of ${index.size} open ${describeKind(kind)}s (${candidates}); expected a ${idMember(kind)} or a subagentRunId`,
      ),
    );
  }
  return E.right(undefined); // 5. none: the parent lane, where C5 rejects it
}

function cannotOpen(chunk: ChunkEvent, kind: StreamKind, key: LaneKey, current: OpenStream | undefined, missing: readonly string[]): ProtocolError {
  const found =
    current === undefined
      ? `${describeLane(key)} has no open stream to continue`
      : current.kind === kind
        ? `it does not continue ${describeKind(kind)} "${current.id}" open in ${describeLane(key)}`
        : `${describeLane(key)} holds ${describeKind(current.kind)} "${current.id}", not a ${describeKind(kind)}`;
  return new ProtocolError(
    "chunk",
    "C5",
    chunk,
    `${chunk.type} must open a new ${describeKind(kind)} (${found}), and opening one needs ${missing.join(" and ")}, which it lacks`,
  );
}

function describeLane(key: LaneKey): string {
  return key === undefined ? "the parent agent's lane" : `the lane of subagent ${JSON.stringify(key)}`;
}
