/** The client reducer: one verified, normalized event applied to the client state (RULES §3, A23). */
import * as E from "fp-ts/Either";
import type { Event } from "../../protocol/events";
import type { Message } from "../../protocol/messages";
import { applyPatch } from "../../patch/apply";
import { cloneJson } from "../../patch/json";
import { ClientError } from "../ClientError";
import type { RunEnd, Update } from "../Update";
import type { ClientState } from "./ClientState";
import { mergeMessagesSnapshot } from "./mergeMessagesSnapshot";
import {
  activityDelta,
  activitySnapshot,
  encryptedValue,
  reasoningMessage,
  textMessageContinue,
  textMessageStart,
  toolCallContinue,
  toolCallResult,
  toolCallStart,
} from "./messageRules";
import { applySubagentEvent } from "./subagentRules";

const NONE: readonly never[] = [];

/**
 * Applies `event` to `state` in place and returns the updates it causes, in order: at most one
 * update for the event itself (A23) plus the diagnostics it produced (a failed state or activity
 * patch, a state that does not decode, a refused metadata key); a terminal event also yields its
 * interrupts and the `done` update (RUN_ERROR an `error` of kind `run` before it). Continuations
 * for unknown ids change nothing and yield nothing.
 *
 * The state is owned by the caller's scan: treat the input as consumed. Cost is proportional to
 * the event (and, for a TOOL_CALL_RESULT inserted mid-list, to the messages after it): nothing is
 * deep-cloned or serialized per event except the event's own values, which are copied so that the
 * state never aliases an event.
 *
 * Events this reducer does not expect after `normalizeChunks()` (chunks, THINKING_*) change nothing.
 *
 * @example
 * const state = ClientState.untyped();
 * applyEvent(state, ev.textMessageStart("m1"));       // [{ kind: "message", change: { kind: "started" }, index: 0, … }]
 * applyEvent(state, ev.textMessageContent("m1", "Hi")); // [{ kind: "message", change: { kind: "content", delta: "Hi" }, … }]
 */
export function applyEvent<S>(state: ClientState<S>, event: Event): readonly Update<S>[] {
  let out: Update<S>[] | undefined;
  const emit = (update: Update<S>): void => {
    // Most events yield one update: `[update]` allocates one slot, where `[]` then push would reserve 17.
    if (out === undefined) out = [update];
    else out.push(update);
  };
  const list = state.messages;
  switch (event.type) {
    case "TEXT_MESSAGE_START":
      textMessageStart(list, event, emit);
      break;
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
      textMessageContinue(list, event, emit);
      break;
    case "TOOL_CALL_START":
      toolCallStart(list, event, emit);
      break;
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
      toolCallContinue(list, event, emit);
      break;
    case "TOOL_CALL_RESULT":
      toolCallResult(list, event, emit);
      break;
    case "ACTIVITY_SNAPSHOT":
      activitySnapshot(list, event, emit);
      break;
    case "ACTIVITY_DELTA":
      activityDelta(list, event, emit);
      break;
    case "REASONING_MESSAGE_START":
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
      reasoningMessage(list, event, emit);
      break;
    case "REASONING_ENCRYPTED_VALUE":
      encryptedValue(list, event, emit);
      break;
    case "STATE_SNAPSHOT":
      setState(state, cloneJson(event.snapshot), emit);
      break;
    case "STATE_DELTA": {
      const patched = applyPatch(state.rawState, event.delta);
      if (E.isLeft(patched)) {
        emit({
          kind: "error",
          error: new ClientError("patch", `state patch failed: ${patched.left.message}`, { cause: patched.left, event }),
        });
      } else setState(state, patched.right, emit);
      break;
    }
    case "MESSAGES_SNAPSHOT": {
      list.reset(mergeMessagesSnapshot(list.snapshot(), event.messages));
      emit({ kind: "messages", messages: list.snapshot() });
      break;
    }
    case "RUN_STARTED": {
      // A15: the input's messages the client does not have yet, before anything the run streams
      let appended = false;
      for (const message of event.input?.messages ?? []) {
        if (list.indexOf(message.id) >= 0) continue;
        list.append(cloneJson(message) as Message); // a deep copy of a Message is a Message
        appended = true;
      }
      if (appended) emit({ kind: "messages", messages: list.snapshot() });
      break;
    }
    case "RUN_FINISHED": {
      const outcome = event.outcome;
      if (outcome?.type === "interrupt") {
        state.interrupts = outcome.interrupts.map((interrupt) => ({ ...interrupt }));
        for (const interrupt of state.interrupts) emit({ kind: "interrupt", interrupt });
        emit(done({ kind: "interrupted", interrupts: state.interrupts }));
      } else if (outcome?.type === "cancelled") {
        // 1.0.0's third outcome: stopped by its runner without an error. RunEnd is closed, so it is a failure with code "cancelled" (decision).
        const message = "the run was cancelled by its runner (RUN_FINISHED outcome cancelled)";
        emit({ kind: "error", error: new ClientError("run", message, { code: "cancelled", event }) });
        emit(done({ kind: "failed", message, code: "cancelled" }));
      } else {
        state.interrupts = NONE;
        emit(done(event.result === undefined ? { kind: "success" } : { kind: "success", result: event.result }));
      }
      break;
    }
    case "RUN_ERROR": {
      // A17: nothing changes; the run ends failed with the agent's message and code
      emit({ kind: "error", error: new ClientError("run", event.message, { code: event.code, event }) });
      emit(done(event.code === undefined ? { kind: "failed", message: event.message } : { kind: "failed", message: event.message, code: event.code }));
      break;
    }
    case "SUBAGENT_STARTED":
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR": {
      const update = applySubagentEvent(state, event);
      if (update !== undefined) emit(update);
      break;
    }
    default:
      // STEP_*, CUSTOM, RAW, REASONING_START/END change nothing (A13, A18); chunks and THINKING_* are normalized away upstream
      break;
  }
  return out ?? NONE;
}

function done(end: RunEnd): Update<never> {
  return { kind: "done", end };
}

function setState<S>(state: ClientState<S>, raw: unknown, emit: (update: Update<S>) => void): void {
  const decoded = state.setRawState(raw);
  if (E.isLeft(decoded)) emit({ kind: "error", error: decoded.left });
  else emit({ kind: "state", state: decoded.right, rawState: raw });
}
