/** MESSAGES_SNAPSHOT as a merge (docs/rules.md#A10, official behaviour; §9 item 7). */
import type { Message } from "../../protocol/messages";
import { cloneJson } from "../../patch/json";

/**
 * The list after a MESSAGES_SNAPSHOT: local activity messages survive only if the snapshot has no
 * activity, local reasoning messages only if it has no reasoning; every other local message is
 * replaced by the snapshot's version with the same id, or dropped; then the snapshot's messages
 * not yet present are appended in its order. A snapshot's id wins: a local activity or reasoning
 * message that would be kept gives way to the snapshot's message with the same id, whatever its
 * role (B3; message ids stay unique). Snapshot messages are copies made by `copy` (by default a
 * deep copy, so that the event stays independent of the session; the reducer's also refuses unsafe
 * metadata keys). Cost O(local + snapshot).
 *
 * @example
 * mergeMessagesSnapshot([m1, act, m2], [m1b, m2]); // [m1b, act, m2]
 */
export function mergeMessagesSnapshot(
  local: readonly Message[],
  snapshot: readonly Message[],
  copy: (message: Message) => Message = (message) => cloneJson(message) as Message, // a deep copy of a Message is a Message
): Message[] {
  const incoming = snapshot.map(copy);
  const byId = new Map<string, Message>();
  let hasActivity = false;
  let hasReasoning = false;
  for (const message of incoming) {
    if (!byId.has(message.id)) byId.set(message.id, message);
    if (message.role === "activity") hasActivity = true;
    if (message.role === "reasoning") hasReasoning = true;
  }
  const result: Message[] = [];
  const present = new Set<string>();
  for (const message of local) {
    const kept = (message.role === "activity" && !hasActivity) || (message.role === "reasoning" && !hasReasoning);
    const replacement = byId.get(message.id);
    if (replacement !== undefined)
      result.push(replacement); // the snapshot's id wins, also over a kept local message
    else if (kept) result.push(message);
    else continue;
    present.add(message.id);
  }
  for (const message of incoming) {
    if (present.has(message.id)) continue;
    present.add(message.id);
    result.push(message);
  }
  return result;
}
