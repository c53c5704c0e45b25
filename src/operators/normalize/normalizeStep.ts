/**
 * The pure step of the chunk normalizer (docs/rules.md#chunks, docs/wire.md#5.3): one event in, either the events to
 * emit for it and the state after it, or the ProtocolError that rejects it. `normalizeChunks()`
 * runs it per subscription; `checkedStep` runs its gated form `normalizeInto`, which hands the
 * expansion over event by event and records only what was sent. This file is the dispatch by event type; a chunk's own path is `expandChunk.ts`,
 * what closing a lane sends `closeLane.ts`, the reasoning blocks (docs/rules.md#R22) `reasoning.ts` and
 * `blocks.ts`, the state `NormalizerState.ts`.
 */
import * as E from "../../protocol/either";
import type { Event } from "../../protocol/events";
import { mapThinkingEvent } from "../../protocol/thinking";
import type { ProtocolError } from "../ProtocolError";
import { clearBlocks, recordMessages } from "./blocks";
import { closeAll, closeLane } from "./closeLane";
import type { Emit } from "./Emit";
import { expandChunk } from "./expandChunk";
import type { NormalizerState, NormalizerStep } from "./NormalizerState";
import { explicitReasoning } from "./reasoning";

export type { Emit } from "./Emit";
export { initialNormalizerState, type LaneKey, type NormalizerOptions, type NormalizerState, type NormalizerStep } from "./NormalizerState";

/**
 * Normalizes one event given `state`, the normalizer state after every earlier accepted event.
 *
 * - `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` expand to the explicit
 *   START / CONTENT (ARGS) events of their lane, preceded by the END of the stream they replace
 *   (docs/rules.md#C1 to docs/rules.md#C9). A reasoning message whose owner has no reasoning block open is bracketed by one of
 *   its own (docs/rules.md#R22: REASONING_START, named after the message, before its START; REASONING_END right
 *   after its END); inside an open block of its owner only the message is added (`reasoning.ts`).
 * - `THINKING_*` become their `REASONING_*` equivalents (ids minted with `state.newId`) and are
 *   then treated as explicit parent events.
 * - Every other event passes through unchanged, preceded by the ENDs it synthesizes (docs/rules.md#C10): the
 *   lane of its own tag for explicit events, all lanes in lane order for RUN_STARTED,
 *   RUN_FINISHED, RUN_ERROR and MESSAGES_SNAPSHOT, the named subagent's lane for
 *   SUBAGENT_FINISHED/ERROR, none for RAW, ACTIVITY_*, REASONING_ENCRYPTED_VALUE and
 *   SUBAGENT_STARTED.
 * - End of input synthesizes nothing: open lanes are just dropped with the state (docs/rules.md#C11).
 *
 * Accepted: `Right({ state, events })`. To keep the work O(1) per event, `state` is **mutated in
 * place** once every check has passed, and that same object is returned; keep using it. The
 * expansion is `normalizeInto` with every event sent.
 * Rejected: `Left(ProtocolError)` with code `"chunk"` and the rule (`"C2"`, `"C3"`, `"C5"`,
 * `"C6"`); a rejected chunk changes **nothing** in `state` (all checks run before the first write),
 * so the caller may drop it and go on.
 *
 * - role, name, toolCallName and parentMessageId on a continuation chunk may repeat the opener's
 *   value; a different one (an absent role counts as the `assistant` it defaulted to) is a
 *   violation, docs/rules.md#C6 (AG-UI 1.1 streaming, as 1.0.0 does; revised: they used to be ignored);
 * - a chunk's `rawEvent` goes on the CONTENT/ARGS only; a chunk with no delta that carries one
 *   (opening or continuing) emits an empty-delta CONTENT/ARGS for it (docs/rules.md#C8, as 1.0.0 does).
 *
 * Where docs/rules.md#chunks is silent (decisions; the official transformChunks is listed where it differs):
 * - the events made from a chunk carry its `timestamp` (the official client drops it); members the
 *   chunk schema does not declare are not copied (decoding strips them before, AG-UI 1.1);
 * - a stray `null` tag reads as the parent and is never copied to the output (docs/rules.md#C1);
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
  const events: Event[] = [];
  const rejected = normalizeInto(state, event, (next) => {
    events.push(next);
    return true;
  });
  return rejected === undefined ? E.right({ state, events }) : E.left(rejected);
}

/**
 * `normalizeStep` with the expansion handed to `emit` one event at a time, each recorded in `state`
 * only once `emit` says it was sent, and nothing emitted after the first it refuses (`Emit.ts`): the
 * state is then the one after exactly what was sent. Returns the ProtocolError that rejects `event`
 * (nothing emitted, nothing changed), else `undefined`. With an `emit` that sends everything this is
 * `normalizeStep`; `checkedStep` gives it one that verifies.
 *
 * @example
 * const rejected = normalizeInto(state, ev.textMessageChunk({ messageId: "m1", delta: "Hi" }), (event) => verifyEvent(verifier, event) === undefined);
 */
