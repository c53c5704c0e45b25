/**
 * The script that starts a run (docs/durability.md, "Redis"): ends an expired live run ABANDONED,
 * refuses while another run is live, and otherwise logs the RUN_STARTED, keeps the compacted thread
 * folded through it, takes the lease and retires runs beyond the retention — atomically, and only
 * if nothing was logged since the caller read the thread (its fold must include every event).
 * It also refuses a thread deleted lately (its tombstone), and, with an expected cursor, a thread
 * another run moved since the handler read it; it keeps the thread's owner, creation and update
 * times and default title for its owner's list (docs/threads.md#redis-keys). A switch of branches
 * since the read (the kept snapshot's `sel`, docs/threads.md#the-tree) is a change too: the fold
 * would start from the path it left. The queue goes first (docs/queue.md#redis-keys): a run on a
 * thread with waiting messages is refused unless it passes the queue or starts its head, which
 * then leaves the queue in this same script, with its RUN_STARTED.
 */
import { replyArray, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { snapshotWriteArguments, type SnapshotWrite } from "../snapshotWrites";
import { PRELUDE } from "./prelude";

/**
 * What `beginRun` sends: the run, its RUN_STARTED's JSON, the compacted thread folded through it
 * (a snapshot write whose cursor and sequence number the script fills in: Redis names the entry),
 * the last cursor the fold includes (`""` for a new thread), the cursor the handler expects
 * (`undefined`: none; `null`: a new thread), the owner, the default title, the lease, the lease
 * key's TTL, the runs to keep, and the kept snapshot's switch count as read (`Loaded.selection`).
 *
 * @example
 * beginArguments({ runId: "r1", startedJson: "{…}", snapshot, expectLast: "", expectCursor: undefined, owner: undefined, defaultTitle: "", lease: 30_000, leaseTtl: 30_000, maxRuns: 50, selection: "" });
 */
export interface BeginRequest {
  readonly runId: string;
  readonly startedJson: string;
  readonly snapshot: SnapshotWrite;
  readonly expectLast: string;
  readonly expectCursor: string | null | undefined;
  readonly owner: string | undefined;
  readonly defaultTitle: string;
  readonly lease: number;
  readonly leaseTtl: number;
  readonly maxRuns: number;
  readonly selection: string;
  /** The id of the queue's head this run starts (`BeginOptions.dequeue`), if any. */
  readonly dequeue?: string;
  /** The run answers what the thread waits on: it starts ahead of a non-empty queue (`BeginOptions.passQueue`). */
  readonly passQueue?: boolean;
}

/**
 * How the script answered: `started` (with the RUN_STARTED's cursor and sequence number, whether
 * the thread is new, its row, and the JSON of the queue entry it started, if it dequeued one),
 * `active` (another run is live: its id), `retry` (the thread
 * changed since it was read: read again, fold again, try again), `moved` (it is not at the
 * cursor the handler expected), `deleted` (its tombstone stands), `queue-pending` (messages wait
 * and the run neither passes nor dequeues), or `queue-moved` (the head is not the entry to dequeue).
 *
 * @example
 * parseBeginReply(["ok", "1718000000000-0", "0", "1", [], ""]); // { kind: "started", cursor: "1718000000000-0", seq: 0, created: true, row: [], dequeued: undefined }
 */
export type BeginReply =
  | {
      readonly kind: "started";
      readonly cursor: string;
      readonly seq: number;
      readonly created: boolean;
      readonly row: unknown;
      readonly dequeued: string | undefined;
    }
  | { readonly kind: "active"; readonly liveRunId: string }
  | { readonly kind: "retry" }
  | { readonly kind: "moved" }
  | { readonly kind: "deleted" }
  | { readonly kind: "queue-pending" }
  | { readonly kind: "queue-moved" };

/**
 * The Lua of `beginRun` (ARGV[5…]: runId, startedJson, expectLast, lease, leaseTtl, maxRuns, the
 * expected cursor (`""` none, `"-"` a new thread), owner, default title, the switch count read,
 * the entry to dequeue (`""` none), `"1"` to pass the queue, then the snapshot write).
 *
 * @example
 * parseBeginReply(await calls.script(port, beginScript, keys, context, beginArguments(request)));
 */
export const beginScript: StoreScript = {
  name: "begin",
  source: `${PRELUDE}
local run_id, started, expect_last = ARGV[5], ARGV[6], ARGV[7]
local lease, lease_ttl, max_runs = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local expect, owner, default_title, selection = ARGV[11], ARGV[12], ARGV[13], ARGV[14]
local dequeue, pass_queue = ARGV[15], ARGV[16] == '1'
local base, body, message_count, from, tree = ARGV[17], ARGV[20], ARGV[21], tonumber(ARGV[22]), ARGV[23]
if deleted() then return {'deleted'} end
if abandon_if_due() then return {'retry'} end
local live = redis.call('HGET', META, 'live')
if live then return {'active', live} end
-- the queue goes first (checked before the cursor, as every store does)
if dequeue ~= '' then
  local head = redis.call('ZRANGE', QUEUE, 0, 0)
  if head[1] ~= dequeue then return {'queue-moved'} end
elseif not pass_queue and redis.call('ZCARD', QUEUE) > 0 then
  return {'queue-pending'}
end
local last = redis.call('HGET', META, 'last') or ''
if expect == '-' then
  if last ~= '' then return {'moved'} end
elseif expect ~= '' and last ~= expect then
  return {'moved'}
end
if last ~= expect_last then return {'retry'} end
if (redis.call('HGET', SNAPSHOT, 'sel') or '') ~= selection then return {'retry'} end
if snapshot_fits(base, redis.call('HGET', META, 'seq') or '0', from, tree) ~= 'fits' then return {'retry'} end
local id = log({{'RUN_STARTED', started}})[1]
local seq = tostring(tonumber(redis.call('HGET', META, 'seq')) - 1)
write_snapshot(id, seq, body, message_count, from, tree, 24)
local dequeued = ''
if dequeue ~= '' then dequeued = leave_queue(dequeue, 'started', run_id) end
local created = '0'
if last == '' then
  created = '1'
  redis.call('HSET', META, 'created', tostring(NOW))
  if owner ~= '' then redis.call('HSET', META, 'owner', owner) end
end
redis.call('HSET', META, 'live', run_id, 'run', run_id, 'lease', tostring(lease), 'updated', tostring(NOW), 'dtitle', default_title)
redis.call('HDEL', META, 'stop')
redis.call('SET', LEASE, tostring(NOW + lease), 'PX', lease_ttl)
local count = redis.call('RPUSH', RUNS, id .. ' ' .. run_id)
if count > max_runs then
  redis.call('LTRIM', RUNS, count - max_runs, -1)
  local oldest = redis.call('LINDEX', RUNS, 0)
  redis.call('XTRIM', EVENTS, 'MINID', string.match(oldest, '^(%S+) '))
end
touch()
return {'ok', id, seq, created, row(), dequeued}
`,
};

/**
 * The script's own arguments, in ARGV order from ARGV[5].
 *
 * @example
 * beginArguments(request).slice(0, 2); // ["r1", "{…}"]
 */
export function beginArguments(request: BeginRequest): string[] {
  return [
    request.runId,
    request.startedJson,
    request.expectLast,
    String(request.lease),
    String(request.leaseTtl),
    String(request.maxRuns),
    request.expectCursor === undefined ? "" : request.expectCursor === null ? "-" : request.expectCursor,
    request.owner ?? "",
    request.defaultTitle,
    request.selection,
    request.dequeue ?? "",
    request.passQueue === true ? "1" : "0",
    ...snapshotWriteArguments(request.snapshot),
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
      created: parts[3] === "1",
      row: parts[4],
      dequeued: typeof parts[5] === "string" && parts[5] !== "" ? parts[5] : undefined,
    };
  if (status === "active") return { kind: "active", liveRunId: replyString(parts[1], "the live run's id") };
  if (status === "retry" || status === "moved" || status === "deleted" || status === "queue-pending" || status === "queue-moved") return { kind: status };
  throw unexpectedReply(status, 'one of "ok", "active", "retry", "moved", "deleted", "queue-pending", "queue-moved" as the begin script\'s status');
}
