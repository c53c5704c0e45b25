/**
 * The pure step of the ordering verifier (RULES §1): one event in, either the state after it or
 * the ProtocolError that rejects it. The operator `verifyEvents()` and the server's emitters both
 * call it, the server synchronously before each send.
 */
import * as E from "fp-ts/Either";
import type { Event, EventOf } from "../../protocol/events";
import type { Message } from "../../protocol/messages";
import { ProtocolError, type ProtocolErrorCode } from "../ProtocolError";
import {
  PARENT,
  describeOwner,
  emptyRunScope,
  ownerOf,
  ownerRecord,
  type Owner,
  type OwnerRecord,
  type OwnerSource,
  type RunScope,
  type VerifierState,
} from "./VerifierState";

export { initialVerifierState, type VerifierState } from "./VerifierState";

type Result = E.Either<ProtocolError, VerifierState>;

/** How many open items an error message lists before it says "and N more". */
const LISTED = 10;

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

function fail(code: ProtocolErrorCode, rule: string, event: Event, message: string): ProtocolError {
  return new ProtocolError(code, rule, event, message);
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

/**
 * R8–R13: members that decoding would have rejected, checked again for in-process producers that
 * hand objects straight to the verifier. Members are read through `Reflect.get` as `unknown`
 * because such producers may break the static types.
 */
function checkFieldSanity(event: Event): ProtocolError | undefined {
  const { type } = event;
  if (read(event, "subagentRunId") === null) {
    return fail("field-sanity", "R8", event, `${type} with subagentRunId null; expected a string, or no subagentRunId (the parent agent)`);
  }
  switch (type) {
    case "SUBAGENT_STARTED":
      return (
        requireString(event, "subagentRunId") ??
        requireString(event, "name") ??
        rejectNulls(event, ["description", "parentSubagentRunId", "parentToolCallId", "parentMessageId"])
      );
    case "SUBAGENT_FINISHED":
      return requireString(event, "subagentRunId") ?? rejectNulls(event, ["outcome"]) ?? checkSubagentOutcome(event);
    case "SUBAGENT_ERROR":
      return requireString(event, "subagentRunId") ?? requireString(event, "message") ?? rejectNulls(event, ["code"]);
    case "RUN_FINISHED":
      return checkInterruptTags(event);
    case "MESSAGES_SNAPSHOT":
      return checkMessageTags(event, event.messages, "messages");
    case "RUN_STARTED":
      return event.input === undefined ? undefined : checkMessageTags(event, read(event.input, "messages"), "input.messages");
    default:
      return undefined;
  }
}

function read(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

function requireString(event: Event, key: string): ProtocolError | undefined {
  const value = read(event, key);
  if (typeof value === "string") return undefined;
  return fail("field-sanity", "R10", event, `${event.type} needs a string ${key} ("" is fine), but got ${describeValue(value)}`);
}

function rejectNulls(event: Event, keys: readonly string[]): ProtocolError | undefined {
  for (const key of keys) {
    if (read(event, key) === null) {
      return fail("field-sanity", "R11", event, `${event.type} with ${key} null; expected a value, or no ${key} at all`);
    }
  }
  return undefined;
}

/** R12: a present SUBAGENT_FINISHED outcome is `{type: "success"}` or `{type: "suspended", interruptIds?: string[]}`. */
function checkSubagentOutcome(event: EventOf<"SUBAGENT_FINISHED">): ProtocolError | undefined {
  const outcome: unknown = read(event, "outcome");
  if (outcome === undefined) return undefined;
  const kind = read(outcome, "type");
  if (typeof outcome !== "object" || (kind !== "success" && kind !== "suspended")) {
    return fail(
      "field-sanity",
      "R12",
      event,
      `SUBAGENT_FINISHED outcome must be {type: "success"} or {type: "suspended"}, but got ${describeValue(outcome)}`,
    );
  }
  const ids = read(outcome, "interruptIds");
  if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === "string"))) {
    return fail(
      "field-sanity",
      "R12",
      event,
      `SUBAGENT_FINISHED outcome.interruptIds must be absent or an array of strings, but got ${describeValue(ids)}`,
    );
  }
  return undefined;
}

