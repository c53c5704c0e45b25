/**
 * The script that starts a run (docs/durability.md, "Redis"): ends an expired live run ABANDONED,
 * refuses while another run is live, and otherwise logs the RUN_STARTED, keeps the compacted thread
 * folded through it, takes the lease and retires runs beyond the retention — atomically, and only
 * if nothing was logged since the caller read the thread (its fold must include every event).
 */
import { replyArray, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * What `beginRun` sends: the run, its RUN_STARTED's JSON, the compacted thread folded through it
 * (JSON without a meaningful cursor: the script keeps the entry id beside it), the last cursor
 * the fold includes (`""` for a new thread), the lease, the lease key's TTL and the runs to keep.
 *
 * @example
 * beginArguments({ runId: "r1", startedJson: "{…}", snapshotJson: "{…}", expectLast: "", lease: 30_000, leaseTtl: 30_000, maxRuns: 50 });
 */
export interface BeginRequest {
  readonly runId: string;
  readonly startedJson: string;
  readonly snapshotJson: string;
  readonly expectLast: string;
  readonly lease: number;
  readonly leaseTtl: number;
  readonly maxRuns: number;
}

/**
 * How the script answered: `started` (with the RUN_STARTED's cursor and sequence number),
 * `active` (another run is live: its id), or `retry` (the thread changed since it was read: read
 * again, fold again, try again).
 *
 * @example
 * parseBeginReply(["ok", "1718000000000-0", "0"]); // { kind: "started", cursor: "1718000000000-0", seq: 0 }
 */
export type BeginReply =
  | { readonly kind: "started"; readonly cursor: string; readonly seq: number }
  | { readonly kind: "active"; readonly liveRunId: string }
  | { readonly kind: "retry" };

/**
 * The Lua of `beginRun` (ARGV[5…]: runId, startedJson, snapshotJson, expectLast, lease, leaseTtl, maxRuns).
 *
 * @example
 * parseBeginReply(await calls.script(port, beginScript, keys, context, beginArguments(request)));
 */
export const beginScript: StoreScript = {
  name: "begin",
  source: `${PRELUDE}
local run_id, started, body, expect_last = ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local lease, lease_ttl, max_runs = tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
if abandon_if_due() then return {'retry'} end
local live = redis.call('HGET', META, 'live')
if live then return {'active', live} end
if (redis.call('HGET', META, 'last') or '') ~= expect_last then return {'retry'} end
local id = log({{'RUN_STARTED', started}})[1]
local seq = tostring(tonumber(redis.call('HGET', META, 'seq')) - 1)
redis.call('HSET', SNAPSHOT, 'cursor', id, 'seq', seq, 'body', body)
redis.call('HSET', META, 'live', run_id, 'run', run_id, 'lease', tostring(lease))
redis.call('HDEL', META, 'stop')
redis.call('SET', LEASE, tostring(NOW + lease), 'PX', lease_ttl)
local count = redis.call('RPUSH', RUNS, id .. ' ' .. run_id)
if count > max_runs then
  redis.call('LTRIM', RUNS, count - max_runs, -1)
  local oldest = redis.call('LINDEX', RUNS, 0)
  redis.call('XTRIM', EVENTS, 'MINID', string.match(oldest, '^(%S+) '))
end
touch()
return {'ok', id, seq}
`,
};

/**
 * The script's own arguments, in ARGV order from ARGV[5].
 *
 * @example
 * beginArguments(request).length; // 7
 */
export function beginArguments(request: BeginRequest): string[] {
  return [
    request.runId,
    request.startedJson,
    request.snapshotJson,
    request.expectLast,
    String(request.lease),
    String(request.leaseTtl),
    String(request.maxRuns),
  ];
}

/**
 * The script's reply as a BeginReply.
 *
 * @example
 * parseBeginReply(["active", "r0"]); // { kind: "active", liveRunId: "r0" }
 */
export function parseBeginReply(reply: unknown): BeginReply {
  const parts = replyArray(reply, "the begin script");
  const status = replyString(parts[0], "the begin script's status");
  if (status === "ok")
    return {
      kind: "started",
      cursor: replyString(parts[1], "the RUN_STARTED's cursor"),
      seq: Number(replyString(parts[2], "the RUN_STARTED's sequence number")),
    };
  if (status === "active") return { kind: "active", liveRunId: replyString(parts[1], "the live run's id") };
  if (status === "retry") return { kind: "retry" };
  throw unexpectedReply(status, 'one of "ok", "active", "retry" as the begin script\'s status');
}
