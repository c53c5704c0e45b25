/**
 * A thread's row in its owner's list as the Redis scripts answer it (`row` of the prelude), read
 * into a `ThreadSummary` (docs/threads.md#redis-keys).
 */
import type { Message } from "../protocol/messages";
import { Message as MessageCodec } from "../protocol/messages";
import { previewOf } from "../thread/threadTitle";
import type { ThreadSummary } from "../thread/threadList";
import { replyArray, replyNumber, replyString } from "./replies";

/**
 * The row `raw` (title set, default title, created, updated, archived, running, the last messages' JSON) of `threadId`.
 *
 * @example
 * threadRow("t1", ["", "Hi", "1", "2", "0", "0", []]); // { threadId: "t1", title: "Hi", createdAt: 1, updatedAt: 2, running: false, archived: false }
 */
export function threadRow(threadId: string, raw: unknown): ThreadSummary {
  const fields = replyArray(raw, "a thread's row");
  const title = replyString(fields[0], "the thread's title");
  const lastMessage = previewOf(lastMessages(replyArray(fields[6], "the thread's last messages")));
  return {
    threadId,
    title: title === "" ? replyString(fields[1], "the thread's default title") : title,
    createdAt: replyNumber(fields[2], "the thread's creation time"),
    updatedAt: replyNumber(fields[3], "the thread's update time"),
    archived: fields[4] === "1",
    running: fields[5] === "1",
    ...(lastMessage === undefined ? {} : { lastMessage }),
  };
}

/** The messages whose JSON decodes (a preview is a courtesy: a message that does not is passed over). */
function lastMessages(raw: readonly unknown[]): Message[] {
  const out: Message[] = [];
  for (const json of raw) {
    if (typeof json !== "string") continue;
    try {
      const decoded: unknown = JSON.parse(json);
      if (MessageCodec.is(decoded)) out.push(decoded);
    } catch {
      // not JSON: no preview from it
    }
  }
  return out;
}