/** R13: no interrupt of an RUN_FINISHED interrupt outcome carries `subagentRunId: null`. */
function checkInterruptTags(event: EventOf<"RUN_FINISHED">): ProtocolError | undefined {
  const outcome: unknown = read(event, "outcome");
  const interrupts = read(outcome, "interrupts");
  if (read(outcome, "type") !== "interrupt" || !Array.isArray(interrupts)) return undefined;
  for (const interrupt of interrupts) {
    if (read(interrupt, "subagentRunId") === null) {
      return fail(
        "field-sanity",
        "R13",
        event,
        `RUN_FINISHED interrupt ${quote(read(interrupt, "id"))} with subagentRunId null; expected a string or no subagentRunId`,
      );
    }
  }
  return undefined;
}

/** R9: no message of a snapshot or input echo carries `subagentRunId: null`. */
function checkMessageTags(event: Event, messages: unknown, where: string): ProtocolError | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (const message of messages) {
    if (read(message, "subagentRunId") === null) {
      return fail(
        "field-sanity",
        "R9",
        event,
        `${event.type} ${where} holds message ${quote(read(message, "id"))} with subagentRunId null; expected a string or no subagentRunId`,
      );
    }
  }
  return undefined;
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

    // ─── Reasoning (R22: blocks and reasoning messages are bracketed like any span, and a message opens inside a block of its owner; R37, R38) ───
    case "REASONING_START": {
      const { messageId, subagentRunId: tag } = event;
      if (run.openReasoningSpans.has(messageId)) {
        return fail("reasoning", "R22", event, `REASONING_START for ${messageId}, but reasoning span ${messageId} is already open; expected REASONING_END first`);
      }
      const recorded = owners.reasoning.get(messageId);
      const conflict = reopenConflict(event, "reasoning", messageId, tag, recorded);
      if (conflict) return conflict;
      const owner = reasoningOwner(tag, recorded);
      run.openReasoningSpans.set(messageId, owner);
      run.openReasoningBlocksByOwner.set(owner, (run.openReasoningBlocksByOwner.get(owner) ?? 0) + 1);
      if (recorded === undefined) owners.reasoning.set(messageId, ownerRecord(ownerOf(tag), "opener"));
      return undefined;
    }
    case "REASONING_MESSAGE_START": {
      const { messageId, subagentRunId: tag } = event;
      if (run.openReasoningMessages.has(messageId)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `REASONING_MESSAGE_START for ${messageId}, but reasoning message ${messageId} is already open; expected REASONING_MESSAGE_END first`,
        );
      }
      const recorded = owners.reasoning.get(messageId);
      const conflict = reopenConflict(event, "reasoning", messageId, tag, recorded);
      if (conflict) return conflict;
      const owner = reasoningOwner(tag, recorded);
      if (!run.openReasoningBlocksByOwner.has(owner)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `REASONING_MESSAGE_START for ${messageId} from ${describeOwner(owner)}, but ${describeOwner(owner)} has no open reasoning block (${listBlocks(run)}); expected REASONING_START first: a reasoning message opens inside a reasoning block of its owner`,
        );
      }
      run.openReasoningMessages.add(messageId);
      if (recorded === undefined) owners.reasoning.set(messageId, ownerRecord(ownerOf(tag), "opener"));
      return undefined;
    }
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END": {
      const { messageId, subagentRunId: tag } = event;
      if (!run.openReasoningMessages.has(messageId)) {
        return fail(
          "reasoning",
          "R22",
          event,
          `${event.type} for ${messageId}, but no reasoning message ${messageId} is open (${listOpen(run.openReasoningMessages)}); expected REASONING_MESSAGE_START first`,
        );
      }
      const conflict = continuationConflict(event, "R37", "reasoning", messageId, tag, owners.reasoning.get(messageId));
      if (conflict) return conflict;
      if (event.type === "REASONING_MESSAGE_END") run.openReasoningMessages.delete(messageId);
      return undefined;
    }
    case "REASONING_END": {
      const { messageId, subagentRunId: tag } = event;
      const owner = run.openReasoningSpans.get(messageId);
      if (owner === undefined) {
        const open = run.openReasoningSpans.size === 0 ? "none open" : `open: ${list(run.openReasoningSpans.keys(), run.openReasoningSpans.size)}`;
        return fail("reasoning", "R22", event, `REASONING_END for ${messageId}, but no reasoning span ${messageId} is open (${open}); expected REASONING_START first`);
      }
      const conflict = continuationConflict(event, "R37", "reasoning", messageId, tag, owners.reasoning.get(messageId));
      if (conflict) return conflict;
      run.openReasoningSpans.delete(messageId);
      const left = (run.openReasoningBlocksByOwner.get(owner) ?? 1) - 1;
      if (left === 0) run.openReasoningBlocksByOwner.delete(owner);
      else run.openReasoningBlocksByOwner.set(owner, left);
      return undefined;
    }
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