export function normalizeInto(state: NormalizerState, event: Event, emit: Emit): ProtocolError | undefined {
  switch (event.type) {
    case "TEXT_MESSAGE_CHUNK":
    case "TOOL_CALL_CHUNK":
    case "REASONING_MESSAGE_CHUNK":
      return expandChunk(state, event, emit);

    case "THINKING_START":
    case "THINKING_END":
    case "THINKING_TEXT_MESSAGE_START":
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END": {
      const mapped = mapThinkingEvent(event, state.thinking, state.newId);
      state.thinking = mapped.ids;
      // THINKING_* carry no tag: they are explicit events of the parent lane (docs/rules.md#C10 b).
      if (closeLane(state, undefined, emit) && (mapped.closing === undefined || emit(mapped.closing))) explicitReasoning(state, mapped.event, emit);
      return undefined;
    }

    case "RUN_STARTED":
      // Thinking ids, blocks and reasoning owners belong to one run; a new run starts with none but its input's.
      state.thinking = {};
      if (closeAll(state, emit) && emit(event)) {
        clearBlocks(state.blocks);
        recordMessages(state.blocks, event.input?.messages, false);
      }
      return undefined;
    case "RUN_FINISHED":
    case "RUN_ERROR":
      if (closeAll(state, emit)) emit(event);
      return undefined;
    case "MESSAGES_SNAPSHOT":
      if (closeAll(state, emit) && emit(event)) recordMessages(state.blocks, event.messages, true); // a snapshot's word on owners wins (docs/rules.md#R43)
      return undefined;

    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
      // The codec requires the id, but an in-process producer may omit it: then it names no lane
      // and closes nothing (docs/rules.md#C10 d), rather than the parent's lane that an absent tag would mean.
      if (typeof event.subagentRunId !== "string" || closeLane(state, event.subagentRunId, emit)) emit(event);
      return undefined;

    case "RAW":
    case "ACTIVITY_SNAPSHOT":
    case "ACTIVITY_DELTA":
    case "REASONING_ENCRYPTED_VALUE":
    case "SUBAGENT_STARTED":
      emit(event);
      return undefined;

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
      // Explicit events close only their own lane (docs/rules.md#C10 b); `?? undefined` reads a stray null as the parent (docs/rules.md#C1).
      if (closeLane(state, event.subagentRunId ?? undefined, emit)) emit(event);
      return undefined;
    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_END":
      // As above; then the blocks learn of it (docs/rules.md#R22), after the lane closed: a bracketed chunk message in it ends first.
      if (closeLane(state, event.subagentRunId ?? undefined, emit)) explicitReasoning(state, event, emit);
      return undefined;
  }
  // Unreachable for a decoded Event. A type unknown at run time (an in-process producer's) passes
  // through untouched, as in the official client, for the verifier or the decoder to report.
  emit(event);
  return undefined;
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
