/** What a run's writer (RedisRunWriter.ts) needs of its store (docs/durability.md §8). */
import type { StoreClock } from "../server/store/StoreClock";
import type { ThreadKeys } from "./keys";
import type { RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import type { ReplicaAcknowledgement } from "./replicaWait";
import type { ScriptContext } from "./scripts/prelude";
import type { KeptMessages } from "./snapshotWrites";
import type { LocalFeed } from "./tailState";

/**
 * What a writer needs of its store: the connection and its calls, the thread's keys, the script
 * context (the lease clock's now), the lease settings and bounds, timers, and a way to hear signals.
 *
 * @example
 * new RedisRunWriter(threadId, runId, started, seq, fold, { connection: port, calls, keys, context, lease: 30_000, leaseTtl: 30_000, maxEvents: 100_000, snapshotEvery: 1_000, replicas: undefined, timers: systemClock, watchSignals, feed, released, base, listChanged, steersTaken, runEnded });
 */
export interface WriterEnvironment {
  readonly connection: RedisConnection;
  readonly calls: RedisCalls;
  readonly keys: ThreadKeys;
  readonly context: () => ScriptContext;
  readonly lease: number;
  /** The lease key's TTL: the lease itself on Redis's clock, the thread's TTL on an injected clock. */
  readonly leaseTtl: number;
  readonly maxEvents: number;
  readonly snapshotEvery: number;
  /** Replicas that must hold each append before its events go anywhere (`undefined`: none are waited for). */
  readonly replicas: ReplicaAcknowledgement | undefined;
  readonly timers: StoreClock;
  readonly watchSignals: (listener: (kind: "stop" | "end" | "steer") => void) => () => void;
  /** Where each logged batch goes for this instance's tails of the thread (released when the run is no longer live here). */
  readonly feed: LocalFeed;
  /** Called once when the run is no longer live here (the store stops tracking the writer). */
  readonly released: () => void;
  /** The kept snapshot the run's first checkpoint builds on (the one `beginRun` wrote). */
  readonly base: KeptMessages | undefined;
  /** After the run's end or a title it set: the thread's row (raw, from the script), for its owner's list. */
  readonly listChanged: (type: "run-ended" | "renamed", row: unknown) => Promise<void>;
  /** After an append took steers out of the queue (their JSON): announce them (docs/queue.md#redis-keys). */
  readonly steersTaken: (entries: readonly string[]) => Promise<void>;
  /** After the run's terminal was logged: this instance's `queueChanges` of the thread hear `ended` now. */
  readonly runEnded: () => void;
}
