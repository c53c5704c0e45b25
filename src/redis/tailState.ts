/**
 * What the tail reader (TailReader.ts) keeps: its environment, one record per tail, per followed
 * thread and per thread a writer of this instance feeds, and the errors its tails end with.
 */
import type { StoreClock } from "../server/store/StoreClock";
import { StoreError } from "../server/store/StoreError";
import type { LoggedEntry } from "./entries";
import type { ThreadKeys } from "./keys";
import { unavailable, type RedisCalls } from "./RedisCalls";
import type { RedisPort, ShardNotifications } from "./RedisPort";
import type { NoticeReply } from "./scripts/leaseScripts";
import type { ReplicaAcknowledgement } from "./replicaWait";

/**
 * What the reader needs of its store.
 *
 * @example
 * new TailReader({ port, calls, wakeKey: "agui:reader:k3x9:wake", connectionName: "agui-rx:k3x9:reader", notice, timers: systemClock, lease: 30_000, blockMs: 10_000, page: 1000 });
 */
export interface ReaderEnvironment {
  readonly port: RedisPort;
  readonly calls: RedisCalls;
  /** This instance's wake-up stream key, and the name of the reader's connection. */
  readonly wakeKey: string;
  readonly connectionName: string;
  /** Runs the lease check of a thread (the notice script). */
  readonly notice: (threadId: string, keys: ThreadKeys) => Promise<NoticeReply>;
  readonly timers: StoreClock;
  readonly lease: number;
  readonly blockMs: number;
  /** Entries per stream per read. */
  readonly page: number;
  /**
   * A Redis Cluster's sharded notifications (`RedisPort.shards`): when given, each followed thread
   * is read by `XRANGE` when its channel announces an append, and polled every `blockMs` besides
   * (a notification lost while a slot moved or a primary failed over), instead of by the blocking `XREAD`.
   */
  readonly shards?: ShardNotifications | undefined;
  /**
   * With `redisStore({ replicas })`: entries read from Redis reach the tails only once that many
   * replicas hold them (`confirmReplicated`); a writer's own feed is acknowledged already.
   */
  readonly replicas?: ReplicaAcknowledgement | undefined;
}

/** One tail. */
export interface Follower {
  /** Sequence number of the last event it has (from its cursor on). */
  seen: number;
  /** Reading the gap between its cursor and the reader's position: live entries wait in `held`. */
  catchingUp: boolean;
  readonly held: LoggedEntry[];
  done: boolean;
  deliver(entry: LoggedEntry): void;
  fail(error: StoreError): void;
}

/**
 * One followed thread: where the reader is in its stream, the last entries it read there (so that
 * tails joining a busy thread from a recent cursor catch up in memory instead of each reading and
 * decoding the gap again), its tails, and its lease check.
 */
export interface FollowedStream {
  readonly threadId: string;
  readonly keys: ThreadKeys;
  position: LoggedEntry;
  /** The last entries read, oldest first, consecutive, through `position` (at most `2 × page`). */
  recent: LoggedEntry[];
  readonly followers: Set<Follower>;
  cancelCheck: () => void;
  /** Over a Redis Cluster: what it listens to its channel with, whether an XRANGE of it is under way, whether another must follow, and the failed reads in a row. */
  readonly pull?: { listener: () => void; reading: boolean; again: boolean; failures: number } | undefined;
}

/**
 * How a run produced on this instance feeds its thread's tails (`TailReader.own`).
 *
 * @example
 * const feed = reader.own("t1", "r1", startedEntry, threadKeys("agui:", "t1"));
 * feed.offer(loggedEntries); // after each append, in order
 * feed.release();            // the run is over here (ended, failed, released)
 */
export interface LocalFeed {
  /** The entries an append just logged, consecutive, in order. */
  offer(entries: readonly LoggedEntry[]): void;
  /** Stops feeding: the thread's tails go back to the XREAD from the last entry fed. Idempotent. */
  release(): void;
}

/** A thread whose live run this instance produces: its last logged entry, and whose run it is. */
export interface Owner {
  readonly runId: string;
  last: LoggedEntry;
}

/** The error a tail ends with when its thread or cursor left the stream. */
export function evicted(threadId: string, why: string): StoreError {
  return new StoreError("evicted", `expected thread "${threadId}" to be followable, but ${why}; reconnect: the snapshot path answers`, { threadId });
}

/** The error a tail ends with when the store was closed under it. */
export function closedError(threadId: string): StoreError {
  return new StoreError("unavailable", `expected thread "${threadId}" to be followed, but the store was closed`, { threadId });
}

/** Any failure of the reader as the StoreError its tails end with (`unavailable` unless it is one already). */
export function asStoreError(error: unknown, threadId: string | undefined): StoreError {
  if (StoreError.isInstance(error)) return error;
  return unavailable("the tail reader", error instanceof Error ? error.message : String(error), threadId === undefined ? {} : { threadId }, error);
}
