/** The message rules of RULES §3 (A1–A7, A11–A14): each takes the list and one event and returns at most one update. */
import * as E from "fp-ts/Either";
import type { EventOf } from "../../protocol/events";
import type { ActivityMessage, AssistantMessage, Message, ReasoningMessage, ToolCall } from "../../protocol/messages";
import type { Metadata } from "../../protocol/common";
import { applyPatch } from "../../patch/apply";
import { cloneJson, isJsonRecord } from "../../patch/json";
import { ClientError } from "../ClientError";
import type { MessageChange, MessageUpdate, ReasoningUpdate, Update } from "../Update";
import { mergeMetadata } from "./mergeMetadata";
import type { MessageList } from "./MessageList";

/** Where a rule puts its output: at most one update, plus any diagnostics, in order. */
export type Emit = (update: Update<never>) => void;

function messageUpdate(list: MessageList, index: number, change: MessageChange): MessageUpdate {
  const message = list.at(index);
  return { kind: "message", index, id: message.id, change, message };
}

/** The tag as a field to spread: absent when the event is untagged (A19: never present-but-empty). */
function tagOf(subagentRunId: string | undefined): { subagentRunId?: string } {
  return subagentRunId === undefined ? {} : { subagentRunId };
}

/** Merges event metadata into a message (or a tool call), reporting refused keys; returns the new object or the same one. */
function withMetadata<T extends { metadata?: Metadata }>(target: T, incoming: Metadata | undefined, event: unknown, emit: Emit): T {
  if (incoming === undefined) return target; // the common case, without allocating
  const merged = mergeMetadata(target.metadata, incoming);
  for (const key of merged.rejected) {
    emit({ kind: "error", error: new ClientError("protocol", `metadata key "${key}" refused: it could reach an object prototype`, { event }) });
  }
  if (!merged.changed) return target;
  const copy = { ...target };
  copy.metadata = merged.metadata;
  return copy;
}

/** Replaces the text content of a non-activity message; content that is not a string counts as "" (A2). */
function appendText(message: Exclude<Message, ActivityMessage>, delta: string): Exclude<Message, ActivityMessage> {
  // Copy, then set: V8 clones `{ ...message }` on a fast path that `{ ...message, content }` misses (10× slower per delta).
  const copy = { ...message };
  copy.content = typeof message.content === "string" ? message.content + delta : delta;
  return copy;
}

/** A1 TEXT_MESSAGE_START: create unless an id exists (then reuse it as it is), merge metadata. */
export function textMessageStart(list: MessageList, event: EventOf<"TEXT_MESSAGE_START">, emit: Emit): void {
  let index = list.indexOf(event.messageId);
  if (index < 0) {
    const name = event.name === undefined ? {} : { name: event.name };
    const created: Message = { id: event.messageId, role: event.role, content: "", ...name, ...tagOf(event.subagentRunId) };
    index = list.append(withMetadata(created, event.metadata, event, emit));
  } else {
    const existing = list.at(index);
    if (existing.role === "activity") return; // ids are shared across text and activity; an activity is not a text message
    const merged = withMetadata(existing, event.metadata, event, emit);
    if (merged !== existing) list.replace(index, merged);
  }
  emit(messageUpdate(list, index, { kind: "started" }));
}

/** A2 TEXT_MESSAGE_CONTENT, A3 TEXT_MESSAGE_END (and RMC/RME on a non-reasoning message). */
export function textMessageContinue(
  list: MessageList,
  event: EventOf<"TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_END">,
  emit: Emit,
): void {
  const index = list.indexOf(event.messageId);
  if (index < 0) return;
  const existing = list.at(index);
  if (existing.role === "activity") return;
  const extended = event.type === "TEXT_MESSAGE_CONTENT" ? appendText(existing, event.delta) : existing;
  const merged = withMetadata(extended, event.metadata, event, emit);
  if (merged !== existing) list.replace(index, merged);
  emit(
    messageUpdate(list, index, event.type === "TEXT_MESSAGE_CONTENT" ? { kind: "content", delta: event.delta } : { kind: "ended" }),
  );
}

