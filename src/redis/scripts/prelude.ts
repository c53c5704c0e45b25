/**
 * The Lua every store script starts with (docs/durability.md, "Redis"): the thread's keys and the
 * common arguments by name, the lease clock, logging events with their sequence numbers, and
 * ending a run ABANDONED once its lease ran out. Everything that decides a lease happens inside one
 * script, so whichever instance notices an expired lease first logs the RUN_ERROR, exactly once.
 *
 * Every script takes the same eleven keys (`scriptKeys`) and starts its arguments with the same four
 * (`ScriptContext`): `now` (milliseconds on the store's clock, or `""` for Redis's own `TIME`), the
 * signal channel, the thread id and the thread's key TTL in milliseconds.
 */

/**
 * The line in the prelude's `log` (after the events are added) that the Redis Cluster variant of
 * each script replaces with its announcement (notifyingScript.ts); a comment, so it costs nothing on one server.
 *
 * @example
 * PRELUDE.includes(NOTIFY_MARK); // true
 */
export const NOTIFY_MARK = "-- announced here on a Redis Cluster (notifyingScript)";

/**
 * What every script call carries besides its own arguments.
 *
 * @example
 * const context: ScriptContext = { now: "", channel: "agui:signals", threadId: "t1", ttl: 604_800_000 };
 */
export interface ScriptContext {
  /** The lease clock's time in ms, or `""`: Redis's own clock (`TIME`), the same for every instance. */
  readonly now: string;
  readonly channel: string;
  readonly threadId: string;
  /** Milliseconds every key of the thread lives after its last write. */
  readonly ttl: number;
}

/**
 * The common arguments, in ARGV order (ARGV[1] … ARGV[4]); a script's own start at ARGV[5].
 *
 * @example
 * contextArguments({ now: "", channel: "agui:signals", threadId: "t1", ttl: 1000 }); // ["", "agui:signals", "t1", "1000"]
 */
export function contextArguments(context: ScriptContext): string[] {
  return [context.now, context.channel, context.threadId, String(context.ttl)];
}

/**
 * How many outcomes of entries that left a thread's queue it remembers (docs/queue.md#in-the-store:
 * at least 64), so that a waiter that missed an announcement still learns what became of its entry.
 *
 * @example
 * QUEUE_OUTCOMES_KEPT; // 64
 */
export const QUEUE_OUTCOMES_KEPT = 64;

/**
 * The most an append's renewal of a thread's expiries exceeds its TTL (a tenth of the TTL, at most
 * this): an idle thread's keys go between `ttl` and `ttl` + this many ms after its last write.
 *
 * @example
 * TOUCH_SLACK_MAX_MS; // 60_000
 */
export const TOUCH_SLACK_MAX_MS = 60_000;

/**
 * The Lua lines a script starts its clock with: \`NOW\` in ms, from \`ARGV[1]\` when the store
 * has an injected clock (tests), else from Redis's own \`TIME\`, so that every instance agrees.
 *
 * @example
 * const source = \`\${CLOCK_LUA}return NOW\`;
 */
export const CLOCK_LUA = `local NOW
if ARGV[1] ~= '' then
  NOW = tonumber(ARGV[1])
else
  local time = redis.call('TIME')
  NOW = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
`;

/**
 * The start of every thread script: the keys and common arguments by name, the clock (`NOW`), and
 * `touch_slack` (the append's amortised renewal of the thread's expiries).
 *
 * @example
 * const source = `${PRELUDE_HEAD}return NOW`;
 */
