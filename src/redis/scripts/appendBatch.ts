/**
 * The script that logs one batch of a live run (docs/durability.md, "Redis"): one call per batch,
 * never one per event. It refuses when the run is over (ending it ABANDONED first if its lease ran
 * out), logs the events, renews the lease or ends the run at a terminal, keeps a checkpoint of the
 * compacted thread the producer sends along, trims the stream past its bound, and answers with the
 * cursors and whether a stop was asked for. Idempotent: each batch names the sequence number of
 * its first event, so a batch sent again after its reply was lost (the connection dropped with it
 * in flight) is answered with the cursors it was first given instead of being logged twice.
 * A batch that records a steer the run's agent took (the TEXT_MESSAGE_START, role `user`, of a
 * waiting steer's message) takes that entry out of the queue in the same script
 * (docs/queue.md#redis-keys), so it is recorded once and never also started as a run of its own.
 */
import { replyArray, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import type { EncodedEvent } from "../entries";
import { snapshotWriteArguments, type SnapshotWrite } from "../snapshotWrites";
import { parseCheckpointReply, type CheckpointResult } from "./checkpointSnapshot";
import { NOTIFY_MARK, PRELUDE_FUNCTIONS, PRELUDE_HEAD } from "./prelude";

/**
 * What one append sends.
 *
 * @example
 * appendArguments({ runId: "r1", lease: 30_000, leaseTtl: 30_000, terminal: false, maxEvents: 100_000, events });
 */
export interface AppendRequest {
  readonly runId: string;
  readonly lease: number;
  readonly leaseTtl: number;
  /** The batch ends with RUN_FINISHED or RUN_ERROR: the run ends with it. */
  readonly terminal: boolean;
  readonly checkpoint?: SnapshotWrite;
  /** Past this many entries the stream is trimmed up to the kept snapshot (0: never). */
  readonly maxEvents: number;
  /** The sequence number in the thread the batch's first event gets: one more than the last the producer was answered. */
  readonly firstSeq: number;
  readonly events: readonly EncodedEvent[];
  /** The ids of the user messages the batch starts (TEXT_MESSAGE_START role `user`): a waiting steer of this run with one of them is taken. */
  readonly userMessageIds?: readonly string[];
  /** The quiet window that follows this append (`quietAppendMs`), which the keys' expiries must cover (0: none). */
  readonly quietMs?: number;
}

/**
 * How the script answered: `logged` (the cursors and the first sequence number, and whether a
 * stop of the run was asked for; also the answer to a batch sent again whole, with the cursors it
 * was first given), `ended` (nothing logged: the run is over; `abandoned` when it was ended
 * ABANDONED, `deleted` when its thread was deleted), or `misplaced` (nothing logged: the batch does not start where the thread's log
 * ends, nor is it the last batch logged sent again: `next` is the sequence number the log is at).
 *
 * @example
 * parseAppendReply(["ok", "0", "4", ["1718000000000-4"], "none", []]).cursors; // ["1718000000000-4"]
 */
export type AppendReply =
  | {
      readonly kind: "logged";
      readonly stopRequested: boolean;
      readonly firstSeq: number;
      readonly cursors: readonly string[];
      /** What became of the checkpoint sent along. */
      readonly checkpoint: CheckpointResult;
      /** At a terminal: the thread's row after it (`row` of the prelude, raw), for its owner's list. */
      readonly row: unknown;
      /** The JSON of each steer entry the batch took out of the queue. */
      readonly taken: readonly string[];
    }
  | { readonly kind: "ended"; readonly abandoned: boolean; readonly deleted: boolean }
  | { readonly kind: "misplaced"; readonly next: number };

/**
 * The Lua of an append (ARGV[5…]: runId, lease, leaseTtl, terminal, maxEvents, the batch's first
 * sequence number, the batch's size, the JSON array of the user message ids it starts (or `""`),
 * the quiet window that follows in ms, then each event's JSON, then the checkpoint, if any: a
 * snapshot write, `snapshotWriteArguments`).
 *
 * It renews the run's lease and makes sure every key of the thread lives at least its TTL past the
 * end of the quiet window that follows, in which the writer's plain batches go through the quiet
 * append instead (quietAppend.ts, docs/durability.md#the-quiet-append). It sets `meta.head`, the
 * log's next sequence number for those, and reads it before `meta.seq`.
 *
 * Its batch is remembered in `meta.batch` as `"<first seq> <count> <first id> <last id>
 * <runId>"` (one field per thread, rewritten by each such append: no key or field per event); a
 * quiet batch in nothing but the log and `meta.head`. A batch of the same run, first sequence number
 * and size as the one remembered, or, while its run is live, equal to the log's tail (its
 * sequence numbers and JSON), is that batch sent again: it is answered with its cursors before
 * anything else, the remembered one even after the run ended with it (a terminal whose reply was
 * lost). Since a run's appends wait for each other, only its last batch can be sent again. Any
 * other batch must start where the log ends (`meta.seq`); one that overlaps what is logged, or
 * leaves a gap, is answered `misplaced`.
 *
 * @example
 * await calls.script(port, appendScript, keys, context, appendArguments(request));
 */
export const appendScript: StoreScript = {
  name: "append",
  source: `${PRELUDE_HEAD}
local run_id, lease, lease_ttl, terminal = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8] == '1'
local max_events, first, count = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local user_ids = ARGV[12]
-- the quiet window that follows this append: every key must live at least TTL past its end
local quiet_ms = tonumber(ARGV[13])
local after_events = 14 + count
-- Logs the batch's events straight from ARGV (no table per event) as entries of two fields, the
-- sequence number (n) and the JSON (e): no type field, which only the store's own RUN_STARTED and
-- RUN_ERROR entries carry (a read tells a RUN_STARTED by it). Moves the log's head and
-- remembers the batch (meta.batch), renews the run's lease unless it ends or is renewed already; returns the entry ids.
local function log_batch(renewed)
  local ids = {}
  for i = 1, count do
    ids[i] = redis.call('XADD', EVENTS, '*', 'n', tostring(first + i - 1), 'e', ARGV[13 + i])
  end
  redis.call('HSET', META, 'seq', tostring(first + count), 'head', tostring(first + count), 'last', ids[count], 'batch', first .. ' ' .. count .. ' ' .. ids[1] .. ' ' .. ids[count] .. ' ' .. run_id)
  if not terminal and not renewed then redis.call('SET', LEASE, tostring(NOW + lease), 'PX', lease_ttl) end
  ${NOTIFY_MARK}
  return ids
end
-- Looks at the stream's length once per 1% of its bound (every append for a bound under 100);
-- past the bound, trims it up to the kept snapshot.
local function bound_stream()
  if max_events <= 0 then return end
  local step = math.max(1, math.floor(max_events / 100))
  if math.floor((first + count) / step) == math.floor(first / step) or redis.call('XLEN', EVENTS) <= max_events then return end
  local kept_cursor = redis.call('HGET', SNAPSHOT, 'cursor')
  if kept_cursor then redis.call('XTRIM', EVENTS, 'MINID', kept_cursor) end
end
-- One read of the thread's state. The common case (this live run's next batch, its lease held, no
-- end, steer or checkpoint) is done here, before the shared functions are even defined.
-- 'head', once set, is ahead of 'seq' by what quiet appends logged
local m = redis.call('HMGET', META, 'live', 'seq', 'batch', 'stop', 'renew', 'head')
if m[6] then m[2] = m[6] end
local stop = '0'
if m[4] == run_id then stop = '1' end
if m[1] == run_id and tonumber(m[2] or '0') == first and not terminal and user_ids == '' and #ARGV < after_events then
  -- The lease holds: on Redis's clock its key exists (it expires with the deadline it holds), and
  -- SET … XX GET renews it in the same call; on an injected clock its deadline is compared.
  local held
  if REDIS_CLOCK then
    held = redis.call('SET', LEASE, tostring(NOW + lease), 'PX', lease_ttl, 'XX', 'GET')
  else
    local deadline = redis.call('GET', LEASE)
    held = deadline and tonumber(deadline) > NOW
  end
  if held then
    local ids = log_batch(REDIS_CLOCK)
    bound_stream()
    if not expiries_hold(m[5], quiet_ms) then touch_slack() end
    return {'ok', stop, m[2] or '0', ids, 'none', {}, {}}
  end
end
${PRELUDE_FUNCTIONS}
-- the other cases: first end the run ABANDONED if its lease ran out
if m[1] then
  local deadline = redis.call('GET', LEASE)
  if not (deadline and tonumber(deadline) > NOW) then
    abandon_if_due()
    m = redis.call('HMGET', META, 'live', 'seq', 'batch', 'stop', 'renew', 'head')
    if m[6] then m[2] = m[6] end
  end
end
stop = '0'
if m[4] == run_id then stop = '1' end
local last = m[3]
local b_first, b_count, b_from, b_to, b_run
if last then b_first, b_count, b_from, b_to, b_run = string.match(last, '^(%d+) (%d+) (%S+) (%S+) (.*)$') end
local recorded = b_run == run_id and tonumber(b_first) == first and tonumber(b_count) == count
-- a quiet batch (quietAppend.ts) is recorded nowhere: sent again, it is the log's tail while its run is live
local quiet_tail = not recorded and m[1] == run_id and tonumber(m[2] or '0') == first + count
if recorded or quiet_tail then
  local entries
  if recorded then
    entries = redis.call('XRANGE', EVENTS, b_from, b_to)
  else
    entries = redis.call('XREVRANGE', EVENTS, '+', '-', 'COUNT', count)
    local forward = {}
    for i = #entries, 1, -1 do forward[#forward + 1] = entries[i] end
    entries = forward
  end
  local ids = {}
  for i, entry in ipairs(entries) do
    -- the JSON is the last field in either entry format (t, n, e before #28; n, e since)
    if entry[2][#entry[2]] ~= ARGV[13 + i] then return {'misplaced', m[2] or '0'} end
    if quiet_tail and (entry[2][1] ~= 'n' or entry[2][2] ~= tostring(first + i - 1)) then return {'misplaced', m[2] or '0'} end
    ids[i] = entry[1]
  end
  if #ids ~= count then return {'misplaced', m[2] or '0'} end
  -- a write, so that a WAIT after this answer (replica-acknowledged appends) waits for the
  -- replicas to hold everything before it, the batch's first logging included; a quiet batch
  -- found at the tail is recorded now, with the head's cursor
  if recorded then
    redis.call('HSET', META, 'batch', last)
  else
    redis.call('HSET', META, 'last', ids[count], 'batch', first .. ' ' .. count .. ' ' .. ids[1] .. ' ' .. ids[count] .. ' ' .. run_id)
  end
  local again = {}
  if terminal then again = row() end
  return {'ok', stop, tostring(first), ids, 'none', again, {}}
end
if m[1] ~= run_id then
  if redis.call('HGET', META, 'abandoned') == run_id then return {'ended', 'abandoned'} end
  if deleted() then return {'ended', 'deleted'} end
  return {'ended', 'over'}
end
local next_seq = m[2] or '0'
if tonumber(next_seq) ~= first then return {'misplaced', next_seq} end
local ids = log_batch(false)
if terminal then
  end_live(run_id)
  redis.call('HSET', META, 'updated', tostring(NOW))
end
-- the steers of this run whose user message the batch starts: taken, out of the queue
local taken = {}
if user_ids ~= '' then
  local wanted = {}
  for _, message_id in ipairs(cjson.decode(user_ids)) do wanted[message_id] = true end
  for _, entry_id in ipairs(redis.call('ZRANGE', QUEUE, 0, -1)) do
    local json = redis.call('HGET', QENTRIES, entry_id)
    if json and string.find(json, '"steer"', 1, true) then
      local entry = cjson.decode(json)
      local messages = entry.input.messages
      local message = messages[#messages]
      if entry.policy == 'steer' and entry.target == run_id and type(message) == 'table' and wanted[message.id] then
        taken[#taken + 1] = leave_queue(entry_id, 'taken', run_id)
      end
    end
  end
end
local kept = 'none'
if #ARGV >= after_events + 1 then kept = checkpoint(after_events) end
bound_stream()
-- Every key's expiry is renewed with some slack (TOUCH_SLACK), and only once that slack is used up, so
-- that it stays at least TTL after this write: most appends renew nothing. A write that creates or
-- changes other keys (a checkpoint, a steer taken, the run's end) renews them all.
if terminal or kept == 'kept' or #taken > 0 or not expiries_hold(m[5], quiet_ms) then touch_slack() end
local changed = {}
if terminal then changed = row() end
return {'ok', stop, next_seq, ids, kept, changed, taken}
`,
};

/**
 * The script's own arguments, in ARGV order from ARGV[5].
 *
 * @example
 * appendArguments(request).slice(0, 4); // ["r1", "30000", "30000", "0"]
 */
export function appendArguments(request: AppendRequest): string[] {
  const { checkpoint } = request;
  return [
    request.runId,
    String(request.lease),
    String(request.leaseTtl),
    request.terminal ? "1" : "0",
    String(request.maxEvents),
    String(request.firstSeq),
    String(request.events.length),
    request.userMessageIds === undefined || request.userMessageIds.length === 0 ? "" : JSON.stringify(request.userMessageIds),
    String(request.quietMs ?? 0),
    ...request.events.map((event) => event.json),
    ...(checkpoint === undefined ? [] : snapshotWriteArguments(checkpoint)),
  ];
}

/**
 * The script's reply as an AppendReply.
 *
 * @example
 * parseAppendReply(["ended", "abandoned"]); // { kind: "ended", abandoned: true, deleted: false }
 */
export function parseAppendReply(reply: unknown): AppendReply {
  const parts = replyArray(reply, "the append script");
  const status = replyString(parts[0], "the append script's status");
  if (status === "ended") return { kind: "ended", abandoned: parts[1] === "abandoned", deleted: parts[1] === "deleted" };
  if (status === "misplaced") return { kind: "misplaced", next: Number(replyString(parts[1], "the log's next sequence number")) };
  if (status !== "ok") throw unexpectedReply(status, 'one of "ok", "ended", "misplaced" as the append script\'s status');
  const cursors = replyArray(parts[3], "the appended events' cursors").map((id) => replyString(id, "an appended event's cursor"));
  return {
    kind: "logged",
    stopRequested: parts[1] === "1",
    firstSeq: Number(replyString(parts[2], "the batch's first sequence number")),
    cursors,
    checkpoint: parseCheckpointReply(parts[4]),
    row: parts[5],
    taken: replyArray(parts[6] ?? [], "the steers the batch took").map((json) => replyString(json, "a taken steer's JSON")),
  };
}
