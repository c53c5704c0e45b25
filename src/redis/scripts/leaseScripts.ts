/**
 * The two lease scripts (docs/durability.md, "Redis"): `renew`, the producer's heartbeat, and
 * `notice`, what any instance runs when a lease it watches may have run out (a tail's thread, its
 * own producers' runs). Both end an expired run ABANDONED first, so that whichever runs first logs it.
 */
import { replyArray, replyNumber, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * How a renewal went: `live` false once the run is over; `stopRequested` when a stop of it was
 * asked for; `queueVersion` how many entries were ever enqueued on the thread (a change means a
 * steer may wait that the signal channel lost: docs/queue.md#redis-keys).
 *
 * @example
 * parseRenewReply(["1", "0", "3"]); // { live: true, stopRequested: false, queueVersion: "3" }
 */
export interface RenewReply {
  readonly live: boolean;
  readonly stopRequested: boolean;
  readonly queueVersion: string;
}

/**
 * The Lua of a renewal (ARGV[5…]: runId, lease, leaseTtl).
 *
 * @example
 * parseRenewReply(await calls.script(port, renewScript, keys, context, renewArguments("r1", 30_000, 30_000)));
 */
export const renewScript: StoreScript = {
  name: "renew",
  source: `${PRELUDE}
local run_id, lease, lease_ttl = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7])
abandon_if_due()
-- a deleted thread's run is over, and was asked to stop (the delete's signal may not have arrived)
if deleted() then return {'0', '1'} end
if redis.call('HGET', META, 'live') ~= run_id then return {'0', '0'} end
redis.call('SET', LEASE, tostring(NOW + lease), 'PX', lease_ttl)
touch()
local stop = '0'
if redis.call('HGET', META, 'stop') == run_id then stop = '1' end
return {'1', stop, redis.call('HGET', META, 'qseq') or '0'}
`,
};

/**
 * The renewal's own arguments, from ARGV[5].
 *
 * @example
 * renewArguments("r1", 30_000, 30_000); // ["r1", "30000", "30000"]
 */
export function renewArguments(runId: string, lease: number, leaseTtl: number): string[] {
  return [runId, String(lease), String(leaseTtl)];
}

/**
 * The renewal's reply.
 *
 * @example
 * parseRenewReply(["0", "0"]); // { live: false, stopRequested: false, queueVersion: "0" }
 */
export function parseRenewReply(reply: unknown): RenewReply {
  const parts = replyArray(reply, "the renew script");
  return {
    live: replyString(parts[0], "the renewal's answer") === "1",
    stopRequested: parts[1] === "1",
    queueVersion: parts[2] === undefined ? "0" : replyString(parts[2], "the thread's queue version"),
  };
}

/**
 * What `notice` found: `unknown` (no such thread: its keys expired), `idle` (no live run),
 * `abandoned` (it just ended the live run ABANDONED, or it was), or `live` with the milliseconds
 * left on the lease (look again then).
 *
 * @example
 * parseNoticeReply(["live", "250"]); // { kind: "live", remaining: 250, runId: … }
 */
export type NoticeReply =
  | { readonly kind: "unknown" }
  | { readonly kind: "idle" }
  | { readonly kind: "abandoned" }
  | { readonly kind: "live"; readonly runId: string; readonly remaining: number };

/**
 * The Lua of a lease check (no own arguments).
 *
 * @example
 * parseNoticeReply(await calls.script(port, noticeScript, keys, context, []));
 */
export const noticeScript: StoreScript = {
  name: "notice",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
if abandon_if_due() then return {'abandoned'} end
local live = redis.call('HGET', META, 'live')
if not live then return {'idle'} end
return {'live', live, tostring(tonumber(redis.call('GET', LEASE)) - NOW)}
`,
};

/**
 * The lease check's reply.
 *
 * @example
 * parseNoticeReply(["idle"]); // { kind: "idle" }
 */
export function parseNoticeReply(reply: unknown): NoticeReply {
  const parts = replyArray(reply, "the notice script");
  const status = replyString(parts[0], "the notice script's status");
  switch (status) {
    case "unknown":
    case "idle":
    case "abandoned":
      return { kind: status };
    case "live":
      return { kind: "live", runId: replyString(parts[1], "the live run's id"), remaining: replyNumber(parts[2], "the lease's remaining milliseconds") };
    default:
      throw unexpectedReply(status, 'one of "unknown", "idle", "abandoned", "live" as the notice script\'s status');
  }
}