export const PRELUDE_HEAD = `
local EVENTS, META, LEASE, SNAPSHOT, RUNS = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local MESSAGES, IDS, TOMBSTONE = KEYS[6], KEYS[7], KEYS[8]
local QUEUE, QENTRIES, QOUTCOMES = KEYS[9], KEYS[10], KEYS[11]
local CHANNEL, THREAD, TTL = ARGV[2], ARGV[3], tonumber(ARGV[4])
${CLOCK_LUA}-- NOW is Redis's own: a key with a PX TTL expires exactly when a deadline NOW + TTL passes.
local REDIS_CLOCK = ARGV[1] == ''
-- touch() with slack: every key lives TTL + TOUCH_SLACK ms from now, so that writes in the next
-- TOUCH_SLACK ms may leave expiries alone and still find every key living at least TTL more
-- (docs/durability.md#retention-and-defaults: the append renews them once META's 'renew' time is past).
local TOUCH_SLACK = math.min(math.floor(TTL / 10), ${TOUCH_SLACK_MAX_MS})
-- Every key of the thread (the lease key has its own TTL) expires \`ttl\` ms from now.
local function expire_all(ttl)
  for _, key in ipairs({EVENTS, META, SNAPSHOT, RUNS, MESSAGES, IDS, QUEUE, QENTRIES, QOUTCOMES}) do
    redis.call('PEXPIRE', key, ttl)
  end
end
local function touch_slack()
  expire_all(TTL + TOUCH_SLACK)
  redis.call('HSET', META, 'renew', tostring(NOW + TOUCH_SLACK))
end
-- Whether every key lives at least TTL past NOW + margin (ms, default 0) without touch_slack: one
-- ran less than TOUCH_SLACK - margin ago (META's 'renew').
local function expiries_hold(renew, margin)
  return renew and tonumber(renew) > NOW + (margin or 0)
end
`;

/**
 * The shared Lua after `PRELUDE_HEAD`: the functions. A script whose common case needs none of
 * them (the append's) runs that case between the two, so that Lua does not build a dozen closures
 * per call for nothing.
 *
 * @example
 * const source = `${PRELUDE_HEAD}if fast then return 1 end${PRELUDE_FUNCTIONS}return 2`;
 */
