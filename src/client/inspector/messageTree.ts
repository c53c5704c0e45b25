/** The thread's messages as a tree: each tool call's result under the message that made the call (docs/observability.md#inspector). */
import type { Message } from "../../protocol/messages";

/**
 * One message and the messages that answer it (the tool messages of its tool calls).
 *
 * @example
 * const node: MessageNode = { message, children: [] };
 */
export interface MessageNode {
  readonly message: Message;
  readonly children: readonly MessageNode[];
}

/**
 * `messages` (in thread order) as a tree: a tool message sits under the assistant message whose
 * tool call it answers, every other message (and a tool message whose call is not in the list) at
 * the top, in order. Linear in the messages and their tool calls.
 *
 * @example
 * messageTree(inspector.getSnapshot().messages).map((node) => node.message.id);
 */
export function messageTree(messages: readonly Message[]): readonly MessageNode[] {
  const callers = new Map<string, { readonly message: Message; readonly children: MessageNode[] }>();
  const roots: { readonly message: Message; readonly children: MessageNode[] }[] = [];
  for (const message of messages) {
    const node = { message, children: [] as MessageNode[] };
    const caller = message.role === "tool" ? callers.get(message.toolCallId) : undefined;
    if (caller === undefined) roots.push(node);
    else caller.children.push(node);
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) callers.set(call.id, node);
  }
  return roots;
}
