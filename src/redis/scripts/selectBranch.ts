/**
 * The script of a branch switch (docs/threads.md#the-tree, #redis-keys): keeps the compacted thread
 * with another sibling shown, only if the thread is still as the switch read it — no run live (one
 * whose lease ran out is ended ABANDONED first, and the switch reads again), nothing logged since,
 * and no other switch written since (the kept snapshot's `sel` count), and no message waiting in the
 * thread's queue (docs/queue.md: it runs on the branch it was sent on) — so a `beginRun`, an
 * `enqueue` or another instance's switch never interleaves with it. It logs no event: the cursor stays.
 */
import { PRELUDE } from "./prelude";
import { snapshotWriteArguments, type SnapshotWrite } from "../snapshotWrites";
import type { StoreScript } from "../commands/EVAL";
import { replyArray, replyString, unexpectedReply } from "../replies";

/**
 * What a switch sends: the last cursor its fold includes, the kept snapshot's switch count as read
 * (`""`: none yet), and the snapshot to keep (folded through that cursor, its sequence number).
 *
 * @example
 * selectArguments({ expectLast: "1718000000000-4", selection: "", snapshot: write });
 */
export interface SelectRequest {
  readonly expectLast: string;
  readonly selection: string;
  readonly snapshot: SnapshotWrite;
}

/**
 * How the script answered: `switched` (kept; the thread's row for its owner's list), `unknown` (no
 * such thread), `active` (a run is live), `queue-pending` (messages wait in its queue), or `retry` (the thread changed since it was read: read,
 * fold and switch again).
 *
 * @example
 * parseSelectReply(["active"]); // { kind: "active" }
 */
export type SelectReply =
  | { readonly kind: "switched"; readonly row: unknown }
  | { readonly kind: "unknown" }
  | { readonly kind: "active" }
  | { readonly kind: "queue-pending" }
  | { readonly kind: "retry" };

/**
 * The Lua of a switch (ARGV[5…]: the expected last cursor, the expected switch count, then the
 * snapshot write). The snapshot's messages from `from` on (and a tree sent as `"="`) build on the
 * kept ones only if the kept snapshot is still the write's base.
 *
 * @example
 * parseSelectReply(await calls.script(port, selectScript, keys, context, selectArguments(request)));
 */
export const selectScript: StoreScript = {
  name: "select",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
if abandon_if_due() then return {'retry'} end
if redis.call('HGET', META, 'live') then return {'active'} end
if redis.call('ZCARD', QUEUE) > 0 then return {'queue-pending'} end
if (redis.call('HGET', META, 'last') or '') ~= ARGV[5] then return {'retry'} end
local kept = redis.call('HMGET', SNAPSHOT, 'seq', 'count', 'sel')
if (kept[3] or '') ~= ARGV[6] then return {'retry'} end
local from, tree = tonumber(ARGV[12]), ARGV[13]
if (from > 0 or tree == '=') and (kept[1] ~= ARGV[7] or not kept[2] or tonumber(kept[2]) < from) then return {'retry'} end
write_snapshot(ARGV[8], ARGV[9], ARGV[10], ARGV[11], from, tree, 14)
redis.call('HINCRBY', SNAPSHOT, 'sel', 1)
redis.call('HSET', META, 'updated', tostring(NOW))
touch()
return {'ok', row()}
`,
};

/**
 * The script's own arguments, in ARGV order from ARGV[5].
 *
 * @example
 * selectArguments(request).slice(0, 2); // ["1718000000000-4", ""]
 */
export function selectArguments(request: SelectRequest): string[] {
  return [request.expectLast, request.selection, ...snapshotWriteArguments(request.snapshot)];
}

/**
 * The script's reply as a SelectReply.
 *
 * @example
 * parseSelectReply(["ok", []]); // { kind: "switched", row: [] }
 */
export function parseSelectReply(reply: unknown): SelectReply {
  const parts = replyArray(reply, "the select script");
  const status = replyString(parts[0], "the select script's status");
  if (status === "ok") return { kind: "switched", row: parts[1] };
  if (status === "unknown" || status === "active" || status === "queue-pending" || status === "retry") return { kind: status };
  throw unexpectedReply(status, 'one of "ok", "unknown", "active", "queue-pending", "retry" as the select script\'s status');
}
