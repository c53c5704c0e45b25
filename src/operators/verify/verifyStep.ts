/**
 * The pure step of the ordering verifier (RULES §1): one event in, either the state after it or
 * the ProtocolError that rejects it. The operator `verifyEvents()` and the server's emitters both
 * call it, the server synchronously before each send.
 */
import * as E from "fp-ts/Either";
import type { Event } from "../../protocol/events";
import type { Message } from "../../protocol/messages";
import type { ProtocolError } from "../ProtocolError";
import { checkFieldSanity, read } from "./fieldSanity";
import { continuationConflict, disagrees, reopenConflict } from "./ownership";
import { checkReasoning } from "./reasoning";
import { fail, list, listOpen, quote } from "./report";
import { PARENT, describeOwner, emptyRunScope, ownerOf, ownerRecord, type RunScope, type VerifierState } from "./VerifierState";

export { initialVerifierState, type VerifierState } from "./VerifierState";

type Result = E.Either<ProtocolError, VerifierState>;

/**
 * Checks `event` against the ordering rules R1–R45 given `state`, the verifier state after every
 * earlier accepted event of the stream.
 *
 * - Accepted: `Right(state)`. To keep the work O(1) per event (O(size of the event) for snapshots
 *   and input echoes), the state object is **mutated in place** after every check has passed, and
 *   that same object is returned. Keep using the returned value.
 * - Rejected: `Left(ProtocolError)` with the rule family (`code`), the RULES id (`rule`), the
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


/** R1–R4: where the event may stand relative to the runs of the stream. */
function checkRunLifecycle(state: VerifierState, event: Event): ProtocolError | undefined {
  const { type } = event;
  switch (state.phase) {
    case "before":
      if (type === "RUN_STARTED" || type === "RUN_ERROR") return undefined;
      return fail("run-lifecycle", "R1", event, `expected RUN_STARTED or RUN_ERROR as the first event of the stream, but got ${type}`);
    case "running":
      if (type !== "RUN_STARTED") return undefined;
      return fail(
        "run-lifecycle",
        "R2",
        event,
        `RUN_STARTED while run ${quote(state.run.runId)} is still active; expected RUN_FINISHED or RUN_ERROR before a new run`,
      );
    case "finished":
      if (type === "RUN_STARTED" || type === "RUN_ERROR") return undefined;
      return fail(
        "run-lifecycle",
        "R3",
        event,
        `${type} after RUN_FINISHED of run ${quote(state.run.runId)}; only RUN_STARTED (a new run) or RUN_ERROR may follow`,
      );
    case "errored":
      if (type === "RUN_STARTED") return undefined;
      return fail("run-lifecycle", "R4", event, `${type} after RUN_ERROR; only RUN_STARTED (a new run) may follow`);
  }
}

