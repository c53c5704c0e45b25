/** The message rules of docs/rules.md#apply (docs/rules.md#A1 to docs/rules.md#A3, docs/rules.md#A11 to docs/rules.md#A14): each takes the list and one event and returns at most one update; tool calls are in toolCallRules.ts. */
import * as E from "../../protocol/either";
import { activityReplaces, textMessageRole } from "../../protocol/defaults";
import type { EventOf } from "../../protocol/events";
import type { ActivityMessage, Message, ReasoningMessage, ToolCall } from "../../protocol/messages";
import { applyPatch } from "../../patch/apply";
import { cloneJson, isJsonRecord } from "../../patch/json";
import { ClientError } from "../ClientError";
import type { MessageChange, ReasoningUpdate, Update } from "../Update";
import type { MessageList } from "./MessageList";
import { editToolCall, messageUpdate, tagOf, withMetadata, type Emit } from "./ruleHelpers";

/** Replaces the text content of a non-activity message; content that is not a string counts as "" (docs/rules.md#A2). */
function appendText(message: Exclude<Message, ActivityMessage>, delta: string): Exclude<Message, ActivityMessage> {
  // Copy, then set: V8 clones `{ ...message }` on a fast path that `{ ...message, content }` misses (10× slower per delta).
  const copy = { ...message };
  copy.content = typeof message.content === "string" ? message.content + delta : delta;
  return copy;
}

/**
 * Stores a finished message's text content flat, in place. Content built delta by delta is a rope
 * (a node per `+`, each holding its delta), which a finished message would keep for good: about
 * one node and one string per delta surviving in a long conversation (bench/suites/memory.ts;
 * a reasoning stream of 200,000 deltas held 6.52 MB after GC, flat 1.32 MB). Converting it to a
 * number needs its characters in one piece, so V8 flattens the rope where it stands and the nodes
 * can go (measured by the memory lane; an engine that does not leaves the text as correct as
 * before); the string keeps its identity and value. A third of the cost of the JSON round trip
 * that made a flat copy before (once per message, linear in its length). Shorter than 13
 * characters a concatenation is already flat.
 */
function flattenInPlace(message: Message): void {
  const text = message.content;
  if (typeof text === "string" && text.length >= 13) Number(text);
}

/** docs/rules.md#A1 TEXT_MESSAGE_START: create (role defaulting to assistant) unless an id exists (then reuse it as it is), merge metadata. */
export function textMessageStart(list: MessageList, event: EventOf<"TEXT_MESSAGE_START">, emit: Emit): void {
  const index = startMessage(list, event, emit, () => {
    const name = event.name === undefined ? {} : { name: event.name };
    return { id: event.messageId, role: textMessageRole(event), content: "", ...name, ...tagOf(event.subagentRunId) };
  });
  if (index !== undefined) emit(messageUpdate(list, index, { kind: "started" }));
}

/**
 * The start of a text or reasoning message: appends `create()` (the event's metadata merged) when
 * the id is new, else merges the event's metadata into the message with that id. Returns the
 * message's index, or `undefined` when the id is an activity's (ids are shared across text and
 * activity; an activity is not a text message) and nothing changed.
 */
function startMessage(
  list: MessageList,
  event: EventOf<"TEXT_MESSAGE_START" | "REASONING_MESSAGE_START">,
  emit: Emit,
  create: () => Message,
): number | undefined {
  const index = list.indexOf(event.messageId);
  if (index < 0) return list.append(withMetadata(create(), event.metadata, event, emit));
  const existing = list.at(index);
  if (existing.role === "activity") return undefined;
  const merged = withMetadata(existing, event.metadata, event, emit);
  if (merged !== existing) list.replace(index, merged);
  return index;
}

/** docs/rules.md#A2 TEXT_MESSAGE_CONTENT, docs/rules.md#A3 TEXT_MESSAGE_END (and RMC/RME on a non-reasoning message). */
export function textMessageContinue(list: MessageList, event: EventOf<"TEXT_MESSAGE_CONTENT" | "TEXT_MESSAGE_END">, emit: Emit): void {
  const index = list.indexOf(event.messageId);
  if (index < 0) return;
  const existing = list.at(index);
  if (existing.role === "activity") return;
  // At the end the text is final: flattened (`flattenInPlace`), so that the rope of its deltas can go.
  if (event.type === "TEXT_MESSAGE_END") flattenInPlace(existing);
  const extended = event.type === "TEXT_MESSAGE_CONTENT" ? appendText(existing, event.delta) : existing;
  const merged = withMetadata(extended, event.metadata, event, emit);
  if (merged !== existing) list.replace(index, merged);
  emit(messageUpdate(list, index, event.type === "TEXT_MESSAGE_CONTENT" ? { kind: "content", delta: event.delta } : { kind: "ended" }));
}

