/**
 * The scripts of a thread's list face (docs/threads.md#redis-keys): its row, a rename or archive,
 * a title the agent sets, deletion with its tombstone, and an older page of its messages. Each
 * touches the thread's keys only (one slot); its owner's index is written after, outside them.
 */
import { replyArray, replyString, unexpectedReply } from "../replies";
import type { StoreScript } from "../commands/EVAL";
import { PRELUDE } from "./prelude";

/**
 * The Lua of a row read (no own arguments): `{'ok', row}` or `{'unknown'}`.
 *
 * @example
 * parseRowReply(await calls.script(port, rowScript, keys, context, []));
 */
export const rowScript: StoreScript = {
  name: "row",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
return {'ok', row()}
`,
};

/**
 * The Lua of a rename or archive (ARGV[5…]: "1" when a title is given, the title, the archived
 * flag "1"/"0" or "" to leave it): `{'ok', row}` or `{'unknown'}`.
 *
 * @example
 * parseRowReply(await calls.script(port, updateScript, keys, context, ["1", "Lisbon", ""]));
 */
export const updateScript: StoreScript = {
  name: "update",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
if ARGV[5] == '1' then redis.call('HSET', META, 'title', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', META, 'archived', ARGV[7]) end
redis.call('HSET', META, 'updated', tostring(NOW))
touch()
return {'ok', row()}
`,
};

/**
 * The Lua of a title set by a live run (ARGV[5…]: runId, title): `{'ok', row}`, or `{'unknown'}`
 * when the run is over (or the thread deleted).
 *
 * @example
 * parseRowReply(await calls.script(port, setTitleScript, keys, context, ["r1", "Lisbon"]));
 */
export const setTitleScript: StoreScript = {
  name: "set-title",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
abandon_if_due()
if redis.call('HGET', META, 'live') ~= ARGV[5] then return {'unknown'} end
redis.call('HSET', META, 'atitle', ARGV[6], 'updated', tostring(NOW))
touch()
return {'ok', row()}
`,
};

/**
 * The row a script answered (`row` of the prelude, raw: `threadRow` reads it), or `undefined` for
 * an unknown thread (or a run that is over, for `setTitleScript`).
 *
 * @example
 * parseRowReply(["unknown"]); // undefined
 */
export function parseRowReply(reply: unknown): unknown {
  const parts = replyArray(reply, "a thread script");
  const status = replyString(parts[0], "a thread script's status");
  if (status === "unknown") return undefined;
  if (status === "ok") return parts[1];
  throw unexpectedReply(status, 'one of "ok", "unknown" as a thread script\'s status');
}

/**
 * The Lua of a deletion (ARGV[5]: how long the tombstone stands, ms on the lease clock; ARGV[6]:
 * the tombstone key's TTL). A live run is asked to stop (its producer hears it at once; its next
 * append finds the run over), every key of the thread is deleted (its queue and the outcomes it remembers too), and the tombstone keeps every
 * late write out (each script that writes checks it or finds no meta). The live run's end and
 * each waiting message's cancellation are announced to the thread's `queueChanges`. Answers
 * `{'1', live run id or "", waiting ids}` when it deleted a thread, `{'0'}` for an unknown one
 * (`parseRemoveReply`).
 *
 * @example
 * await calls.script(port, removeScript, keys, context, ["60000", "60000"]);
 */
export const removeScript: StoreScript = {
  name: "remove",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'0'} end
local live = redis.call('HGET', META, 'live')
if live then
  signal('stop', live)
  queue_signal('ended', live) -- for the thread's queueChanges: its live run is over
end
-- the waiting messages go with the thread: their waiters hear them cancelled
local waiting = redis.call('ZRANGE', QUEUE, 0, -1)
for _, id in ipairs(waiting) do queue_signal('cancelled', id) end
redis.call('DEL', EVENTS, META, LEASE, SNAPSHOT, RUNS, MESSAGES, IDS, QUEUE, QENTRIES, QOUTCOMES)
redis.call('SET', TOMBSTONE, tostring(NOW + tonumber(ARGV[5])), 'PX', ARGV[6])
return {'1', live or '', waiting}
`,
};

/**
 * The Lua of a history page (ARGV[5…]: the id of the message the page ends before, the limit):
 * `{'page', messages, hasOlder}` from the kept snapshot's message list, `{'unknown'}` for no
 * thread, or `{'missing'}` when the kept snapshot does not hold the message (it is newer than the
 * kept snapshot, the snapshot predates the message list, or it is no message of the thread): the
 * caller then reads the whole thread.
 *
 * @example
 * parseHistoryReply(await calls.script(port, historyScript, keys, context, ["m51", "50"]));
 */
export const historyScript: StoreScript = {
  name: "history",
  source: `${PRELUDE}
if redis.call('EXISTS', META) == 0 then return {'unknown'} end
local before, limit = ARGV[5], tonumber(ARGV[6])
local at = redis.call('HGET', IDS, before)
if not at then return {'missing'} end
at = tonumber(at)
local held = redis.call('LINDEX', MESSAGES, at)
-- an index left by a message a later write replaced: check the message there is the one asked for
if not held or cjson.decode(held).id ~= before then return {'missing'} end
local from = math.max(0, at - limit)
local messages = {}
if at > 0 and limit > 0 then messages = redis.call('LRANGE', MESSAGES, from, at - 1) end
local older = '0'
if from > 0 then older = '1' end
return {'page', messages, older}
`,
};

/**
 * What the history script answered.
 *
 * @example
 * parseHistoryReply(["page", [], "0"]); // { kind: "page", messages: [], hasOlder: false }
 */
export type HistoryReply =
  { readonly kind: "page"; readonly messages: readonly string[]; readonly hasOlder: boolean } | { readonly kind: "unknown" } | { readonly kind: "missing" };

/**
 * The history script's reply.
 *
 * @example
 * parseHistoryReply(["missing"]); // { kind: "missing" }
 */
export function parseHistoryReply(reply: unknown): HistoryReply {
  const parts = replyArray(reply, "the history script");
  const status = replyString(parts[0], "the history script's status");
  if (status === "unknown" || status === "missing") return { kind: status };
  if (status !== "page") throw unexpectedReply(status, 'one of "page", "unknown", "missing" as the history script\'s status');
  const messages = replyArray(parts[1], "the page's messages").map((message) => replyString(message, "a message's JSON"));
  return { kind: "page", messages, hasOlder: parts[2] === "1" };
}

/**
 * What a deletion removed: `undefined` for an unknown thread, else its live run's id (if any) and
 * the ids of the messages that waited in its queue.
 *
 * @example
 * parseRemoveReply(["1", "r2", ["q1"]]); // { live: "r2", waiting: ["q1"] }
 */
export function parseRemoveReply(reply: unknown): { readonly live: string | undefined; readonly waiting: readonly string[] } | undefined {
  const parts = replyArray(reply, "the remove script");
  const status = replyString(parts[0], "the remove script's status");
  if (status === "0") return undefined;
  if (status !== "1") throw unexpectedReply(status, 'one of "1", "0" as the remove script\'s status');
  const live = replyString(parts[1], "the deleted thread's live run");
  return {
    live: live === "" ? undefined : live,
    waiting: replyArray(parts[2], "the deleted thread's waiting messages").map((id) => replyString(id, "a waiting message's id")),
  };
}