/** An absent tag never disagrees; the parent is an owner too, so any tag disagrees with it. */
function disagrees(tag: string | undefined, recorded: Owner): boolean {
  return tag !== undefined && recorded !== tag;
}

/**
 * Whose a reasoning block or message is, for R22's "a message opens inside a block of its owner":
 * the tag when there is one (R38 has already refused one that contradicts the record), else the
 * owner recorded for the id (RULES §8 row 40: an untagged message opened under a subagent's
 * reasoning id is that subagent's), else the parent.
 */
function reasoningOwner(tag: string | undefined, recorded: OwnerRecord | undefined): Owner {
  return tag !== undefined ? tag : (recorded?.owner ?? PARENT);
}

/** Open reasoning blocks as "id (owner)", at most `LISTED` of them. */
function listBlocks(run: RunScope): string {
  if (run.openReasoningSpans.size === 0) return "no reasoning block is open";
  return `open: ${list(blockLabels(run), run.openReasoningSpans.size)}`;
}

function* blockLabels(run: RunScope): Generator<string> {
  for (const [id, owner] of run.openReasoningSpans) yield `${id} (${describeOwner(owner)})`;
}

/** The rule an opener breaks when it contradicts an owner, by what recorded that owner. */
const REOPEN_RULE: { readonly [S in OwnerSource]: string } = {
  opener: "R38",
  "tool-result": "R42",
  snapshot: "R43",
  input: "R44",
  "activity-snapshot": "R41",
};

const SOURCE_LABEL: { readonly [S in OwnerSource]: string } = {
  opener: "its first opener",
  "tool-result": "a TOOL_CALL_RESULT",
  snapshot: "a MESSAGES_SNAPSHOT",
  input: "the RUN_STARTED input",
  "activity-snapshot": "an ACTIVITY_SNAPSHOT",
};

/** R38/R42–R44: an opener whose tag differs from the owner recorded for its id in this run. */
function reopenConflict(event: Event, kind: string, id: string, tag: string | undefined, recorded: OwnerRecord | undefined): ProtocolError | undefined {
  if (recorded === undefined || !disagrees(tag, recorded.owner)) return undefined;
  return fail(
    "ownership",
    REOPEN_RULE[recorded.source],
    event,
    `${event.type} opens ${kind} ${id} for ${describeOwner(ownerOf(tag))}, but ${kind} ${id} belongs to ${describeOwner(recorded.owner)} in this run (recorded by ${SOURCE_LABEL[recorded.source]}); expected that subagentRunId or none`,
  );
}

/** R37/R40/R41: a continuation whose tag differs from the owner of the entity it continues. */
function continuationConflict(
  event: Event,
  rule: string,
  kind: string,
  id: string,
  tag: string | undefined,
  recorded: OwnerRecord | undefined,
): ProtocolError | undefined {
  if (recorded === undefined || !disagrees(tag, recorded.owner)) return undefined;
  return fail(
    "ownership",
    rule,
    event,
    `${event.type} for ${kind} ${id} attributed to ${describeOwner(ownerOf(tag))}, but ${kind} ${id} belongs to ${describeOwner(recorded.owner)}; expected that subagentRunId or none`,
  );
}

/** The first few items of a set, "a, b, c and 4 more"; never iterates past `LISTED`. */
function list(items: Iterable<string>, size: number): string {
  const shown: string[] = [];
  for (const item of items) {
    if (shown.length === LISTED) break;
    shown.push(item);
  }
  const rest = size - shown.length;
  return rest > 0 ? `${shown.join(", ")} and ${rest} more` : shown.join(", ");
}

function listOpen(items: ReadonlySet<string>, adjective = "open"): string {
  return items.size === 0 ? `none ${adjective}` : `${adjective}: ${list(items, items.size)}`;
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

function quote(value: unknown): string {
  return typeof value === "string" ? `"${value}"` : String(value);
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "string") return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