/** Checks the event's own rules, then (only if it passes) records its effect on the state. */
function apply(state: VerifierState, event: Event): ProtocolError | undefined {
  const run = state.run;
  const { owners } = run;
  switch (event.type) {
    // ─── Run lifecycle (R2–R7 beyond the phase checks above) ───
    case "RUN_STARTED": {
      // A run that follows a terminal starts clean (R6); before the first run the scope is still clean.
      const scope = state.phase === "before" ? run : emptyRunScope();
      scope.runId = event.runId;
      seedOwners(scope, event.input?.messages, "input");
      state.phase = "running";
      state.run = scope;
      return undefined;
    }
    case "RUN_FINISHED": {
      const open = openAtRunEnd(run);
      if (open) return fail("run-lifecycle", "R7", event, `RUN_FINISHED while ${open}`);
      state.phase = "finished";
      return undefined;
    }
    case "RUN_ERROR":
      state.phase = "errored";
      return undefined;

    // ─── Text messages (R14–R16, R37, R38) ───
    case "TEXT_MESSAGE_START": {
      const { messageId, subagentRunId: tag } = event;
      if (run.openTextMessages.has(messageId)) {
        return fail("text-message", "R14", event, `TEXT_MESSAGE_START for ${messageId}, but text message ${messageId} is already open; expected TEXT_MESSAGE_END first`);
      }
      const recorded = owners.message.get(messageId);
      const conflict = reopenConflict(event, "text message", messageId, tag, recorded);
      if (conflict) return conflict;
      run.openTextMessages.add(messageId);
      // First writer wins: an untagged reopen agrees with any owner and must not hand the id to the parent.
      if (recorded === undefined) owners.message.set(messageId, ownerRecord(ownerOf(tag), "opener"));
      return undefined;
    }
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END": {
      const { messageId, subagentRunId: tag } = event;
      if (!run.openTextMessages.has(messageId)) {
        return fail("text-message", "R15", event, `${event.type} for ${messageId}, but no text message ${messageId} is open (${listOpen(run.openTextMessages)})`);
      }
      const conflict = continuationConflict(event, "R37", "text message", messageId, tag, owners.message.get(messageId));
      if (conflict) return conflict;
      if (event.type === "TEXT_MESSAGE_END") run.openTextMessages.delete(messageId);
      return undefined;
    }

    // ─── Tool calls (R18–R21, R37–R39, R42) ───
    case "TOOL_CALL_START": {
      const { toolCallId, parentMessageId, subagentRunId: tag } = event;
      if (run.openToolCalls.has(toolCallId)) {
        return fail("tool-call", "R18", event, `TOOL_CALL_START for ${toolCallId}, but tool call ${toolCallId} is already open; expected TOOL_CALL_END first`);
      }
      // A tool call has no owner of its own: it lives in the message its parentMessageId names (R39).
      const parent = typeof parentMessageId === "string" ? owners.message.get(parentMessageId) : undefined;
      if (parent !== undefined && disagrees(tag, parent.owner)) {
        return fail(
          "ownership",
          "R39",
          event,
          `TOOL_CALL_START ${toolCallId} attributed to ${describeOwner(ownerOf(tag))}, but its parent message ${parentMessageId} belongs to ${describeOwner(parent.owner)}; a tool call belongs to the message that holds it`,
        );
      }
      const recorded = owners.toolCall.get(toolCallId);
      const conflict = reopenConflict(event, "tool call", toolCallId, tag, recorded);
      if (conflict) return conflict;
      if (tag === undefined && parent !== undefined && recorded !== undefined && parent.owner !== recorded.owner) {
        return fail(
          "ownership",
          "R39",
          event,
          `TOOL_CALL_START reopens tool call ${toolCallId} of ${describeOwner(recorded.owner)} inside message ${parentMessageId} of ${describeOwner(parent.owner)}; expected a parent message of the same owner`,
        );
      }
      run.openToolCalls.add(toolCallId);
      if (recorded === undefined) owners.toolCall.set(toolCallId, ownerRecord(tag !== undefined ? tag : parent?.owner ?? PARENT, "opener"));
      return undefined;
    }
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END": {
      const { toolCallId, subagentRunId: tag } = event;
      if (!run.openToolCalls.has(toolCallId)) {
        return fail("tool-call", "R19", event, `${event.type} for ${toolCallId}, but no tool call ${toolCallId} is open (${listOpen(run.openToolCalls)})`);
      }
      const conflict = continuationConflict(event, "R37", "tool call", toolCallId, tag, owners.toolCall.get(toolCallId));
      if (conflict) return conflict;
      if (event.type === "TOOL_CALL_END") run.openToolCalls.delete(toolCallId);
      return undefined;
    }
    case "TOOL_CALL_RESULT":
      // The result mints a tool message under its own attribution; the newest result wins (R42).
      owners.message.set(event.messageId, ownerRecord(ownerOf(event.subagentRunId), "tool-result"));
      return undefined;

    // ─── Reasoning (R22: blocks and messages bracketed, a message opening inside a block of its owner; R37, R38) ───
    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
    case "REASONING_END":
      return checkReasoning(run, event);
    case "REASONING_ENCRYPTED_VALUE": {
      const { entityId, subtype, subagentRunId: tag } = event;
      // tool-call → the tool call's owner; message → the text message's, else the reasoning's; anything else → reasoning.
      const kind = subtype === "tool-call" ? "tool call" : subtype === "message" ? "message" : "reasoning";
      const recorded =
        subtype === "tool-call"
          ? owners.toolCall.get(entityId)
          : subtype === "message"
            ? owners.message.get(entityId) ?? owners.reasoning.get(entityId)
            : owners.reasoning.get(entityId);
      const conflict = continuationConflict(event, "R40", kind, entityId, tag, recorded);
      return conflict;
    }

    // ─── Activity (R24, R41) ───
    case "ACTIVITY_SNAPSHOT": {
      const { messageId } = event;
      // Only a replacing snapshot (re)mints the activity, so only it (or the first sighting) takes ownership.
      if (event.replace !== false || !owners.activity.has(messageId)) {
        owners.activity.set(messageId, ownerRecord(ownerOf(event.subagentRunId), "activity-snapshot"));
      }
      return undefined;
    }
    case "ACTIVITY_DELTA": {
      const { messageId, subagentRunId: tag } = event;
      const conflict = continuationConflict(event, "R41", "activity", messageId, tag, owners.activity.get(messageId));
      return conflict;
    }

    // ─── Snapshots (R43) ───
    case "MESSAGES_SNAPSHOT":
      seedOwners(run, event.messages, "snapshot");
      return undefined;

    // ─── Steps (R25–R29) ───
    case "STEP_STARTED": {
      const { stepName } = event;
      const owner = ownerOf(event.subagentRunId);
      const holders = run.activeSteps.get(stepName);
      if (holders?.has(owner)) {
        return fail("step", "R25", event, `STEP_STARTED "${stepName}" for ${describeOwner(owner)}, but that step is already active; expected STEP_FINISHED first`);
      }
      if (holders) holders.add(owner);
      else run.activeSteps.set(stepName, new Set([owner]));
      run.activeStepCount += 1;
      return undefined;
    }
    case "STEP_FINISHED": {
      const { stepName } = event;
      const owner = ownerOf(event.subagentRunId);
      const holders = run.activeSteps.get(stepName);
      if (!holders?.has(owner)) {
        if (holders === undefined) {
          return fail("step", "R26", event, `STEP_FINISHED "${stepName}", but no step "${stepName}" was started (${listSteps(run)})`);
        }
        // "" and the parent are distinct owners (R28); name that confusion when it is the one at hand.
        const real = owner === "" && holders.has(PARENT) ? PARENT : owner === PARENT && holders.has("") ? "" : first(holders);
        const emptyVsParent = (owner === "" && real === PARENT) || (owner === PARENT && real === "");
        return fail(
          "step",
          emptyVsParent ? "R28" : "R27",
          event,
          `STEP_FINISHED "${stepName}" from ${describeOwner(owner)}, but that step is open under ${describeOwner(real)}; a step must be finished by whoever started it`,
        );
      }
      holders.delete(owner);
      if (holders.size === 0) run.activeSteps.delete(stepName);
      run.activeStepCount -= 1;
      return undefined;
    }

    // ─── Subagents (R30–R34) ───
    case "SUBAGENT_STARTED": {
      const { subagentRunId: id, parentSubagentRunId: parent } = event;
      if (run.activeSubagents.has(id)) {
        return fail("subagent", "R30", event, `SUBAGENT_STARTED for "${id}", but subagent "${id}" is already active; expected SUBAGENT_FINISHED or SUBAGENT_ERROR first`);
      }
      if (run.closedSubagents.has(id)) {
        return fail("subagent", "R31", event, `SUBAGENT_STARTED for "${id}", but subagent "${id}" already ended in this run; an id names one invocation, so expected a new id`);
      }
      if (parent !== undefined && !run.activeSubagents.has(parent) && !run.closedSubagents.has(parent)) {
        return fail("subagent", "R32", event, `SUBAGENT_STARTED "${id}" names parentSubagentRunId "${parent}", but no subagent "${parent}" was started in this run`);
      }
      run.activeSubagents.add(id);
      return undefined;
    }
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR": {
      const { subagentRunId: id } = event;
      if (!run.activeSubagents.has(id)) {
        const why = run.closedSubagents.has(id) ? `subagent "${id}" already ended` : `no subagent "${id}" was started`;
        return fail("subagent", "R33", event, `${event.type} for "${id}", but ${why} (${listOpen(run.activeSubagents, "active")})`);
      }
      run.activeSubagents.delete(id);
      run.closedSubagents.add(id);
      return undefined;
    }

    // ─── Legacy THINKING_* (R23) ───
    case "THINKING_START":
      if (run.thinkingStep) return fail("thinking", "R23", event, "THINKING_START while a thinking step is active; expected THINKING_END first");
      run.thinkingStep = true;
      return undefined;
    case "THINKING_END":
      if (!run.thinkingStep) return fail("thinking", "R23", event, "THINKING_END, but no thinking step is active; expected THINKING_START first");
      run.thinkingStep = false;
      run.thinkingMessage = false;
      return undefined;
    case "THINKING_TEXT_MESSAGE_START":
      if (!run.thinkingStep) return fail("thinking", "R23", event, "THINKING_TEXT_MESSAGE_START, but no thinking step is active; expected THINKING_START first");
      if (run.thinkingMessage) return fail("thinking", "R23", event, "THINKING_TEXT_MESSAGE_START while a thinking message is open; expected THINKING_TEXT_MESSAGE_END first");
      run.thinkingMessage = true;
      return undefined;
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END":
      if (!run.thinkingMessage) return fail("thinking", "R23", event, `${event.type}, but no thinking message is open; expected THINKING_TEXT_MESSAGE_START first`);
      if (event.type === "THINKING_TEXT_MESSAGE_END") run.thinkingMessage = false;
      return undefined;

    // ─── Unordered (§1.11): state, custom, raw; chunks are normalized upstream ───
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
      // decoding is where unknown types are fatal (E7), so the ordering rules have nothing to say.
      return undefined;
  }
}

