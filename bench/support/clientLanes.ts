/**
 * The client bench's lanes that more than one bench times: the raw `floor` every share is taken
 * against, and those that build a thread from an SSE body: `session` (a whole Session) and
 * `+apply` (what a Session runs on the body, without the Session). For `+apply` the body is
 * decoded (`decodeSse`), checked by the Session's own step (`normalizeAndVerify`, report mode) and
 * applied (`applyEvents` to a state that holds the user's message, as a Session's does once it has
 * sent it), and nothing else: no transport, no run slot, no views, no tool loop. Its distance to
 * the `session` lane is what the Session adds around its pipeline; its distance to the
 * `+norm+verify` lane is the reducer's (docs/benchmarks.md#stages). Beside them, what the
 * RxJS-free lanes of bench/clientStages.ts and bench/clientBounds.ts build on: the frame loop
 * (`eachFrame`, `decodedEvent`, `checkedEvents`, `appliedThread`) and the timing of a lane against the floor with
 * its checks (`timedAgainstFloor`).
 */
import { of } from "rxjs";
import { applyEvents } from "../../src/client/applyEvents";
import { checkedStep, initialCheckedState, type CheckedSink } from "../../src/operators/checkedStep";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
import type { Event } from "../../src/protocol/events";
import { DEFAULT_MAX_JSON_DEPTH } from "../../src/protocol/jsonDepth";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { applyEvent } from "../../src/thread/reducers/applyEvent";
import { ClientState } from "../../src/thread/reducers/ClientState";
import { decodeSse } from "../../src/wire/decodeSse";
import { decodeEventValue, type EventDecoding } from "../../src/wire/decodeEvent";
import { DecodeError } from "../../src/wire/DecodeError";
import type { Thread } from "./checkResult";
import { compare, type Comparison } from "./measure";
import { THREAD, USER } from "./clientWorkloads";

/**
 * Applies `body` as the bench's Session would, synchronously, and returns the thread it built;
 * throws unless the run ended `success` (as the `session` lane does).
 *
 * @example
 * checkThread("+apply on text/20", reduceBody(body), expected);
 */
export function reduceBody(body: string): Thread {
  const state = ClientState.untyped();
  state.messages.append(USER);
  let end = "";
  of(body)
    .pipe(decodeSse(), normalizeAndVerify({ threadId: THREAD, newId: () => "generated-id" }), applyEvents({ state }))
    .subscribe((update) => {
      if (update.kind === "done") end = update.end.kind;
    });
  if (end !== "success") throw new Error(`the +apply lane's run ended ${end || "without done (it did not finish synchronously)"}`);
  return { messages: state.messages.snapshot(), state: state.rawState };
}

/**
 * A Session over a ReplayTransport of `body` sending the bench's user message, to its end, and the
 * thread it holds then; throws unless the run ended `success`.
 *
 * @example
 * checkThread("session on text/20", sessionThread(body), expected);
 */
export function sessionThread(body: string): Thread {
  const session = new Session(new ReplayTransport(body), { threadId: THREAD, newId: () => "generated-id" });
  let end = "";
  session.send(USER).subscribe((update) => {
    if (update.kind === "done") end = update.end.kind;
  });
  if (end !== "success") throw new Error(`the session run ended ${end || "without done"}`);
  return { messages: session.messages, state: session.rawState };
}

/**
 * The raw floor: the body split into frames on blank lines and each frame's data `JSON.parse`d, the
 * least any decoder does; returns how many frames it parsed.
 *
 * @example
 * checkEventCount("floor on text/1,000", floor(body), expected);
 */
export function floor(body: string): number {
  let count = 0;
  for (const frame of body.split("\n\n")) {
    if (frame.length === 0) continue;
    JSON.parse(frame.slice(6));
    count++;
  }
  return count;
}

/** What a stage loop does with one frame: its parsed data and its length in characters. */
export type FrameStep = (json: unknown, length: number) => void;

