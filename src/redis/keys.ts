/**
 * The Redis key layout of `redisStore()` (docs/durability.md, "Redis"; docs/threads.md#redis-keys):
 * every key of one thread shares one hash tag, so a Redis Cluster keeps them in one slot and every
 * script that touches a thread touches one slot. A thread without an owner is tagged by its id
 * (`{<threadId>}`, the layout from before owners); an owner's thread by owner and id together
 * (`{<owner>%:<threadId>}`), so one owner's threads spread over slots; the owner's index of its
 * threads lives under the owner's own tag (`{%o:<owner>}`).
 */

/**
 * The keys of one thread, in the order every store script receives them (`KEYS[1]` … `KEYS[11]`).
 *
 * - `events`: the stream of the thread's events, one entry per event, the entry id its cursor;
 * - `meta`: a hash: the live run, the last run, the event count, the last cursor, the stop request;
 * - `lease`: the live run's heartbeat: its deadline, with a TTL;
 * - `snapshot`: a hash: the compacted thread (`ThreadSnapshot` JSON without its messages and its tree's forks), the cursor it is folded through, its message count,
 *   the forks (`tree`, docs/threads.md#the-tree) and how many branch switches rewrote it (`sel`);
 * - `runs`: a list of the retained runs, `"<start cursor> <runId>"`, oldest first;
 * - `messages`: a list: the compacted thread's messages, one JSON each, in path order (so the last N read alone);
 * - `ids`: a hash: message id → its index in `messages` (where a history page starts);
 * - `tombstone`: a string while the thread is deleted: the time until which nothing may recreate it;
 * - `queue`: a sorted set: the ids of the thread's waiting messages, scored in the order they will run (docs/queue.md#redis-keys);
 * - `queueEntries`: a hash: waiting message id → its `QueuedRun` JSON;
 * - `queueOutcomes`: a list, newest first, capped: what became of the last entries that left the queue (`[id, state, detail]` JSON).
 *
 * Not a script key: `sync`, the string a reading instance writes (with a short TTL) before its
 * `WAIT`, with `replicas` only (replicaWait.ts, docs/durability.md#failover-and-acknowledged-events).
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
  readonly messages: string;
  readonly ids: string;
  readonly tombstone: string;
  readonly queue: string;
  readonly queueEntries: string;
  readonly queueOutcomes: string;
  readonly sync: string;
}

/**
 * The two keys of a thread the quiet append touches (its stream and its meta), for a script that
 * is called with these alone (`KEYS[1]`, `KEYS[2]`): fewer keys and arguments are a measurable
 * part of a small script's cost in Redis.
 *
 * @example
 * logKeys(threadKeys("agui:", "t1")); // { log: "agui:{t1}:events", meta: "agui:{t1}:meta" }
 */
export interface LogKeys {
  readonly log: string;
  readonly meta: string;
}

/**
 * The `LogKeys` of a thread's keys.
 *
 * @example
 * logKeys(threadKeys("agui:", "t1")).log; // "agui:{t1}:events"
 */
export function logKeys(keys: ThreadKeys): LogKeys {
  return { log: keys.events, meta: keys.meta };
}

/**
 * The default key prefix.
 *
 * @example
 * redisStore({ client, prefix: DEFAULT_PREFIX }); // the same as leaving it out
 */
export const DEFAULT_PREFIX = "agui:";

/**
 * The keys of `threadId` (of `owner`, when given) under `prefix`. Ids are escaped so that they
 * cannot end the hash tag early or start another (`%` → `%25`, `{` → `%7B`, `}` → `%7D`; the
 * empty ownerless id is `%`): two different threads never share keys, and the tag is never empty.
 * An owner's thread is tagged `<owner>%:<threadId>` (both escaped): `%:` appears in no escaped id,
 * so it marks where the owner ends, and no ownerless tag contains it.
 *
 * @example
 * threadKeys("agui:", "a}b").meta; // "agui:{a%7Db}:meta"
 * threadKeys("agui:", "t1", "ann").meta; // "agui:{ann%:t1}:meta"
 */
export function threadKeys(prefix: string, threadId: string, owner?: string): ThreadKeys {
  const tag = owner === undefined ? hashTag(threadId) : `${escapeTag(owner)}%:${escapeTag(threadId)}`;
  const base = `${prefix}{${tag}}:`;
  return {
    events: `${base}events`,
    meta: `${base}meta`,
    lease: `${base}lease`,
    snapshot: `${base}snapshot`,
    runs: `${base}runs`,
    messages: `${base}messages`,
    ids: `${base}ids`,
    tombstone: `${base}tombstone`,
    queue: `${base}queue`,
    queueEntries: `${base}queue-entries`,
    queueOutcomes: `${base}queue-outcomes`,
    sync: `${base}sync`,
  };
}

/**
 * The keys as the argument list every thread script takes, in `KEYS` order.
 *
 * @example
 * scriptKeys(threadKeys("agui:", "t1")); // ["agui:{t1}:events", "agui:{t1}:meta", …]
 */
export function scriptKeys(keys: ThreadKeys): readonly string[] {
  return [
    keys.events,
    keys.meta,
    keys.lease,
    keys.snapshot,
    keys.runs,
    keys.messages,
    keys.ids,
    keys.tombstone,
    keys.queue,
    keys.queueEntries,
    keys.queueOutcomes,
  ];
}

/**
 * The keys of one owner's thread index, under the owner's own tag `{%o:<owner>}` (no thread's tag
 * starts with `%o`), in `KEYS` order of the index scripts:
 *
 * - `active`: a sorted set of the owner's threads not archived, scored by `updatedAt`;
 * - `archived`: the same for archived threads;
 * - `deleted`: a sorted set of threads deleted lately, scored by when their tombstone ends (no
 *   late index write may bring them back).
 *
 * @example
 * ownerKeys("agui:", "ann").active; // "agui:{%o:ann}:threads"
 */
export interface OwnerKeys {
  readonly active: string;
  readonly archived: string;
  readonly deleted: string;
}

/**
 * The index keys of `owner` under `prefix` (see `OwnerKeys`).
 *
 * @example
 * ownerKeys("agui:", "a}b").archived; // "agui:{%o:a%7Db}:archived"
 */
export function ownerKeys(prefix: string, owner: string): OwnerKeys {
  const base = `${prefix}{%o:${escapeTag(owner)}}:`;
  return { active: `${base}threads`, archived: `${base}archived`, deleted: `${base}deleted` };
}

/**
 * The pub/sub channel of thread-list changes of a prefix: every owner's, each message naming its
 * owner; an instance passes a change only to its listeners of that owner.
 *
 * @example
 * listChannel("agui:"); // "agui:threads"
 */
export function listChannel(prefix: string): string {
  return `${prefix}threads`;
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
  return escapeTag(threadId);
}

function escapeTag(text: string): string {
  return text.replace(/[%{}]/g, (c) => (c === "%" ? "%25" : c === "{" ? "%7B" : "%7D"));
}
