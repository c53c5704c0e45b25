/**
 * The quiet append (docs/durability.md#the-quiet-append): the live run's next batch of plain
 * events, sent on Redis's clock within the quiet window of a renewing append (`quietAppendMs`),
 * which left the run's lease and every key's expiry holding past that window. It only logs: one
 * `HINCRBY` places the batch and one `XADD` per event logs it, a script of its own with the
 * thread's stream and meta as its only keys (the full append's eleven keys, ten arguments and
 * branches cost Redis ~2.5 µs more per call, more than the commands themselves).
 *
 * `meta.head` is the log's next sequence number while a run is live: a renewing append sets it,
 * every other write to the log moves it (`log` in the prelude) and the run's end removes it. So
 * the batch is in place, and its run still live, exactly when the number `HINCRBY` moves `head`
 * to is the one the writer expects: a run that ended (its terminal, an `ABANDONED` logged by
 * another instance), a deleted thread, or the same batch sent again (its reply lost) all give
 * another. Then the script undoes its increment, logs nothing and answers nil, and the writer
 * sends the batch through the full append script, which decides as always (`appendBatch.ts`).
 * `meta.seq`, the head's cursor (`last`) and the batch record wait for the next renewing append
 * or the run's end.
 */
import { replyArray, replyString } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { NOTIFY_MARK, TOUCH_SLACK_MAX_MS } from "./prelude";

/**
 * The Lua (KEYS: the stream, the meta; ARGV[5…]: the batch's first sequence number, its size,
 * then each event's JSON). Answers the entry ids, or nil when the batch is not the live run's
 * next. It reads no clock and no lease: the window it is sent in is the writer's to keep.
 *
 * @example
 * await calls.script(port, quietAppendScript, logKeys(keys), context, quietAppendArguments(7, events));
 */
export const quietAppendScript: StoreScript = {
  name: "quiet append",
  source: `local EVENTS, META = KEYS[1], KEYS[2]
local first, count = tonumber(ARGV[5]), tonumber(ARGV[6])
local placed = redis.call('HINCRBY', META, 'head', count)
if placed ~= first + count then
  -- out of place: undone (a 'head' this call created goes, and with it a meta it created)
  if placed == count then redis.call('HDEL', META, 'head') else redis.call('HINCRBY', META, 'head', -count) end
  return false
end
local ids = {}
for i = 1, count do
  ids[i] = redis.call('XADD', EVENTS, '*', 'n', tostring(first + i - 1), 'e', ARGV[6 + i])
end
${NOTIFY_MARK}
return ids
`,
};

/**
 * How long after sending a renewing append its writer may send quiet ones, in ms: a tenth of the
 * lease, at most half the slack with which an append renews the keys' expiries (a tenth of `ttl`,
 * at most `TOUCH_SLACK_MAX_MS`), so that the window lies inside what the renewing append left; 0 on
 * an injected clock, where every append renews. A producer that appends or renews at least once
 * every `lease` − this many ms keeps its run live.
 *
 * @example
 * quietAppendMs(30_000, 7 * 24 * 3_600_000, true); // 3_000
 */
export function quietAppendMs(lease: number, ttl: number, redisClock: boolean): number {
  if (!redisClock) return 0;
  const slack = Math.min(Math.floor(ttl / 10), TOUCH_SLACK_MAX_MS);
  return Math.max(0, Math.floor(Math.min(lease / 10, slack / 2)));
}

/**
 * The script's own arguments, from ARGV[5].
 *
 * @example
 * quietAppendArguments(7, ['{"type":"STEP_STARTED","stepName":"s"}']); // ["7", "1", '{"type":…}']
 */
export function quietAppendArguments(firstSeq: number, events: readonly string[]): string[] {
  return [String(firstSeq), String(events.length), ...events];
}

/**
 * The cursors the quiet append logged, or `undefined` when it logged nothing (send the batch the full way).
 *
 * @example
 * parseQuietAppendReply(["1718000000000-4"]); // ["1718000000000-4"]
 * parseQuietAppendReply(null); // undefined
 */
export function parseQuietAppendReply(reply: unknown): readonly string[] | undefined {
  if (reply === null || reply === undefined) return undefined;
  return replyArray(reply, "the quiet append's cursors").map((id) => replyString(id, "a quietly appended event's cursor"));
}

/**
 * Whether a batch of `count` events from sequence number `firstSeq` crosses a 1% step of the
 * stream's bound (`maxEvents`, 0: none), where the full append looks at the stream's length: such
 * a batch is never quiet.
 *
 * @example
 * crossesBoundStep(999, 2, 100_000); // true: the step is 1,000 entries
 */
export function crossesBoundStep(firstSeq: number, count: number, maxEvents: number): boolean {
  if (maxEvents <= 0) return false;
  const step = Math.max(1, Math.floor(maxEvents / 100));
  return Math.floor((firstSeq + count) / step) !== Math.floor(firstSeq / step);
}