/**
 * R43/R44: a snapshot (authoritative: replaces recorded owners) or an input echo (only for ids
 * without an owner) records each message's owner in the map of its role (reasoning, activity, or
 * text message for every other role), and the owner of its tool calls.
 */
function seedOwners(run: RunScope, messages: readonly Message[] | undefined, source: "snapshot" | "input"): void {
  if (!Array.isArray(messages)) return;
  const { owners } = run;
  const authoritative = source === "snapshot";
  for (const message of messages) {
    if (typeof read(message, "id") !== "string") continue;
    const record = ownerRecord(ownerOf(message.subagentRunId), source);
    const map = message.role === "reasoning" ? owners.reasoning : message.role === "activity" ? owners.activity : owners.message;
    if (authoritative || !map.has(message.id)) map.set(message.id, record);
    if (message.role !== "assistant" || !Array.isArray(message.toolCalls)) continue;
    for (const call of message.toolCalls) {
      if (typeof read(call, "id") !== "string") continue;
      if (authoritative || !owners.toolCall.has(call.id)) owners.toolCall.set(call.id, record);
    }
  }
}

/**
 * R7, R22: the first category still open at RUN_FINISHED, in the order steps, text messages,
 * reasoning messages, reasoning spans, tool calls, subagents (1.0.0's order), with its items;
 * `undefined` when all are closed. O(1) when nothing is open.
 */
