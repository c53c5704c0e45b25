/**
 * The script that logs one batch of a live run (docs/durability.md, "Redis"): one call per batch,
 * never one per event. It refuses when the run is over (ending it ABANDONED first if its lease ran
 * out), logs the events, renews the lease or ends the run at a terminal, keeps a checkpoint of the
 * compacted thread the producer sends along, trims the stream past its bound, and answers with the
 * cursors and whether a stop was asked for.
 */
import { replyArray, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import type { EncodedEvent } from "../entries";
import { batchArguments } from "../entries";
import { PRELUDE } from "./prelude";

/**
 * A compacted thread to keep: its JSON, folded through the event at `cursor` with sequence `seq`.
 *
 * @example
 * const checkpoint: Checkpoint = { cursor: "1718000000000-9", seq: 9, json: "{…}" };
 */
export interface Checkpoint {
  readonly cursor: string;
  readonly seq: number;
  readonly json: string;
}

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
  readonly checkpoint?: Checkpoint;
  /** Past this many entries the stream is trimmed up to the kept snapshot (0: never). */
  readonly maxEvents: number;
  readonly events: readonly EncodedEvent[];
}

/**
 * How the script answered: `logged` (the cursors and the first sequence number, and whether a
 * stop of the run was asked for), or `ended` (nothing logged: the run is over; `abandoned` when
 * it was ended ABANDONED).
 *
 * @example
 * parseAppendReply(["ok", "0", "4", ["1718000000000-4"]]); // { kind: "logged", stopRequested: false, firstSeq: 4, cursors: ["1718000000000-4"] }
 */
export type AppendReply =
  | { readonly kind: "logged"; readonly stopRequested: boolean; readonly firstSeq: number; readonly cursors: readonly string[] }
  | { readonly kind: "ended"; readonly abandoned: boolean };

/**
 * The Lua of an append (ARGV[5…]: runId, lease, leaseTtl, terminal, checkpoint cursor, seq, JSON, maxEvents, then type/JSON pairs).
 *
 * @example
 * await calls.script(port, appendScript, keys, context, appendArguments(request));
 */
export const appendScript: StoreScript = {
  name: "append",
  source: `${PRELUDE}
local run_id, lease, lease_ttl, terminal = ARGV[5], tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8] == '1'
local max_events = tonumber(ARGV[12])
abandon_if_due()
if redis.call('HGET', META, 'live') ~= run_id then
  if redis.call('HGET', META, 'abandoned') == run_id then return {'ended', 'abandoned'} end
  return {'ended', 'over'}
end
local events = {}
for i = 13, #ARGV, 2 do events[#events + 1] = {ARGV[i], ARGV[i + 1]} end
local first = redis.call('HGET', META, 'seq') or '0'
local ids = log(events)
if terminal then
  end_live(run_id)
else
  redis.call('SET', LEASE, tostring(NOW + lease), 'PX', lease_ttl)
end
if ARGV[9] ~= '' then checkpoint(ARGV[9], ARGV[10], ARGV[11]) end
if max_events > 0 and redis.call('XLEN', EVENTS) > max_events then
  local kept = redis.call('HGET', SNAPSHOT, 'cursor')
  if kept then redis.call('XTRIM', EVENTS, 'MINID', kept) end
end
touch()
local stop = '0'
if redis.call('HGET', META, 'stop') == run_id then stop = '1' end
return {'ok', stop, first, ids}
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
    checkpoint?.cursor ?? "",
    checkpoint === undefined ? "" : String(checkpoint.seq),
    checkpoint?.json ?? "",
    String(request.maxEvents),
    ...batchArguments(request.events),
  ];
}

/**
 * The script's reply as an AppendReply.
 *
 * @example
 * parseAppendReply(["ended", "abandoned"]); // { kind: "ended", abandoned: true }
 */
export function parseAppendReply(reply: unknown): AppendReply {
  const parts = replyArray(reply, "the append script");
  const status = replyString(parts[0], "the append script's status");
  if (status === "ended") return { kind: "ended", abandoned: parts[1] === "abandoned" };
  if (status !== "ok") throw unexpectedReply(status, 'one of "ok", "ended" as the append script\'s status');
  const cursors = replyArray(parts[3], "the appended events' cursors").map((id) => replyString(id, "an appended event's cursor"));
  return { kind: "logged", stopRequested: parts[1] === "1", firstSeq: Number(replyString(parts[2], "the batch's first sequence number")), cursors };
}