/**
 * The frames' data as the floor reads them (split on blank lines, `data: ` cut off, `JSON.parse`d),
 * each handed to `step`: the loop the stage lanes of bench/clientStages.ts and bench/clientBounds.ts
 * add their stage to.
 *
 * @example
 * eachFrame(body, () => count++);
 */
export function eachFrame(body: string, step: FrameStep): void {
  for (const frame of body.split("\n\n")) if (frame.length > 0) step(JSON.parse(frame.slice(6)), frame.length - 6);
}

/** The decoder's settings, as `decodeSse` picks them: a frame of at most twice the depth limit cannot be too deep. */
const SHALLOW: EventDecoding = { maxDepth: DEFAULT_MAX_JSON_DEPTH, checkDepth: false, onStripped: undefined };
const DEEP: EventDecoding = { ...SHALLOW, checkDepth: true };

/**
 * A parsed frame decoded into an event, as the decoder checks every frame (`decodeEventValue`);
 * throws on what the generated bodies never hold.
 *
 * @example
 * eachFrame(body, (json, length) => decodedEvent(json, length));
 */
export function decodedEvent(json: unknown, length: number): Event {
  const result = decodeEventValue(json, length > 2 * DEFAULT_MAX_JSON_DEPTH ? DEEP : SHALLOW);
  if (result instanceof DecodeError || !("type" in result)) throw new Error(`expected every generated frame to decode, but got ${JSON.stringify(result)}`);
  return result;
}

/**
 * Parses and decodes `body`'s frames and runs them through the Session's checked step (report mode:
 * normalize and verify), handing each event that passes to `sent`; a refusal throws (the generated
 * streams are valid).
 *
 * @example
 * checkedEvents(body, (event) => applyEvent(state, event));
 */
export function checkedEvents(body: string, sent: (event: Event) => void): void {
  const state = initialCheckedState({ mode: "report", threadId: THREAD, newId: () => "generated-id" });
  const sink: CheckedSink = {
    sent,
    refused: (error) => {
      throw new Error(`expected the checked step to accept every generated event, but it refused one: ${error.message}`);
    },
  };
  eachFrame(body, (json, length) => checkedStep(state, decodedEvent(json, length), sink));
}

/**
 * The reducer stage with no RxJS: `body` checked by `checkedEvents`, each event that passes
 * applied with `applyEvent` to a state holding the bench's user message; returns the thread built
 * (bench/clientStages.ts's `+apply`, bench/clientBounds.ts's `checked + reducer`).
 *
 * @example
 * checkThread("+apply on text/20", appliedThread(body), expected);
 */
export function appliedThread(body: string): Thread {
  const state = ClientState.untyped();
  state.messages.append(USER);
  checkedEvents(body, (event) => applyEvent(state, event));
  return { messages: state.messages.snapshot(), state: state.rawState };
}

/**
 * Times `run` against the floor on `body` as the client bench times its lanes (`compare`, the
 * floor as baseline), with the lane's result checked before its time counts and its last timed
 * result checked again after, as is the floor's count (`checkLane`, `checkFloor`: each throws on a
 * wrong result). Returns the comparison: `ratio` is the lane's time per run over the floor's.
 *
 * @example
 * const timed = timedAgainstFloor(body, () => leastThread(body, () => undefined), (thread) => checkThread("least", thread, expected), (count) => checkEventCount("floor", count, expected));
 */
export function timedAgainstFloor<T>(body: string, run: () => T, checkLane: (result: T) => void, checkFloor: (count: number) => void): Comparison {
  let last = run();
  checkLane(last);
  let floorCount = 0;
  const timed = compare(
    "floor",
    () => (floorCount = floor(body)),
    "lane",
    () => (last = run()),
    { minTimeMs: 300, warmUpMs: 100, minSamples: 9 },
  );
  checkFloor(floorCount);
  checkLane(last);
  return timed;
}