function openAtRunEnd(run: RunScope): string | undefined {
  if (run.activeStepCount > 0) return `steps are still active: ${listSteps(run)}; expected STEP_FINISHED for each first`;
  if (run.openTextMessages.size > 0) return `text messages are still open: ${list(run.openTextMessages, run.openTextMessages.size)}; expected TEXT_MESSAGE_END for each first`;
  if (run.openReasoningMessages.size > 0) {
    return `reasoning messages are still open: ${list(run.openReasoningMessages, run.openReasoningMessages.size)}; expected REASONING_MESSAGE_END for each first`;
  }
  if (run.openReasoningSpans.size > 0) {
    return `reasoning spans are still open: ${list(run.openReasoningSpans.keys(), run.openReasoningSpans.size)}; expected REASONING_END for each first`;
  }
  if (run.openToolCalls.size > 0) return `tool calls are still open: ${list(run.openToolCalls, run.openToolCalls.size)}; expected TOOL_CALL_END for each first`;
  if (run.activeSubagents.size > 0) {
    return `subagents are still active: ${list(run.activeSubagents, run.activeSubagents.size)}; expected SUBAGENT_FINISHED or SUBAGENT_ERROR for each first`;
  }
  return undefined;
}

/** Active steps as "name (owner)" pairs, at most `LISTED` of them. */
function listSteps(run: RunScope): string {
  if (run.activeStepCount === 0) return "no step is active";
  return list(stepLabels(run), run.activeStepCount);
}

function* stepLabels(run: RunScope): Generator<string> {
  for (const [name, holders] of run.activeSteps) {
    for (const owner of holders) yield `"${name}" (${describeOwner(owner)})`;
  }
}

function first<T>(items: Iterable<T>): T {
  for (const item of items) return item;
  throw new RangeError("first() of an empty collection"); // callers pass non-empty sets only
}

