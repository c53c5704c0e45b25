/**
 * The Redis key layout of `redisStore()` (docs/durability.md, "Redis"): every key of one thread
 * shares the hash tag `{<threadId>}`, so a Redis Cluster keeps them in one slot and every script
 * that touches a thread touches one slot.
 */

/**
 * The keys of one thread, in the order every store script receives them (`KEYS[1]` … `KEYS[5]`).
 *
 * - `events`: the stream of the thread's events, one entry per event, the entry id its cursor;
 * - `meta`: a hash: the live run, the last run, the event count, the last cursor, the stop request;
 * - `lease`: the live run's heartbeat: its deadline, with a TTL;
 * - `snapshot`: a hash: the compacted thread (`ThreadSnapshot` JSON) and the cursor it is folded through;
 * - `runs`: a list of the retained runs, `"<start cursor> <runId>"`, oldest first.
 *
 * @example
 * threadKeys("agui:", "t1").events; // "agui:{t1}:events"
 */
export interface ThreadKeys {
  readonly events: string;
  readonly meta: string;
  readonly lease: string;
  readonly snapshot: string;
  readonly runs: string;
}

/**
 * The default key prefix.
 *
 * @example
 * redisStore({ client, prefix: DEFAULT_PREFIX }); // the same as leaving it out
 */
export const DEFAULT_PREFIX = "agui:";

/**
 * The keys of `threadId` under `prefix`. The thread id is escaped so that it cannot end the hash
 * tag early or start another (`%` → `%25`, `{` → `%7B`, `}` → `%7D`; the empty id is `%`): two
 * different ids never share keys, and the tag is always the whole id, never empty.
 *
 * @example
 * threadKeys("agui:", "a}b").meta; // "agui:{a%7Db}:meta"
 */
export function threadKeys(prefix: string, threadId: string): ThreadKeys {
  const base = `${prefix}{${hashTag(threadId)}}:`;
  return { events: `${base}events`, meta: `${base}meta`, lease: `${base}lease`, snapshot: `${base}snapshot`, runs: `${base}runs` };
}

/**
 * The five keys as the argument list every script takes, in `KEYS` order.
 *
 * @example
 * scriptKeys(threadKeys("agui:", "t1")); // ["agui:{t1}:events", "agui:{t1}:meta", …]
 */
export function scriptKeys(keys: ThreadKeys): readonly string[] {
  return [keys.events, keys.meta, keys.lease, keys.snapshot, keys.runs];
}

/**
 * The one pub/sub channel of a prefix, on which scripts announce stop requests and runs that
 * ended without their producer (`RunSignal`).
 *
 * @example
 * signalChannel("agui:"); // "agui:signals"
 */
export function signalChannel(prefix: string): string {
  return `${prefix}signals`;
}

/**
 * The wake-up stream of one store instance's tail reader: written to when the reader must start
 * following another thread, and read in the same blocking XREAD as the threads' streams, so that
 * the wake-up can never be missed, whichever arrives first.
 *
 * @example
 * wakeKey("agui:", "k3x9"); // "agui:reader:k3x9:wake"
 */
export function wakeKey(prefix: string, instance: string): string {
  return `${prefix}reader:${instance}:wake`;
}

/**
 * The thread id with the characters that delimit a hash tag (and the escape character) escaped.
 * The empty id becomes a lone `%` (which no other id escapes to): an empty tag `{}` would make
 * Redis Cluster hash each whole key instead, scattering the thread's keys over slots.
 */
function hashTag(threadId: string): string {
  if (threadId === "") return "%";
  return threadId.replace(/[%{}]/g, (c) => (c === "%" ? "%25" : c === "{" ? "%7B" : "%7D"));
}