/**
 * docs/rules.md#A11 ACTIVITY_SNAPSHOT, case by case on what holds the id and on `replace` (absent: true). One
 * exception to "a replace overwrites a message of another role" (decision, issue #20): an assistant
 * message holding tool calls (a TOOL_CALL_START may have merged its call into it, docs/rules.md#A4) is not
 * overwritten, since that would delete the calls with no trace. The snapshot is refused in-band
 * (`protocol` error, code `message-id-taken`, as for the other id clashes across kinds) and the
 * message and its calls stay as they were; nothing of the event is applied.
 */
export function activitySnapshot(list: MessageList, event: EventOf<"ACTIVITY_SNAPSHOT">, emit: Emit): void {
  const replace = activityReplaces(event);
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
    const base: ActivityMessage = replace ? (existing.metadata === undefined ? fresh : { ...fresh, metadata: existing.metadata }) : existing;
    list.replace(index, withMetadata(base, event.metadata, event, emit));
  } else {
    if (!replace) return;
    if (existing.role === "assistant" && existing.toolCalls !== undefined && existing.toolCalls.length > 0) {
      emit(refusedOverToolCalls(event, existing.toolCalls));
      return;
    }
    list.replace(index, withMetadata(fresh, event.metadata, event, emit));
  }
  emit(messageUpdate(list, index, { kind: "activity" }));
}

/** The in-band refusal of an ACTIVITY_SNAPSHOT that would replace an assistant message and the tool calls it holds (docs/rules.md#A11, decision). */
function refusedOverToolCalls(event: EventOf<"ACTIVITY_SNAPSHOT">, calls: readonly ToolCall[]): Update<never> {
  const ids = calls.map((call) => call.id).join(", ");
  return {
    kind: "error",
    error: new ClientError(
      "protocol",
      `ACTIVITY_SNAPSHOT "${event.messageId}" would replace the assistant message with that id, which holds tool call${calls.length === 1 ? "" : "s"} ${ids}; ` +
        `the snapshot was not applied (a replace never deletes a tool call); expected an activity id apart from the assistant message's`,
      { code: "message-id-taken", event },
    ),
  };
}

/** docs/rules.md#A12 ACTIVITY_DELTA: metadata first (it sticks), then the patch, atomically; a failing patch is a `patch` error. */
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

/** docs/rules.md#A13 REASONING_MESSAGE_START/CONTENT/END; on a message that is not a reasoning message, the text rules apply. */
export function reasoningMessage(
  list: MessageList,
  event: EventOf<"REASONING_MESSAGE_START" | "REASONING_MESSAGE_CONTENT" | "REASONING_MESSAGE_END">,
  emit: Emit,
): void {
  if (event.type === "REASONING_MESSAGE_START") {
    const started = startMessage(list, event, emit, (): ReasoningMessage => ({
      id: event.messageId,
      role: "reasoning",
      content: "",
      ...tagOf(event.subagentRunId),
    }));
    if (started !== undefined) emitReasoning(list, started, { kind: "started" }, emit);
    return;
  }
  const index = list.indexOf(event.messageId);
  if (index < 0) return;
  const existing = list.at(index);
  if (existing.role === "activity") return;
  // As a text message's: a finished reasoning message keeps its text flat, not a node per delta.
  if (event.type === "REASONING_MESSAGE_END") flattenInPlace(existing);
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

/** docs/rules.md#A14 REASONING_ENCRYPTED_VALUE: onto a tool call (in an assistant message) or a non-activity message; metadata never merged. */
export function encryptedValue(list: MessageList, event: EventOf<"REASONING_ENCRYPTED_VALUE">, emit: Emit): void {
  const change: MessageChange = { kind: "encryptedValue", subtype: event.subtype, entityId: event.entityId };
  if (event.subtype === "tool-call") {
    const holder = list.holderOf(event.entityId);
    if (holder < 0) return;
    const message = list.at(holder);
    if (message.role !== "assistant") return;
    list.replace(
      holder,
      editToolCall(message, event.entityId, (call) => ({ ...call, encryptedValue: event.encryptedValue })),
    );
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
