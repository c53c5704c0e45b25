/**
 * A thread's row in its owner's list as the Redis scripts answer it (`row` of the prelude), read
 * into a `ThreadSummary`, and the list's opaque page cursor (docs/threads.md#redis-keys).
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

/**
 * The cursor of the list page that follows the entry (`score`, `threadId`): opaque to clients.
 *
 * @example
 * listCursor(1718000000000, "t1"); // "1718000000000.t1"
 */
export function listCursor(score: number, threadId: string): string {
  return `${score}.${encodeURIComponent(threadId)}`;
}

/**
 * The position a list cursor names, or `undefined` for a string no `listCursor` made.
 *
 * @example
 * parseListCursor("1718000000000.t1"); // { score: 1718000000000, threadId: "t1" }
 */
export function parseListCursor(cursor: string): { score: number; threadId: string } | undefined {
  const match = /^(\d{1,16})\.(.*)$/s.exec(cursor);
  if (match === null) return undefined;
  try {
    return { score: Number(match[1]), threadId: decodeURIComponent(match[2]) };
  } catch {
    return undefined; // not percent-encoding: no cursor of ours
  }
}