/** A4 TOOL_CALL_START: idempotent per tool call id; otherwise attach to (or create) the parent assistant message. */
export function toolCallStart(list: MessageList, event: EventOf<"TOOL_CALL_START">, emit: Emit): void {
  const holder = list.holderOf(event.toolCallId);
  if (holder >= 0) {
    const message = list.at(holder);
    if (message.role !== "assistant") return;
    const changed = editToolCall(message, event.toolCallId, (call) => {
      const renamed = call.function.name === event.toolCallName ? call : { ...call, function: { ...call.function, name: event.toolCallName } };
      return withMetadata(renamed, event.metadata, event, emit);
    });
    if (changed === message) return; // a replay with nothing new: no update (A4)
    list.replace(holder, changed);
    emit(messageUpdate(list, holder, { kind: "toolCallStarted", toolCallId: event.toolCallId }));
    return;
  }
  const call = withMetadata<ToolCall>(
    { id: event.toolCallId, type: "function", function: { name: event.toolCallName, arguments: "" } },
    event.metadata,
    event,
    emit,
  );
  let index = -1;
  let parentId = event.toolCallId;
  if (event.parentMessageId !== undefined) {
    const parent = list.indexOf(event.parentMessageId);
    if (parent >= 0 && list.at(parent).role === "assistant") index = parent;
    else if (parent < 0) parentId = event.parentMessageId;
  }
  if (index >= 0) {
    const parent = list.at(index);
    if (parent.role !== "assistant") return;
    list.replace(index, { ...parent, toolCalls: [...(parent.toolCalls ?? []), call] });
  } else {
    const created: AssistantMessage = { id: parentId, role: "assistant", toolCalls: [call], ...tagOf(event.subagentRunId) };
    index = list.append(created);
  }
  emit(messageUpdate(list, index, { kind: "toolCallStarted", toolCallId: event.toolCallId }));
}

/** Applies `edit` to the tool call `id` of `message`; returns the same message when the edit returned the same call. */
function editToolCall(message: AssistantMessage, id: string, edit: (call: ToolCall) => ToolCall): AssistantMessage {
  const calls = message.toolCalls ?? [];
  const at = calls.findIndex((call) => call.id === id);
  if (at < 0) return message;
  const edited = edit(calls[at]);
  if (edited === calls[at]) return message;
  const toolCalls = calls.slice();
  toolCalls[at] = edited;
  return { ...message, toolCalls };
}

/** A5 TOOL_CALL_ARGS and A6 TOOL_CALL_END. */
export function toolCallContinue(list: MessageList, event: EventOf<"TOOL_CALL_ARGS" | "TOOL_CALL_END">, emit: Emit): void {
  const holder = list.holderOf(event.toolCallId);
  if (holder < 0) return;
  const message = list.at(holder);
  if (message.role !== "assistant") return;
  let args = "";
  const changed = editToolCall(message, event.toolCallId, (call) => {
    const extended =
      event.type === "TOOL_CALL_ARGS" ? { ...call, function: { ...call.function, arguments: call.function.arguments + event.delta } } : call;
    args = extended.function.arguments;
    return withMetadata(extended, event.metadata, event, emit);
  });
  if (changed !== message) list.replace(holder, changed);
  if (event.type === "TOOL_CALL_ARGS") {
    emit(messageUpdate(list, holder, { kind: "toolCallArgs", toolCallId: event.toolCallId, delta: event.delta }));
  } else {
    emit(messageUpdate(list, holder, { kind: "toolCallEnded", toolCallId: event.toolCallId, args: parseArguments(args) }));
  }
}

/** A6: a call's arguments as JSON; `{}` when they do not parse (not an error). */
function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

/** A7 TOOL_CALL_RESULT: a tool message right after the holder and its tool messages, else at the end. */
export function toolCallResult(list: MessageList, event: EventOf<"TOOL_CALL_RESULT">, emit: Emit): void {
  const content = typeof event.content === "string" ? event.content : (cloneJson(event.content) as typeof event.content); // cloneJson keeps the shape it copies
  const created = withMetadata<Message>(
    { id: event.messageId, role: "tool", toolCallId: event.toolCallId, content, ...tagOf(event.subagentRunId) },
    event.metadata,
    event,
    emit,
  );
  const holder = list.holderOf(event.toolCallId);
  let index: number;
  if (holder < 0) index = list.append(created);
  else {
    index = holder + 1;
    while (index < list.length && list.at(index).role === "tool") index++;
    list.insert(index, created);
  }
  emit(messageUpdate(list, index, { kind: "toolResult", toolCallId: event.toolCallId }));
}

/** A11 ACTIVITY_SNAPSHOT, case by case on what holds the id and on `replace`. */
export function activitySnapshot(list: MessageList, event: EventOf<"ACTIVITY_SNAPSHOT">, emit: Emit): void {
  const content = cloneJsonObject(event.content);
  const fresh: ActivityMessage = {
    id: event.messageId,
    role: "activity",
    activityType: event.activityType,
    content,
    ...tagOf(event.subagentRunId),
  };
  const index = list.indexOf(event.messageId);
  if (index < 0) {
    const at = list.append(withMetadata(fresh, event.metadata, event, emit));
    emit(messageUpdate(list, at, { kind: "activity" }));
    return;
  }
  const existing = list.at(index);
  if (existing.role === "activity") {
    // replace re-mints content, type and owner (an absent tag removes attribution) but keeps accumulated metadata
    const base: ActivityMessage = event.replace
      ? existing.metadata === undefined
        ? fresh
        : { ...fresh, metadata: existing.metadata }
      : existing;
    list.replace(index, withMetadata(base, event.metadata, event, emit));
  } else {
    if (!event.replace) return;
    list.replace(index, withMetadata(fresh, event.metadata, event, emit));
  }
  emit(messageUpdate(list, index, { kind: "activity" }));
}

