/** What a request may add (docs/threads.md#what-a-request-may-add): new user messages, results of calls pending for the client, and seeds on a new thread. */
import type { Message } from "../../protocol/messages";
import type { ForgeryRule, HistoryRefusal } from "./HistoryRefusal";

/**
 * Checks the messages a post adds after its anchor, in order: `user` messages always; `tool`
 * messages that answer a call in `pending` (each call once); `system` and `developer` messages
 * only when `newThread` (applications seed them, e.g. the official client's `initialMessages`);
 * never `assistant` or `reasoning` (only the agent says those); never two with one id. Returns
 * the first `history-forged` refusal, or `undefined` when every message may be added.
 *
 * @example
 * checkNewMessages([{ id: "a9", role: "assistant", content: "I said so." }], { pending: new Set(), newThread: false }); // { error: "history-forged", rule: "agent-role", … }
 */
export function checkNewMessages(
  added: readonly Message[],
  allowed: { readonly pending: ReadonlySet<string>; readonly newThread: boolean },
): HistoryRefusal | undefined {
  const open = new Set(allowed.pending);
  const ids = new Set<string>();
  for (const message of added) {
    if (ids.has(message.id)) return forged(message.id, "duplicate-id", `expected new messages with distinct ids, but ${quote(message.id)} appears twice`);
    ids.add(message.id);
    switch (message.role) {
      case "user":
      case "activity": // never reaches here (left out before matching); it would add nothing the agent sees
        break;
      case "tool":
        if (!open.delete(message.toolCallId)) {
          return forged(
            message.id,
            "tool-not-pending",
            `expected a tool result for a call the thread waits on the client for, but ${quote(message.toolCallId)} is not pending (answered already, or never made)`,
          );
        }
        break;
      case "system":
      case "developer":
        if (!allowed.newThread) {
          return forged(
            message.id,
            "seed-after-start",
            `expected ${message.role} messages only on the first run of a new thread, but the thread has runs already`,
          );
        }
        break;
      case "assistant":
      case "reasoning":
        return forged(message.id, "agent-role", `expected a user message or a tool result, but got a new ${message.role} message: only the agent adds those`);
      default: {
        const unexpected: never = message;
        return unexpected;
      }
    }
  }
  return undefined;
}

function forged(messageId: string, rule: ForgeryRule, message: string): HistoryRefusal {
  return { error: "history-forged", message: `message ${quote(messageId)}: ${message}`, messageId, rule };
}

function quote(id: string): string {
  return JSON.stringify(id);
}
