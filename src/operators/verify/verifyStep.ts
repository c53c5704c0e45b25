/**
 * The pure step of the ordering verifier (docs/rules.md#order): one event in, either the state after it or
 * the ProtocolError that rejects it. The operator `verifyEvents()` and the server's emitters both
 * call it, the server synchronously before each send. This file is the entry points and the
 * dispatch; each rule family is a pure check over the verifier state in a file of its own, in
 * docs/rules.md#order order: `lifecycle.ts` (docs/rules.md#R1 to docs/rules.md#R7, docs/rules.md#R7a, docs/rules.md#A16's unique interrupt ids), `fieldSanity.ts` (docs/rules.md#R8 to docs/rules.md#R13, docs/rules.md#R22's role), `text.ts` (docs/rules.md#R14 to docs/rules.md#R16),
 * `toolCalls.ts` (docs/rules.md#R18 to docs/rules.md#R21, docs/rules.md#R39, docs/rules.md#R42), `reasoning.ts` (docs/rules.md#R22, docs/rules.md#R40), `thinking.ts` (docs/rules.md#R23),
 * `activity.ts` (docs/rules.md#R24, docs/rules.md#R41), `steps.ts` (docs/rules.md#R25 to docs/rules.md#R29), `subagents.ts` (docs/rules.md#R30 to docs/rules.md#R34), `snapshots.ts` (docs/rules.md#R43,
 * docs/rules.md#R44); `spans.ts` and `ownership.ts` hold the checks the families share (docs/rules.md#R37, docs/rules.md#R38).
 */
import * as E from "../../protocol/either";
import type { Event } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { activityDelta, activitySnapshot } from "./activity";
import { checkFieldSanity } from "./fieldSanity";
import { checkRunLifecycle, runError, runFinished, runStarted } from "./lifecycle";
import { checkReasoning } from "./reasoning";
import { messagesSnapshot } from "./snapshots";
import { stepFinished, stepStarted } from "./steps";
import { subagentEnded, subagentStarted } from "./subagents";
import { textMessageContinue, textMessageStart } from "./text";
import { checkThinking } from "./thinking";
import { toolCallContinue, toolCallResult, toolCallStart } from "./toolCalls";
import type { VerifierState } from "./VerifierState";

export { initialVerifierState, type VerifierState } from "./VerifierState";

type Result = E.Either<ProtocolError, VerifierState>;

/**
 * Checks `event` against the ordering rules docs/rules.md#R1 to docs/rules.md#R45 and docs/rules.md#R7a given `state`, the verifier state after every
 * earlier accepted event of the stream.
 *
 * - Accepted: `Right(state)`. To keep the work O(1) per event (O(size of the event) for snapshots
 *   and input echoes), the state object is **mutated in place** after every check has passed, and
 *   that same object is returned. Keep using the returned value.
 * - Rejected: `Left(ProtocolError)` with the rule family (`code`), the docs/rules.md id (`rule`), the
 *   event, and a message naming what was expected and what arrived. A rejected event changes
 *   **nothing** in `state`: all checks run before the first write. Callers rely on this: the
 *   server throws at the emitting call site and carries on with the same state, and report mode
 *   drops the event and verifies the next one against the same state.
 *
 * Chunk events (`*_CHUNK`) are expected to be expanded upstream by `normalizeChunks()`; if one
 * arrives here it is checked only for run lifecycle and field sanity, and passed on.
 *
 * @example
 * let state = initialVerifierState();
 * for (const event of [ev.runStarted("t", "r"), ev.textMessageContent("m2", "hi")]) {
 *   const result = verifyStep(state, event);
 *   if (E.isLeft(result)) throw result.left; // ProtocolError { code: "text-message", rule: "R15" }
 *   state = result.right;
 * }
 */
export function verifyStep(state: VerifierState, event: Event): Result {
  const error = verifyEvent(state, event);
  return error === undefined ? E.right(state) : E.left(error);
}

/**
 * `verifyStep` without the Either: the ProtocolError that rejects `event`, or `undefined` when it is
 * accepted (then `state` has been updated in place, exactly as `verifyStep` does). For the
 * operators' per-event loop, where the Either would be one more allocation per event.
 *
 * @example
 * const error = verifyEvent(state, event);
 * if (error !== undefined) subscriber.error(error);
 * else subscriber.next(event);
 */
export function verifyEvent(state: VerifierState, event: Event): ProtocolError | undefined {
  return checkRunLifecycle(state, event) ?? checkFieldSanity(event) ?? apply(state, event);
}

/**
 * Checks the event's own rules, then (only if it passes) records its effect on the state: one
 * call into its family's file per event type. The per-event functions (rather than one entry per
 * family) keep the streaming hot path (TEXT_MESSAGE_CONTENT, TOOL_CALL_ARGS) small enough to inline.
 */
function apply(state: VerifierState, event: Event): ProtocolError | undefined {
  const { run } = state;
  switch (event.type) {
    case "RUN_STARTED":
      return runStarted(state, event);
    case "RUN_FINISHED":
      return runFinished(state, event);
    case "RUN_ERROR":
      return runError(state);

    case "TEXT_MESSAGE_START":
      return textMessageStart(run, event);
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
      return textMessageContinue(run, event);

    case "TOOL_CALL_START":
      return toolCallStart(run, event);
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
      return toolCallContinue(run, event);
    case "TOOL_CALL_RESULT":
      return toolCallResult(run, event);

    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
    case "REASONING_END":
    case "REASONING_ENCRYPTED_VALUE":
      return checkReasoning(run, event);

    case "THINKING_START":
    case "THINKING_END":
    case "THINKING_TEXT_MESSAGE_START":
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END":
      return checkThinking(run, event);

    case "ACTIVITY_SNAPSHOT":
      return activitySnapshot(run, event);
    case "ACTIVITY_DELTA":
      return activityDelta(run, event);

    case "STEP_STARTED":
      return stepStarted(run, event);
    case "STEP_FINISHED":
      return stepFinished(run, event);

    case "SUBAGENT_STARTED":
      return subagentStarted(run, event);
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
      return subagentEnded(run, event);

    case "MESSAGES_SNAPSHOT":
      return messagesSnapshot(run, event);

    // Unordered (§1.11): state, custom, raw; chunks are normalized upstream.
    case "STATE_SNAPSHOT":
    case "STATE_DELTA":
    case "CUSTOM":
    case "RAW":
    case "TEXT_MESSAGE_CHUNK":
    case "TOOL_CALL_CHUNK":
    case "REASONING_MESSAGE_CHUNK":
      return undefined;
    default:
      // Unreachable for typed events. An in-process producer can still hand over an unknown type:
      // decoding is where unknown types are fatal (docs/rules.md#E7), so the ordering rules have nothing to say.
      event satisfies never;
      return undefined;
  }
}
