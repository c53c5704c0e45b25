/**
 * Queue entries as the Redis store keeps them (docs/queue.md#redis-keys): a `QueuedRun` as JSON in
 * the thread's `queue-entries` hash, decoded with its codec when read back, and the user message
 * ids of a batch that may take a steer.
 */
import { isLeft } from "../protocol/either";
import type { Event } from "../protocol/events";
import { QueuedRun } from "../server/store/QueuedRun";
import { StoreError } from "../server/store/StoreError";

/**
 * A stored entry's JSON decoded; a stored value that is not a `QueuedRun` (written by something
 * else) is StoreError `unavailable`, naming the thread.
 *
 * @example
 * decodeQueued('{"id":"r3","policy":"queue","input":{…},"at":1}', "t1").id; // "r3"
 */
export function decodeQueued(json: string, threadId: string): QueuedRun {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (cause) {
    throw new StoreError("unavailable", `expected a queued run's JSON in thread "${threadId}"'s queue, but it is not JSON`, { threadId, cause });
  }
  const decoded = QueuedRun.decode(parsed);
  if (isLeft(decoded))
    throw new StoreError("unavailable", `expected a queued run in thread "${threadId}"'s queue, but Redis holds another value`, { threadId });
  return decoded.right;
}

/**
 * The ids of the user messages a batch starts (TEXT_MESSAGE_START with role `user`): how a run
 * records a steer its agent took (docs/queue.md#on-the-wire), so the append script looks for
 * waiting steers with these message ids.
 *
 * @example
 * userMessageIds([ev.textMessageStart("u9", { role: "user" }), ev.textMessageContent("u9", "faster")]); // ["u9"]
 */
export function userMessageIds(events: readonly Event[]): string[] {
  const ids: string[] = [];
  for (const event of events) if (event.type === "TEXT_MESSAGE_START" && event.role === "user") ids.push(event.messageId);
  return ids;
}
