/**
 * The Lua every store script starts with (docs/durability.md, "Redis"): the thread's keys and the
 * common arguments by name, the lease clock, logging events with their sequence numbers, and
 * ending a run ABANDONED once its lease ran out. Everything that decides a lease happens inside one
 * script, so whichever instance notices an expired lease first logs the RUN_ERROR, exactly once.
 *
 * Every script takes the same five keys (`scriptKeys`) and starts its arguments with the same four
 * (`ScriptContext`): `now` (milliseconds on the store's clock, or `""` for Redis's own `TIME`), the
 * signal channel, the thread id and the thread's key TTL in milliseconds.
 */

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
 * The shared Lua: constants, then `touch`, `log`, `signal`, `end_live`, `abandon_if_due`, `checkpoint`.
 *
 * @example
 * const source = `${PRELUDE}\nreturn abandon_if_due() and 1 or 0`;
 */
export const PRELUDE = `
local EVENTS, META, LEASE, SNAPSHOT, RUNS = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local CHANNEL, THREAD, TTL = ARGV[2], ARGV[3], tonumber(ARGV[4])
local NOW
if ARGV[1] ~= '' then
  NOW = tonumber(ARGV[1])
else
  local time = redis.call('TIME')
  NOW = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end

-- Every key of the thread lives TTL ms after its last write (the lease key has its own TTL).
local function touch()
  redis.call('PEXPIRE', EVENTS, TTL)
  redis.call('PEXPIRE', META, TTL)
  redis.call('PEXPIRE', SNAPSHOT, TTL)
  redis.call('PEXPIRE', RUNS, TTL)
end

-- Logs events ({type, json} pairs) with the next sequence numbers; returns their entry ids.
local function log(events)
  local seq = tonumber(redis.call('HGET', META, 'seq') or '0')
  local ids = {}
  for i, event in ipairs(events) do
    ids[i] = redis.call('XADD', EVENTS, '*', 't', event[1], 'n', tostring(seq + i - 1), 'e', event[2])
  end
  redis.call('HSET', META, 'seq', tostring(seq + #events), 'last', ids[#ids])
  return ids
end

local function signal(kind, run_id)
  redis.call('PUBLISH', CHANNEL, cjson.encode({kind, THREAD, run_id}))
end

-- The live run is over: free the thread's slot, drop its lease, tell the instances.
local function end_live(run_id)
  redis.call('HDEL', META, 'live')
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
  redis.call('HSET', META, 'abandoned', live)
  end_live(live)
  touch()
  return id
end

-- Keeps the compacted thread folded through sequence number seq, unless a later one is kept.
local function checkpoint(cursor, seq, body)
  local kept = redis.call('HGET', SNAPSHOT, 'seq')
  if kept and tonumber(kept) >= tonumber(seq) then return false end
  redis.call('HSET', SNAPSHOT, 'cursor', cursor, 'seq', seq, 'body', body)
  return true
end
`;
