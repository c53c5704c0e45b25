/** The options, defaults and public face of `redisStore()` (docs/durability.md, "Redis": retention and defaults). */
import type { StoreClock } from "../server/store/StoreClock";
import type { ThreadStore } from "../server/store/ThreadStore";
import { DEFAULT_PREFIX } from "./keys";
import type { NodeRedisClient, NodeRedisCluster } from "./nodeRedisPort";
import type { RedisPort } from "./RedisPort";
import type { ReplicaAcknowledgement } from "./replicaWait";

/**
 * The settings of `redisStore()`; every one has a default (`REDIS_STORE_DEFAULTS`).
 *
 * @example
 * const settings: RedisStoreSettings = { prefix: "chat:", ttl: 24 * 3600_000, lease: 10_000 };
 */
export interface RedisStoreSettings {
  /** Prefix of every key and of the signal channel (default `"agui:"`). */
  readonly prefix?: string | undefined;
  /** Milliseconds every key of a thread lives after its last write; an idle thread is then gone (404) (default 7 days). */
  readonly ttl?: number | undefined;
  /** Milliseconds a live run may go without an append or a heartbeat before it is ended `ABANDONED` (default `DEFAULT_LEASE_MS`, 30,000). */
  readonly lease?: number | undefined;
  /** Runs whose events a thread's stream keeps (default 50); older runs' entries are trimmed (MINID) and live on in the snapshot. */
  readonly maxRunsPerThread?: number | undefined;
  /** Entries a thread's stream may grow to before it is trimmed up to its kept snapshot (default 100,000). */
  readonly maxEventsPerThread?: number | undefined;
  /** A live run's compacted thread is kept every this many events (default 1,000), and at its end. */
  readonly snapshotEvery?: number | undefined;
  /** Milliseconds a command may take before it fails `unavailable` (default 10,000). */
  readonly timeout?: number | undefined;
  /**
   * The lease clock. Default: Redis's own (`TIME` inside the scripts, and the heartbeat key's TTL),
   * the same for every instance whatever their clocks say; timers use `systemClock`. An injected
   * clock (tests: a manual one) measures leases instead: the heartbeat key then holds the deadline
   * on that clock, and the key's own TTL is the thread's.
   */
  readonly clock?: StoreClock | undefined;
  /**
   * Replica-acknowledged appends (docs/durability.md#failover-and-acknowledged-events): each append
   * (and each run's RUN_STARTED) is followed by `WAIT <count> <timeoutMs>` on the connection that
   * ran it, and its events go to this instance's tails and the run's own answer only once that
   * many replicas hold them; fewer within the timeout fail the append (`unavailable`, cause
   * `NOREPLICAS`), and the run with it. What this instance reads of runs produced elsewhere (its
   * tails, `read`, `history`) goes on only once as many replicas hold it, too (a write and a
   * `WAIT` on the reading connection), or fails `unavailable` the same way. Default: not waited
   * for (Redis replicates asynchronously).
   */
  readonly replicas?: ReplicaAcknowledgement | undefined;
  /** Names of the connections the store opens (`CLIENT SETNAME`): `<name>:<instance>:reader` and `…:signals` (default `"agui-rx"`). */
  readonly connectionName?: string | undefined;
}

/**
 * Options of `redisStore()`: a connected node-redis client or cluster client (`redis` 5's
 * `createClient` or `createCluster`, docs/durability.md#redis-cluster), or any `RedisPort`, plus settings.
 *
 * @example
 * redisStore({ client, prefix: "chat:" });
 * redisStore({ client: await createCluster({ rootNodes }).connect() });
 */
export type RedisStoreOptions = RedisStoreSettings &
  ({ readonly client: NodeRedisClient | NodeRedisCluster; readonly port?: undefined } | { readonly port: RedisPort; readonly client?: undefined });

/**
 * The defaults of `RedisStoreSettings`.
 *
 * @example
 * redisStore({ client, ttl: REDIS_STORE_DEFAULTS.ttl * 4 });
 */
export const REDIS_STORE_DEFAULTS = {
  prefix: DEFAULT_PREFIX,
  ttl: 7 * 24 * 3600_000,
  maxRunsPerThread: 50,
  maxEventsPerThread: 100_000,
  snapshotEvery: 1_000,
  timeout: 10_000,
  connectionName: "agui-rx",
} as const;

/**
 * What one store instance is doing right now.
 *
 * @example
 * const { liveRuns, followedThreads, tails } = store.stats();
 */
export interface RedisStoreStats {
  /** Runs produced through this instance that are still live. */
  readonly liveRuns: number;
  readonly followedThreads: number;
  readonly tails: number;
}

/**
 * A `ThreadStore` on Redis, with its instance name, its bookkeeping, and `close()`.
 *
 * @example
 * const store: RedisStore = redisStore({ client });
 * await store.close();
 */
export interface RedisStore extends ThreadStore {
  /** A random name for this instance, part of its connections' names. */
  readonly instance: string;
  stats(): RedisStoreStats;
  /**
   * Closes the two connections the store opened (over a cluster: its subscriptions on the caller's
   * cluster client; the caller's client stays open) and stops its
   * timers: tails error `unavailable`, and this instance's writers reject from then on (their
   * runs end ABANDONED unless another store ends them).
   */
  close(): Promise<void>;
}
