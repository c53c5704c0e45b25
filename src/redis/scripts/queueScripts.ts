/**
 * The scripts of a thread's queue (docs/queue.md#redis-keys): storing a waiting message, cancelling
 * one, where one is now, and the waiting messages with the queue's version (what a live run's
 * producer re-reads for its steers). Each touches the thread's keys only (one slot) and announces
 * what it changed on the signal channel from inside the script, so no instance can miss a change
 * that happened while it was subscribed. Starting the head (`beginRun` with `dequeue`) and taking
 * a steer (an append) are parts of the begin and append scripts, atomic with what they log.
 */
import type { CancelQueuedAnswer, EnqueueAnswer } from "../../server/store/ThreadStore";
import { optionalString, replyArray, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * What `enqueue` sends: the entry's id, its JSON, the bound, whether it goes to the front, its
 * policy and target.
 *
 * @example
 * enqueueArguments({ id: "r3", json: "{…}", max: 16, front: false, policy: "queue", target: undefined });
 */
export interface EnqueueRequest {
  readonly id: string;
  readonly json: string;
  readonly max: number;
  readonly front: boolean;
  readonly policy: string;
  readonly target: string | undefined;
}

/**
 * How the enqueue script answered: stored (`queued` or `steering`, with the live run's id, if any)
 * or refused (`full`, `duplicate`, `unknown`, `deleted`).
 *
 * @example
 * parseEnqueueReply(["steering", "r2"]); // { answer: "steering", live: "r2" }
 */
export interface EnqueueReply {
  readonly answer: EnqueueAnswer;
  readonly live: string | undefined;
}

/**
 * Scores put front entries (`front - 1e15 + n`) before back ones (`n`), each part in the order
 * sent (`n`: the thread's `qseq`, counted up by each enqueue). Exact while `n` stays below 2^52.
 */
const FRONT_OFFSET = "1e15";

/**
 * The Lua of `enqueue` (ARGV[5…]: id, JSON, max, "1" for the front, policy, target or ""). Refuses
 * a deleted thread (its tombstone), an unknown one (no meta: never begun, expired, or another
 * owner's, whose keys these are not), an id the thread knows (a waiting entry, the live run, a
 * retained run, a remembered outcome), and a full queue; ends an expired live run ABANDONED first,
 * so that a steer into a dead run is `queued`, not `steering`.
 *
 * @example
 * parseEnqueueReply(await calls.script(port, enqueueScript, keys, context, enqueueArguments(request)));
 */
export const enqueueScript: StoreScript = {
  name: "enqueue",
  source: `${PRELUDE}
local id, json, max, front, policy, target = ARGV[5], ARGV[6], tonumber(ARGV[7]), ARGV[8] == '1', ARGV[9], ARGV[10]
if deleted() then return {'deleted'} end
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
abandon_if_due()
local live = redis.call('HGET', META, 'live') or ''
if id == live or redis.call('HEXISTS', QENTRIES, id) == 1 then return {'duplicate'} end
for _, run in ipairs(redis.call('LRANGE', RUNS, 0, -1)) do
  if string.sub(run, string.find(run, ' ', 1, true) + 1) == id then return {'duplicate'} end
end
local known = '[' .. cjson.encode(id) .. ','
for _, outcome in ipairs(redis.call('LRANGE', QOUTCOMES, 0, -1)) do
  if string.sub(outcome, 1, #known) == known then return {'duplicate'} end
end
if redis.call('ZCARD', QUEUE) >= max then return {'full'} end
local n = redis.call('HINCRBY', META, 'qseq', 1)
local score = n
if front then score = n - ${FRONT_OFFSET} end
redis.call('ZADD', QUEUE, string.format('%.0f', score), id)
redis.call('HSET', QENTRIES, id, json)
touch()
queue_signal('enqueued', id)
if policy == 'steer' and live ~= '' and target == live then
  -- the live run's producer, wherever it runs, re-reads its steers now (and at its next renewal
  -- if this is lost: the renewal answers the queue's version)
  signal('steer', live)
  return {'steering', live}
end
return {'queued', live}
`,
};

/**
 * The enqueue script's own arguments, from ARGV[5].
 *
 * @example
 * enqueueArguments({ id: "r3", json: "{}", max: 16, front: true, policy: "steer", target: "r2" }); // ["r3", "{}", "16", "1", "steer", "r2"]
 */
export function enqueueArguments(request: EnqueueRequest): string[] {
  return [request.id, request.json, String(request.max), request.front ? "1" : "0", request.policy, request.target ?? ""];
}

/**
 * The enqueue script's reply.
 *
 * @example
 * parseEnqueueReply(["full"]); // { answer: "full", live: undefined }
 */
export function parseEnqueueReply(reply: unknown): EnqueueReply {
  const parts = replyArray(reply, "the enqueue script");
  const status = replyString(parts[0], "the enqueue script's status");
  switch (status) {
    case "queued":
    case "steering":
      return { answer: status, live: optionalString(parts[1], "the live run's id") || undefined };
    case "full":
    case "duplicate":
    case "unknown":
    case "deleted":
      return { answer: status, live: undefined };
    default:
      throw unexpectedReply(status, 'one of "queued", "steering", "full", "duplicate", "unknown", "deleted" as the enqueue script\'s status');
  }
}

/**
 * The Lua of `cancelQueued` (ARGV[5…]: id, reason): `{'cancelled', entry JSON, live run id or ""}`
 * when the entry was waiting, else what became of it (`started`, `taken`, or `cancelled` again,
 * with nothing announced), else `unknown` (no such thread or entry).
 *
 * @example
 * parseCancelReply(await calls.script(port, cancelQueuedScript, keys, context, ["r3", "cancelled by the user"]));
 */
export const cancelQueuedScript: StoreScript = {
  name: "cancel-queued",
  source: `${PRELUDE}
local id, reason = ARGV[5], ARGV[6]
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
local json = leave_queue(id, 'cancelled', reason)
if json then
  touch()
  return {'cancelled', json, redis.call('HGET', META, 'live') or ''}
end
local known = '[' .. cjson.encode(id) .. ','
for _, outcome in ipairs(redis.call('LRANGE', QOUTCOMES, 0, -1)) do
  if string.sub(outcome, 1, #known) == known then
    -- what became of it; a second cancel answers cancelled again (its first reason stands)
    return {cjson.decode(outcome)[2]}
  end
end
return {'unknown'}
`,
};

/**
 * What the cancel script answered: the `CancelQueuedAnswer`, and for `cancelled` the entry's JSON
 * and the live run's id (to list it as it was).
 *
 * @example
 * parseCancelReply(["taken"]); // { answer: "taken", json: undefined, live: undefined }
 */
export interface CancelReply {
  readonly answer: CancelQueuedAnswer;
  readonly json: string | undefined;
  readonly live: string | undefined;
}

/**
 * The cancel script's reply.
 *
 * @example
 * parseCancelReply(["cancelled", "{…}", ""]).answer; // "cancelled"
 */
export function parseCancelReply(reply: unknown): CancelReply {
  const parts = replyArray(reply, "the cancel-queued script");
  const status = replyString(parts[0], "the cancel-queued script's status");
  switch (status) {
    case "cancelled":
      // without the entry: it was cancelled before
      return { answer: status, json: optionalString(parts[1], "the cancelled entry's JSON"), live: optionalString(parts[2], "the live run's id") || undefined };
    case "started":
    case "taken":
    case "unknown":
      return { answer: status, json: undefined, live: undefined };
    default:
      throw unexpectedReply(status, 'one of "cancelled", "started", "taken", "unknown" as the cancel-queued script\'s status');
  }
}

/**
 * The Lua of `queueEntry` (ARGV[5]: id; reads only): `{'waiting', entry JSON}`, `{'outcome',
 * outcome JSON}` (`[id, state, detail]`), or `{'unknown'}`.
 *
 * @example
 * parseEntryReply(await calls.script(port, queueEntryScript, keys, context, ["r3"]));
 */
export const queueEntryScript: StoreScript = {
  name: "queue-entry",
  source: `${PRELUDE}
local id = ARGV[5]
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
local json = redis.call('HGET', QENTRIES, id)
if json then return {'waiting', json} end
local known = '[' .. cjson.encode(id) .. ','
for _, outcome in ipairs(redis.call('LRANGE', QOUTCOMES, 0, -1)) do
  if string.sub(outcome, 1, #known) == known then return {'outcome', outcome} end
end
return {'unknown'}
`,
};

/**
 * What the entry script found: the waiting entry's JSON, how it left the queue, or nothing.
 *
 * @example
 * parseEntryReply(["outcome", '["r3","started","r3"]']); // { kind: "left", state: "started", detail: "r3" }
 */
export type EntryReply =
  | { readonly kind: "waiting"; readonly json: string }
  | { readonly kind: "left"; readonly state: "started" | "taken" | "cancelled"; readonly detail: string }
  | { readonly kind: "unknown" };

/**
 * The entry script's reply.
 *
 * @example
 * parseEntryReply(["unknown"]); // { kind: "unknown" }
 */
export function parseEntryReply(reply: unknown): EntryReply {
  const parts = replyArray(reply, "the queue-entry script");
  const status = replyString(parts[0], "the queue-entry script's status");
  if (status === "unknown") return { kind: "unknown" };
  if (status === "waiting") return { kind: "waiting", json: replyString(parts[1], "the waiting entry's JSON") };
  if (status !== "outcome") throw unexpectedReply(status, 'one of "waiting", "outcome", "unknown" as the queue-entry script\'s status');
  const outcome: unknown = JSON.parse(replyString(parts[1], "the entry's outcome"));
  if (!Array.isArray(outcome)) throw unexpectedReply(outcome, "an outcome [id, state, detail] as the queue-entry script's outcome");
  const [, state, detail] = outcome as readonly unknown[];
  if ((state === "started" || state === "taken" || state === "cancelled") && typeof detail === "string") return { kind: "left", state, detail };
  throw unexpectedReply(outcome, "an outcome [id, state, detail] as the queue-entry script's outcome");
}

/**
 * The Lua of the waiting messages (no own arguments; reads only): `{version, entries JSON}`, the
 * queue's version (`qseq`: entries ever enqueued) and the entries in the order they will run.
 *
 * @example
 * parseWaitingReply(await calls.script(port, waitingScript, keys, context, []));
 */
export const waitingScript: StoreScript = {
  name: "waiting",
  source: `${PRELUDE}
return {redis.call('HGET', META, 'qseq') or '0', queue_entries()}
`,
};

/**
 * The waiting script's reply.
 *
 * @example
 * parseWaitingReply(["2", ["{…}"]]); // { version: "2", entries: ["{…}"] }
 */
export function parseWaitingReply(reply: unknown): { readonly version: string; readonly entries: readonly string[] } {
  const parts = replyArray(reply, "the waiting script");
  return {
    version: replyString(parts[0], "the queue's version"),
    entries: replyArray(parts[1], "the waiting messages").map((entry) => replyString(entry, "a waiting message's JSON")),
  };
}
