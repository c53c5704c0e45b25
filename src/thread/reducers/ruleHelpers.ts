/** What the message rules share: their output, attribution, metadata merging and tool-call edits (docs/rules.md#A19, docs/rules.md#A20). */
import type { Metadata } from "../../protocol/common";
import type { AssistantMessage, ToolCall } from "../../protocol/messages";
import { ClientError } from "../ClientError";
import type { MessageChange, MessageUpdate, Update } from "../Update";
import { mergeMetadata } from "./mergeMetadata";
import type { MessageList } from "./MessageList";

/**
 * Where a rule puts its output: at most one update, plus any diagnostics, in order.
 *
 * @example
 * const out: Update<never>[] = [];
 * const emit: Emit = (update) => out.push(update);
 */
export type Emit = (update: Update<never>) => void;

/**
 * The `message` update for the message at `index`, as it is now.
 *
 * @example
 * emit(messageUpdate(list, 0, { kind: "started" }));
 */
export function messageUpdate(list: MessageList, index: number, change: MessageChange): MessageUpdate {
  const message = list.at(index);
  return { kind: "message", index, id: message.id, change, message };
}

/**
 * The tag as a field to spread: absent when the event is untagged (docs/rules.md#A19: never present-but-empty).
 *
 * @example
 * ({ id: "m1", ...tagOf(undefined) }) // { id: "m1" }
 */
export function tagOf(subagentRunId: string | undefined): { subagentRunId?: string } {
  return subagentRunId === undefined ? {} : { subagentRunId };
}

/**
 * The in-band `protocol` error for a metadata key that could reach an object prototype. One rule on
 * every path a message is built by (events, MESSAGES_SNAPSHOT, the RUN_STARTED echo): the key is
 * left out, the rest applies.
 *
 * @example
 * emit(refusedKey("__proto__", event));
 */
export function refusedKey(key: string, event: unknown): Update<never> {
  return {
    kind: "error",
    error: new ClientError("protocol", `metadata key "${key}" refused: it could reach an object prototype`, { code: "unsafe-metadata-key", event }),
  };
}

/**
 * Merges event metadata into a message (or a tool call), reporting refused keys; returns the new
 * object or the same one.
 *
 * @example
 * const merged = withMetadata(message, event.metadata, event, emit);
 */
export function withMetadata<T extends { metadata?: Metadata }>(target: T, incoming: Metadata | undefined, event: unknown, emit: Emit): T {
  if (incoming === undefined) return target; // the common case, without allocating
  const merged = mergeMetadata(target.metadata, incoming);
  for (const key of merged.rejected) emit(refusedKey(key, event));
  if (!merged.changed) return target;
  const copy = { ...target };
  copy.metadata = merged.metadata;
  return copy;
}

/**
 * Applies `edit` to the tool call `id` of `message`; returns the same message when the edit
 * returned the same call (or there is no such call).
 *
 * @example
 * const renamed = editToolCall(message, "t1", (call) => ({ ...call, function: { ...call.function, name: "f" } }));
 */
export function editToolCall(message: AssistantMessage, id: string, edit: (call: ToolCall) => ToolCall): AssistantMessage {
  const calls = message.toolCalls ?? [];
  const at = calls.findIndex((call) => call.id === id);
  if (at < 0) return message;
  const edited = edit(calls[at]);
  if (edited === calls[at]) return message;
  const toolCalls = calls.slice();
  toolCalls[at] = edited;
  return { ...message, toolCalls };
}