export const PRELUDE_FUNCTIONS = `
-- Every key of the thread lives at least TTL ms after this write (the lease key has its own TTL).
-- With slack, as an append renews them: an expiry is never brought nearer than a renewing
-- append left it, which the quiet appends after it rely on.
local function touch()
  expire_all(TTL + TOUCH_SLACK)
  -- not 'renew' (this may be a thread's last write, META gone): the next renewing append renews again
  redis.call('HDEL', META, 'renew')
end


-- Logs events ({type, json} pairs) with the next sequence numbers; returns their entry ids.
local function log(events)
  -- a live run's quiet appends move 'head' alone (appendBatch.ts)
  local seq = tonumber(redis.call('HGET', META, 'head') or redis.call('HGET', META, 'seq') or '0')
  local ids = {}
  for i, event in ipairs(events) do
    ids[i] = redis.call('XADD', EVENTS, '*', 't', event[1], 'n', tostring(seq + i - 1), 'e', event[2])
  end
  redis.call('HSET', META, 'seq', tostring(seq + #events), 'last', ids[#ids])
  -- the live run's next quiet append finds no 'head' and goes the full way, which sets it again
  redis.call('HDEL', META, 'head')
  ${NOTIFY_MARK}
  return ids
end

local function signal(kind, run_id)
  redis.call('PUBLISH', CHANNEL, cjson.encode({kind, THREAD, run_id}))
end

-- A change of the thread's queue, for every instance's queueChanges: ["queue", thread, kind, entry id].
local function queue_signal(kind, id)
  redis.call('PUBLISH', CHANNEL, cjson.encode({'queue', THREAD, kind, id}))
end

-- The waiting entries' JSON, in the order they will run.
local function queue_entries()
  local entries = {}
  for _, id in ipairs(redis.call('ZRANGE', QUEUE, 0, -1)) do
    local json = redis.call('HGET', QENTRIES, id)
    if json then entries[#entries + 1] = json end
  end
  return entries
end

-- Takes the waiting entry id out of the queue as state ('started', 'taken', 'cancelled') with
-- detail (the run id, or the reason), remembered among the last ${QUEUE_OUTCOMES_KEPT} outcomes, and announces it;
-- returns the entry's JSON, or false when it is not waiting.
local function leave_queue(id, state, detail)
  local json = redis.call('HGET', QENTRIES, id)
  if not json then return false end
  redis.call('ZREM', QUEUE, id)
  redis.call('HDEL', QENTRIES, id)
  redis.call('LPUSH', QOUTCOMES, cjson.encode({id, state, detail}))
  redis.call('LTRIM', QOUTCOMES, 0, ${QUEUE_OUTCOMES_KEPT - 1})
  queue_signal(state, id)
  return json
end

-- The live run is over: free the thread's slot, drop its lease, tell the instances.
local function end_live(run_id)
  redis.call('HDEL', META, 'live', 'head')
  redis.call('DEL', LEASE)
  signal('end', run_id)
end

-- Ends the live run with RUN_ERROR code ABANDONED when its lease ran out (the lease key is gone,
-- or holds a deadline not after NOW); returns the RUN_ERROR's id, or false when nothing is due.
local function abandon_if_due()
  local live = redis.call('HGET', META, 'live')
  if not live then return false end
  local deadline = redis.call('GET', LEASE)
  if deadline and tonumber(deadline) > NOW then return false end
  local lease = redis.call('HGET', META, 'lease') or '?'
  local message = 'run "' .. live .. '" was abandoned: its producer neither appended nor renewed its lease for '
    .. lease .. ' ms, so it is presumed gone'
  local json = '{"type":"RUN_ERROR","message":' .. cjson.encode(message) .. ',"code":"ABANDONED"}'
  local id = log({{'RUN_ERROR', json}})[1]
  redis.call('HSET', META, 'abandoned', live, 'updated', tostring(NOW))
  end_live(live)
  -- a run's end moves its owner's list: whichever instance lists for the owner hears it
  if redis.call('HEXISTS', META, 'owner') == 1 then redis.call('PUBLISH', CHANNEL, cjson.encode({'abandoned', THREAD})) end
  touch()
  return id
end

-- The thread was deleted less than its tombstone's time ago: nothing may write it.
local function deleted()
  local until_ms = redis.call('GET', TOMBSTONE)
  return until_ms ~= false and tonumber(until_ms) > NOW
end

-- Whether a snapshot folded through seq whose messages are sent from index from on (and whose
-- tree is '=', the kept one, or sent), building on the kept snapshot at sequence number base, may
-- be kept: 'old' (one folded as far is kept), 'stale' (the kept one is not the writer's base:
-- send everything) or 'fits'.
local function snapshot_fits(base, seq, from, tree)
  local kept = redis.call('HMGET', SNAPSHOT, 'seq', 'count')
  if kept[1] and tonumber(kept[1]) >= tonumber(seq) then return 'old' end
  if (from > 0 or tree == '=') and (kept[1] ~= base or not kept[2] or tonumber(kept[2]) < from) then return 'stale' end
  return 'fits'
end

-- The tool call ids an assistant message's JSON holds, each as its field of IDS ('tc:' and the id,
-- docs/threads.md#redis-keys) with the message's position, appended to fields. Only JSON naming
-- toolCalls is decoded: the others cost a substring search.
local function index_calls(json, position, fields)
  if not string.find(json, '"toolCalls"', 1, true) then return end
  local message = cjson.decode(json)
  if message.role ~= 'assistant' or type(message.toolCalls) ~= 'table' then return end
  for _, call in ipairs(message.toolCalls) do
    fields[#fields + 1] = 'tc:' .. call.id
    fields[#fields + 1] = position
  end
end

-- Keeps the compacted thread: body (its JSON without messages and without its tree's forks), its
-- message count, its forks' JSON (tree: '=' keeps the kept one, '' none), and its messages from index from on, given as ARGV[first], ARGV[first + 1], … pairs of id and JSON (the
-- messages before from are the kept ones: snapshot_fits said so), then the IDS fields of kept
-- messages the thread no longer holds (a path cut at a fork, docs/threads.md#the-tree), up to the
-- last argument. Only what changed is rewritten.
-- IDS maps each message id, and each tool call id ('tc:' field), to its message's position; its
-- 'tc-indexed' field (-1: no position) says every message's tool calls are there, which only a
-- whole rewrite can say: a hash kept before tool calls were indexed lacks fields for its messages.
local function write_snapshot(cursor, seq, body, count, from, tree, first)
  local pairs_end = first + 2 * (tonumber(count) - from) - 1
  if from == 0 then
    redis.call('DEL', MESSAGES, IDS)
    redis.call('HSET', IDS, 'tc-indexed', '-1')
  else
    redis.call('LTRIM', MESSAGES, 0, from - 1)
    for d = pairs_end + 1, #ARGV, 1000 do redis.call('HDEL', IDS, unpack(ARGV, d, math.min(d + 999, #ARGV))) end
  end
  -- in chunks of 500 messages: one RPUSH and one HSET each, not two calls per message (the
  -- chunk's tool call fields go out with its HSET, in slices of 500 so that unpack stays small)
  local index = from
  local jsons, ids, calls = {}, {}, {}
  for i = first, pairs_end, 2 do
    jsons[#jsons + 1] = ARGV[i + 1]
    ids[#ids + 1] = ARGV[i]
    ids[#ids + 1] = tostring(index)
    index_calls(ARGV[i + 1], tostring(index), calls)
    index = index + 1
    if #jsons == 500 or i + 2 > pairs_end then
      redis.call('RPUSH', MESSAGES, unpack(jsons))
      redis.call('HSET', IDS, unpack(ids))
      for c = 1, #calls, 1000 do redis.call('HSET', IDS, unpack(calls, c, math.min(c + 999, #calls))) end
      jsons, ids, calls = {}, {}, {}
    end
  end
  redis.call('HSET', SNAPSHOT, 'cursor', cursor, 'seq', seq, 'body', body, 'count', count)
  if tree == '' then
    redis.call('HDEL', SNAPSHOT, 'tree')
  elseif tree ~= '=' then
    redis.call('HSET', SNAPSHOT, 'tree', tree)
  end
end

-- Keeps the checkpoint given from ARGV[at] on (base, cursor, seq, body, count, from, tree, then
-- the messages) if it fits; answers 'kept', 'old', 'stale', or 'none' when none is given (no cursor).
local function checkpoint(at)
  if ARGV[at + 1] == '' then return 'none' end
  local from = tonumber(ARGV[at + 5])
  local fit = snapshot_fits(ARGV[at], ARGV[at + 2], from, ARGV[at + 6])
  if fit ~= 'fits' then return fit end
  write_snapshot(ARGV[at + 1], ARGV[at + 2], ARGV[at + 3], ARGV[at + 4], from, ARGV[at + 6], at + 7)
  return 'kept'
end

-- The thread's row in its owner's list: title set (by the owner, else by the agent), default title, created, updated, archived,
-- running (a live run whose lease holds), and the last few messages' JSON (for the preview).
local function row()
  local m = redis.call('HMGET', META, 'title', 'dtitle', 'created', 'updated', 'archived', 'live', 'atitle')
  local running = '0'
  if m[6] then
    local deadline = redis.call('GET', LEASE)
    if deadline and tonumber(deadline) > NOW then running = '1' end
  end
  -- the owner's title over the agent's over the first user message's
  local title = m[1] or m[7] or ''
  return {title, m[2] or '', m[3] or '0', m[4] or '0', m[5] or '0', running, redis.call('LRANGE', MESSAGES, -8, -1)}
end
`;

/**
 * The Lua every thread script starts with: `PRELUDE_HEAD` (keys, arguments, clock, `touch_slack`)
 * then `PRELUDE_FUNCTIONS` (`touch`, `log`, `signal`, `end_live`, `abandon_if_due`,
 * `deleted`, `snapshot_fits`, `write_snapshot`, `checkpoint`, `row`, and the queue's
 * `queue_signal`, `queue_entries` and `leave_queue`, docs/queue.md#redis-keys).
 *
 * @example
 * const source = `${PRELUDE}\nreturn abandon_if_due() and 1 or 0`;
 */
export const PRELUDE = PRELUDE_HEAD + PRELUDE_FUNCTIONS;
