/** The client reducer: one verified, normalized event applied to the client state (docs/rules.md#apply, docs/rules.md#A23). */
import * as E from "../../protocol/either";
import { forkMarkerOf } from "../../protocol/branchMeta";
import type { Event } from "../../protocol/events";
import { compareProtocolVersion, PROTOCOL_VERSION } from "../../protocol/version";
import { applyPatch, applyPatchInBatch } from "../../patch/apply";
import { cloneJson } from "../../patch/json";
import { ClientError } from "../ClientError";
import type { RunEnd, Update } from "../Update";
import type { ClientState } from "./ClientState";
import type { MessageList } from "./MessageList";
import { copyMessage } from "./copyMessage";
import { finishedRunEnd } from "./finishedRunEnd";
import { mergeMessagesSnapshot } from "./mergeMessagesSnapshot";
import { refusedKey } from "./ruleHelpers";
import { activityDelta, activitySnapshot, encryptedValue, reasoningMessage, textMessageContinue, textMessageStart } from "./messageRules";
import { toolCallContinue, toolCallResult, toolCallStart } from "./toolCallRules";
import { applySubagentEvent } from "./subagentRules";

const NONE: readonly never[] = [];

/**
 * Applies `event` to `state` in place and returns the updates it causes, in order: at most one
 * update for the event itself (docs/rules.md#A23) plus the diagnostics it produced (a failed state or activity
 * patch, a state that does not decode, a refused metadata key, a message id already taken, a
 * RUN_STARTED declaring a newer or uninterpretable protocol version: a `warning`); a terminal
 * event also yields its interrupts and the `done` update (RUN_ERROR an `error` of kind `run`
 * before it; a cancelled outcome ends `cancelled`, with no error). Continuations for unknown ids
 * change nothing and yield nothing. Defaults an undecoded event may lack (TEXT_MESSAGE_START.role,
 * ACTIVITY_SNAPSHOT.replace) are read through `protocol/defaults.ts`, as the decoder fills them.
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
      const unpublished = state.unpublished;
      const patched = unpublished === undefined ? applyPatch(state.rawState, event.delta) : applyPatchInBatch(state.rawState, event.delta, unpublished);
      if (E.isLeft(patched)) {
        emit({
          kind: "error",
          error: new ClientError("patch", `state patch failed: ${patched.left.message}`, { cause: patched.left, event }),
        });
      } else setState(state, patched.right, emit);
      break;
    }
    case "MESSAGES_SNAPSHOT": {
      const refuse = (key: string) => emit(refusedKey(key, event));
      list.reset(mergeMessagesSnapshot(list.snapshot(), event.messages, (message) => copyMessage(message, refuse)));
      emit({ kind: "messages", messages: list.snapshot() });
      break;
    }
    case "RUN_STARTED": {
      if (event.protocolVersion !== undefined) checkProtocolVersion(event.protocolVersion, event, emit);
      // docs/rules.md#A15: the input's messages the client does not have yet, before anything the run streams
      // docs/threads.md#branches-on-the-wire: a run that starts a sibling cuts the path after its fork point first
      const fork = forkMarkerOf(event.metadata);
      let appended = fork !== undefined && cutAfter(list, fork.after);
      const refuse = (key: string) => emit(refusedKey(key, event));
      for (const message of event.input?.messages ?? []) {
        if (list.indexOf(message.id) >= 0) continue;
        list.append(copyMessage(message, refuse));
        appended = true;
      }
      if (appended) emit({ kind: "messages", messages: list.snapshot() });
      break;
    }
    case "RUN_FINISHED": {
      const end = finishedRunEnd(event);
      if (end.kind === "interrupted") {
        state.interrupts = end.interrupts;
        for (const interrupt of end.interrupts) emit({ kind: "interrupt", interrupt });
      } else if (end.kind === "success") state.interrupts = NONE;
      // cancelled (docs/rules.md#E2): stopped, not failed; pending interrupts stay as they were, as on RUN_ERROR
      emit(done(end));
      break;
    }
    case "RUN_ERROR": {
      // docs/rules.md#A17: nothing changes; the run ends failed with the agent's message and code
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
      // STEP_*, CUSTOM, RAW, REASONING_START/END change nothing (docs/rules.md#A13, docs/rules.md#A18); chunks and THINKING_* are normalized away upstream
      break;
  }
  return out ?? NONE;
}

/**
 * Cuts `list` right after the message `after` (`null`: everything); a list that does not hold it
 * holds only messages newer than the fork point (a window of the path's last messages), so all go.
 * Whether anything was removed.
 */
function cutAfter(list: MessageList, after: string | null): boolean {
  const keep = after === null ? 0 : list.indexOf(after) + 1;
  if (keep >= list.length) return false;
  list.truncate(keep);
  return true;
}

/**
 * docs/rules.md#A5: a RUN_STARTED declaring a version newer than ours, or one that is not a `MAJOR.MINOR`, gets
 * a `warning` (one per run: a run has one RUN_STARTED); the run goes on under the processing model.
 */
function checkProtocolVersion<S>(declared: string, event: Event, emit: (update: Update<S>) => void): void {
  const verdict = compareProtocolVersion(declared);
  if (verdict === "not-newer") return;
  const message =
    verdict === "newer"
      ? `the agent declares protocol version ${JSON.stringify(declared)} on RUN_STARTED, newer than the ${PROTOCOL_VERSION} this client speaks; ` +
        `material this client does not recognise is stripped, with a warning for each`
      : `the agent declares protocol version ${JSON.stringify(declared)} on RUN_STARTED, which this client cannot interpret (expected MAJOR.MINOR, e.g. "${PROTOCOL_VERSION}"); ` +
        `the run goes on as with a newer version`;
  emit({ kind: "error", error: new ClientError("warning", message, { code: "protocol-version", event }) });
}

function done(end: RunEnd): Update<never> {
  return { kind: "done", end };
}

function setState<S>(state: ClientState<S>, raw: unknown, emit: (update: Update<S>) => void): void {
  const decoded = state.setRawState(raw);
  if (E.isLeft(decoded)) emit({ kind: "error", error: decoded.left });
  else emit({ kind: "state", state: decoded.right, rawState: raw });
}
