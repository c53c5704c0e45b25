/**
 * The read script (docs/durability.md, "Redis"): one round trip for what `read` and `beginRun`
 * start from. Ends an expired run ABANDONED first, then answers either the cursor path (the cursor's
 * entry is in the stream and its run has events left: the entries after it) or the snapshot path
 * (the kept compacted thread and the entries logged after it, which the caller folds in). With a
 * limit only the kept snapshot's last `limit` messages are read (docs/threads.md#redis-keys): the
 * cost does not grow with the thread's length.
 */
import { optionalString, replyArray, replyNumber, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * What the read script found: `unknown` (no such thread), `resume` (the cursor's own entry and up
 * to `count` entries after it), or `snapshot` (the kept snapshot's JSON, cursor and sequence
 * number, and up to `count` entries after it; `messageCount` the kept snapshot's number of
 * messages and `messages` their JSON, all of them or the last `limit`, or `undefined` for a
 * snapshot kept before messages had a list of their own: its JSON holds them; `selection` how many
 * branch switches rewrote it, `""` for none: what a write that builds on it expects to find;
 * `tree` the JSON of its tree's forks, kept apart from its body, `""` for none; `queueLength`
 * the number of waiting messages, `queueHead` the id of the first, and, when asked for, `queue` their JSON in the order they will run).
 * `live` is the live run's id, if any.
 *
 * @example
 * parseReadReply(["unknown"]); // { kind: "unknown" }
 */
export type ReadReply =
  | { readonly kind: "unknown" }
  | { readonly kind: "resume"; readonly live: string | undefined; readonly at: unknown; readonly entries: unknown }
  | {
      readonly kind: "snapshot";
      readonly live: string | undefined;
      readonly cursor: string;
      readonly seq: number;
      readonly json: string;
      readonly entries: unknown;
      readonly messageCount: number | undefined;
      readonly messages: readonly string[];
      readonly selection: string;
      readonly tree: string;
      readonly queueLength: number;
      readonly queue: readonly string[];
      readonly queueHead: string | undefined;
    };

/**
 * The Lua of a read (ARGV[5…]: the cursor or "", the page size, the message limit or "", "1" to
 * read the waiting messages too).
 *
 * @example
 * parseReadReply(await calls.script(port, readScript, keys, context, readArguments(cursor, 1000)));
 */
export const readScript: StoreScript = {
  name: "read",
  source: `${PRELUDE}
local after, count, limit = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
local with_queue = ARGV[8] == '1'
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
abandon_if_due()
local live = redis.call('HGET', META, 'live') or ''
if after ~= '' then
  local at = redis.call('XRANGE', EVENTS, after, after)
  if #at == 1 then
    local rest = redis.call('XRANGE', EVENTS, '(' .. after, '+', 'COUNT', count)
    -- resume unless nothing of the cursor's run is left: the next entry starts a run, or there is
    -- none and no run is live (a RUN_STARTED's fields are t, n, e: rest[1][2][2] is its type; an
    -- appended event's are n, e since #28, so its second value is a sequence number, never RUN_STARTED)
    if (#rest > 0 and rest[1][2][2] ~= 'RUN_STARTED') or (#rest == 0 and live ~= '') then
      return {'resume', live, at[1], rest}
    end
  end
end
local kept = redis.call('HMGET', SNAPSHOT, 'cursor', 'seq', 'body', 'count', 'sel', 'tree')
if not kept[1] then return redis.error_reply('thread ' .. THREAD .. ' has no snapshot beside its stream') end
local entries = redis.call('XRANGE', EVENTS, '(' .. kept[1], '+', 'COUNT', count)
local messages = {}
if kept[4] then
  -- with a limit, the last messages only: the caller reads all of them again when the entries
  -- after the snapshot touch a message before those (ThreadLoader, windowFold.ts)
  if limit then
    messages = redis.call('LRANGE', MESSAGES, -limit, -1)
  else
    messages = redis.call('LRANGE', MESSAGES, 0, -1)
  end
end
local queue = {}
if with_queue then queue = queue_entries() end
return {'snapshot', live, kept[1], kept[2], kept[3], entries, kept[4] or '', messages, kept[5] or '', kept[6] or '', tostring(redis.call('ZCARD', QUEUE)), queue, redis.call('ZRANGE', QUEUE, 0, 0)[1] or ''}
`,
};

/**
 * The read's own arguments, from ARGV[5]: the cursor (already checked to be an entry id) or "", the
 * page size, the message limit if any, and whether to read the waiting messages.
 *
 * @example
 * readArguments(undefined, 1000); // ["", "1000", "", "0"]
 */
export function readArguments(after: string | undefined, count: number, limit?: number, withQueue = false): string[] {
  return [after ?? "", String(count), limit === undefined ? "" : String(limit), withQueue ? "1" : "0"];
}

/**
 * The read script's reply (entries still raw: `decodeEntries` reads them).
 *
 * @example
 * parseReadReply(["snapshot", "", "1718000000000-0", "0", "{…}", []]).kind; // "snapshot"
 */
export function parseReadReply(reply: unknown): ReadReply {
  const parts = replyArray(reply, "the read script");
  const status = replyString(parts[0], "the read script's status");
  if (status === "unknown") return { kind: "unknown" };
  const live = optionalString(parts[1], "the live run's id") || undefined;
  if (status === "resume") return { kind: "resume", live, at: parts[2], entries: parts[3] };
  if (status === "snapshot") {
    return {
      kind: "snapshot",
      live,
      cursor: replyString(parts[2], "the snapshot's cursor"),
      seq: replyNumber(parts[3], "the snapshot's sequence number"),
      json: replyString(parts[4], "the snapshot's JSON"),
      entries: parts[5],
      messageCount: parts[6] === "" || parts[6] === undefined ? undefined : replyNumber(parts[6], "the snapshot's message count"),
      messages: replyArray(parts[7] ?? [], "the snapshot's messages").map((message) => replyString(message, "a message's JSON")),
      selection: parts[8] === undefined ? "" : replyString(parts[8], "the snapshot's switch count"),
      tree: parts[9] === undefined ? "" : replyString(parts[9], "the snapshot's tree"),
      queueLength: parts[10] === undefined ? 0 : replyNumber(parts[10], "the queue's length"),
      queue: replyArray(parts[11] ?? [], "the waiting messages").map((entry) => replyString(entry, "a waiting message's JSON")),
      queueHead: optionalString(parts[12], "the queue's head") || undefined,
    };
  }
  throw unexpectedReply(status, 'one of "unknown", "resume", "snapshot" as the read script\'s status');
}