/** A12 ACTIVITY_DELTA: metadata first (it sticks), then the patch, atomically; a failing patch is a `patch` error. */
export function activityDelta(list: MessageList, event: EventOf<"ACTIVITY_DELTA">, emit: Emit): void {
  const index = list.indexOf(event.messageId);
  if (index < 0) return;
  const existing = list.at(index);
  if (existing.role !== "activity") return;
  const withMeta = withMetadata(existing, event.metadata, event, emit);
  const patched = applyPatch(withMeta.content, event.patch);
  if (E.isLeft(patched) || !isJsonRecord(patched.right)) {
    if (withMeta !== existing) list.replace(index, withMeta);
    const reason = E.isLeft(patched) ? patched.left.message : "the result is not an object";
    emit({
      kind: "error",
      error: new ClientError("patch", `activity patch failed for "${event.messageId}": ${reason}`, {
        cause: E.isLeft(patched) ? patched.left : undefined,
        event,
      }),
    });
    return;
  }
  list.replace(index, { ...withMeta, content: patched.right, activityType: event.activityType });
  emit(messageUpdate(list, index, { kind: "activity" }));
}

function cloneJsonObject(value: Record<string, unknown>): Record<string, unknown> {
  const copy = cloneJson(value);
  return isJsonRecord(copy) ? copy : {};
}

/** A13 REASONING_MESSAGE_START/CONTENT/END; on a message that is not a reasoning message, the text rules apply. */
export function reasoningMessage(
  list: MessageList,
  event: EventOf<"REASONING_MESSAGE_START" | "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_END">,
  emit: Emit,
): void {
  let index = list.indexOf(event.messageId);
  if (event.type === "REASONING_MESSAGE_START") {
    if (index < 0) {
      const created: ReasoningMessage = { id: event.messageId, role: "reasoning", content: "", ...tagOf(event.subagentRunId) };
      index = list.append(withMetadata(created, event.metadata, event, emit));
    } else {
      const existing = list.at(index);
      if (existing.role === "activity") return;
      const merged = withMetadata(existing, event.metadata, event, emit);
      if (merged !== existing) list.replace(index, merged);
    }
    emitReasoning(list, index, { kind: "started" }, emit);
    return;
  }
  if (index < 0) return;
  const existing = list.at(index);
  if (existing.role === "activity") return;
  const extended = event.type === "REASONING_MESSAGE_CONTENT" ? appendText(existing, event.delta) : existing;
  const merged = withMetadata(extended, event.metadata, event, emit);
  if (merged !== existing) list.replace(index, merged);
  emitReasoning(list, index, event.type === "REASONING_MESSAGE_CONTENT" ? { kind: "content", delta: event.delta } : { kind: "ended" }, emit);
}

function emitReasoning(list: MessageList, index: number, change: ReasoningUpdate["change"], emit: Emit): void {
  const message = list.at(index);
  if (message.role === "reasoning") {
    emit({ kind: "reasoning", index, id: message.id, change, text: change.kind === "content" ? change.delta : "", message });
  } else emit(messageUpdate(list, index, change));
}

/** A14 REASONING_ENCRYPTED_VALUE: onto a tool call (in an assistant message) or a non-activity message; metadata never merged. */
export function encryptedValue(list: MessageList, event: EventOf<"REASONING_ENCRYPTED_VALUE">, emit: Emit): void {
  const change: MessageChange = { kind: "encryptedValue", subtype: event.subtype, entityId: event.entityId };
  if (event.subtype === "tool-call") {
    const holder = list.holderOf(event.entityId);
    if (holder < 0) return;
    const message = list.at(holder);
    if (message.role !== "assistant") return;
    list.replace(holder, editToolCall(message, event.entityId, (call) => ({ ...call, encryptedValue: event.encryptedValue })));
    emit(messageUpdate(list, holder, change));
    return;
  }
  const index = list.indexOf(event.entityId);
  if (index < 0) return;
  const message = list.at(index);
  if (message.role === "activity") return;
  list.replace(index, { ...message, encryptedValue: event.encryptedValue });
  emit(messageUpdate(list, index, change));
}
