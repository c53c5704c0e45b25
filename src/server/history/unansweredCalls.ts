/** The tool calls of a stored path nobody answered yet (docs/threads.md#what-a-request-may-add): the fallback when a snapshot does not name its pending calls. */
import type { Message } from "../../protocol/messages";

/**
 * The ids of the tool calls held by the path's assistant messages that no tool message of the
 * path answers, in the order the calls appear. A tool result may precede its call in a path
 * (docs/rules.md#R21), so every result of the path counts, wherever it is. Cost: one pass.
 *
 * @example
 * unansweredCalls([{ id: "a1", role: "assistant", toolCalls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] }]); // ["c1"]
 */
export function unansweredCalls(path: readonly Message[]): string[] {
  const answered = new Set<string>();
  for (const message of path) if (message.role === "tool") answered.add(message.toolCallId);
  const open: string[] = [];
  for (const message of path) {
    if (message.role !== "assistant" || message.toolCalls === undefined) continue;
    for (const call of message.toolCalls) if (!answered.has(call.id)) open.push(call.id);
  }
  return open;
}
