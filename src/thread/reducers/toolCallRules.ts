/** The tool-call rules of docs/rules.md#apply (docs/rules.md#A4 to docs/rules.md#A7): each takes the list and one event and returns at most one update. */
import type { EventOf } from "../../protocol/events";
import type { AssistantMessage, Message, ToolCall } from "../../protocol/messages";
import { cloneJson } from "../../patch/json";
import { ClientError } from "../ClientError";
import type { MessageList } from "./MessageList";
import { editToolCall, messageUpdate, tagOf, withMetadata, type Emit } from "./ruleHelpers";

/**
 * docs/rules.md#A4 TOOL_CALL_START: idempotent per tool call id; otherwise attach to (or create) the parent
 * assistant message. Ids are unique only within a kind (docs/rules.md#words), so the id an assistant message
 * would be created with (the toolCallId, or an unknown parentMessageId) may already name a message:
 * an assistant message with that id takes the call (decision: message ids stay unique in the list;
 * 1.0.0 appends a second message with the same id); a message of another role keeps its id, and
 * the call is refused in-band (`protocol` error), since no assistant message can hold it.
 */
export function toolCallStart(list: MessageList, event: EventOf<"TOOL_CALL_START">, emit: Emit): void {
  const holder = list.holderOf(event.toolCallId);
  if (holder >= 0) {
    const message = list.at(holder);
    if (message.role !== "assistant") return;
    const changed = editToolCall(message, event.toolCallId, (call) => {
      const renamed = call.function.name === event.toolCallName ? call : { ...call, function: { ...call.function, name: event.toolCallName } };
      return withMetadata(renamed, event.metadata, event, emit);
    });
    if (changed === message) return; // a replay with nothing new: no update (docs/rules.md#A4)
    list.replace(holder, changed);
    emit(messageUpdate(list, holder, { kind: "toolCallStarted", toolCallId: event.toolCallId }));
    return;
  }
  let index = -1;
  let parentId = event.toolCallId;
  if (event.parentMessageId !== undefined) {
    const parent = list.indexOf(event.parentMessageId);
    if (parent >= 0 && list.at(parent).role === "assistant") index = parent;
    else if (parent < 0) parentId = event.parentMessageId;
  }
  if (index < 0) {
    const taken = list.indexOf(parentId);
    if (taken >= 0 && list.at(taken).role === "assistant") index = taken;
    else if (taken >= 0) {
      const role = list.at(taken).role;
      emit({
        kind: "error",
        error: new ClientError(
          "protocol",
          `TOOL_CALL_START ${event.toolCallId} needs an assistant message with id "${parentId}" to hold it, but that id belongs to a ${role} message; ` +
            `the call was not added (message ids stay unique); expected a parentMessageId naming an assistant message`,
          { code: "message-id-taken", event },
        ),
      });
      return;
    }
  }
  const call = withMetadata<ToolCall>(
    { id: event.toolCallId, type: "function", function: { name: event.toolCallName, arguments: "" } },
    event.metadata,
    event,
    emit,
  );
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

/** docs/rules.md#A5 TOOL_CALL_ARGS and docs/rules.md#A6 TOOL_CALL_END. */
export function toolCallContinue(list: MessageList, event: EventOf<"TOOL_CALL_ARGS" | "TOOL_CALL_END">, emit: Emit): void {
  const holder = list.holderOf(event.toolCallId);
  if (holder < 0) return;
  const message = list.at(holder);
  if (message.role !== "assistant") return;
  let args = "";
  const changed = editToolCall(message, event.toolCallId, (call) => {
    const extended = event.type === "TOOL_CALL_ARGS" ? { ...call, function: { ...call.function, arguments: call.function.arguments + event.delta } } : call;
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

/** docs/rules.md#A6: a call's arguments as JSON; `{}` when they do not parse (not an error). */
function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

/**
 * docs/rules.md#A7 TOOL_CALL_RESULT: a tool message right after the assistant message that holds the call and
 * the tool messages already following it, else at the end. Its `messageId` mints a message, and
 * message ids stay unique in the list (decision, revised: 1.0.0 appends a second copy):
 * - the id names a tool message for the same call (a replayed result): it is replaced in place;
 * - the id names any other message: the result is refused in-band (`protocol` error) and that
 *   message is left as it was.
 */
export function toolCallResult(list: MessageList, event: EventOf<"TOOL_CALL_RESULT">, emit: Emit): void {
  const existing = list.indexOf(event.messageId);
  if (existing >= 0) {
    const taken = list.at(existing);
    if (taken.role !== "tool" || taken.toolCallId !== event.toolCallId) {
      const what = taken.role === "tool" ? `the result of tool call ${taken.toolCallId}` : `a ${taken.role} message`;
      emit({
        kind: "error",
        error: new ClientError(
          "protocol",
          `TOOL_CALL_RESULT for tool call ${event.toolCallId} has messageId "${event.messageId}", which already names ${what}; ` +
            `the result was not applied (message ids stay unique); expected a new messageId`,
          { code: "message-id-taken", event },
        ),
      });
      return;
    }
  }
  const content = typeof event.content === "string" ? event.content : (cloneJson(event.content) as typeof event.content); // cloneJson keeps the shape it copies
  const created = withMetadata<Message>(
    { id: event.messageId, role: "tool", toolCallId: event.toolCallId, content, ...tagOf(event.subagentRunId) },
    event.metadata,
    event,
    emit,
  );
  let index: number;
  if (existing >= 0) {
    index = existing; // a replay: the newest result wins, where the first one stands
    list.replace(index, created);
  } else {
    const holder = list.holderOf(event.toolCallId);
    if (holder < 0) index = list.append(created);
    else {
      index = holder + 1;
      while (index < list.length && list.at(index).role === "tool") index++;
      list.insert(index, created);
    }
  }
  emit(messageUpdate(list, index, { kind: "toolResult", toolCallId: event.toolCallId }));
}
