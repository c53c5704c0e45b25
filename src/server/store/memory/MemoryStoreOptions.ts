/** `memoryStore()`'s options, defaults and stats (docs/durability.md §6), checked once when the store is made. */
import { positiveOption } from "../positiveOption";
import type { StoreClock } from "../StoreClock";
import type { ThreadStore } from "../ThreadStore";

/**
 * Options of `memoryStore()`. Every bound holds at all times; see `memoryStore` for what goes first.
 *
 * @example
 * memoryStore({ maxThreads: 100, maxRunsPerThread: 10, maxBytes: 16 * 1024 * 1024, maxRunBytes: 1024 * 1024, lease: 10_000 });
 */
export interface MemoryStoreOptions {
  /** Threads kept (default 1,000). */
  readonly maxThreads?: number | undefined;
  /** Runs whose events a thread keeps for cursors (default 50); older runs live on in the snapshot. */
  readonly maxRunsPerThread?: number | undefined;
  /**
   * Bytes kept (default 64 MiB): the JSON text of retained events, each thread's compacted
   * messages and state, and what live runs have added to it so far (see `maxRunBytes`).
   */
  readonly maxBytes?: number | undefined;
  /**
   * Bytes one run may add (default a quarter of `maxBytes`; at most `maxBytes`): its events' JSON
   * text, plus as much again for what they add to the thread's compacted state (for its
   * RUN_STARTED, the input's new messages). A run that would pass it is ended `RUN_TOO_LARGE`.
   */
  readonly maxRunBytes?: number | undefined;
  /** Milliseconds a live run may go without an append or a heartbeat before it is ended `ABANDONED` (default `DEFAULT_LEASE_MS`, 30,000). */
  readonly lease?: number | undefined;
  /** Time and timers (default `systemClock`); tests pass a manual clock. */
  readonly clock?: StoreClock | undefined;
}

/**
 * What a memory store holds right now and what its bounds have taken, for tests, monitoring and
 * the benchmark.
 *
 * @example
 * const { threads, liveRuns, bytes, liveRunBytes } = store.stats();
 */
export interface MemoryStoreStats {
  readonly threads: number;
  readonly liveRuns: number;
  /** Bytes counted against `maxBytes`, live runs' included. */
  readonly bytes: number;
  /** Of `bytes`, what the live runs hold: their events and their growth of the compacted state (each run at most `maxRunBytes`). */
  readonly liveRunBytes: number;
  /** Threads evicted so far (for bytes or for `maxThreads`). */
  readonly evictedThreads: number;
  /** Ended runs whose events were dropped for bytes so far (their threads kept their state). */
  readonly droppedRunLogs: number;
  /** Runs ended `RUN_TOO_LARGE` so far. */
  readonly tooLargeRuns: number;
}

/**
 * A `ThreadStore` in this process's memory, with its bookkeeping visible.
 *
 * @example
 * const store: MemoryStore = memoryStore();
 * store.stats().threads; // 0
 */
export interface MemoryStore extends ThreadStore {
  stats(): MemoryStoreStats;
}

/**
 * `memoryStore`'s default bounds (see `MemoryStoreOptions`; `maxRunBytes` defaults to a quarter of `maxBytes`).
 *
 * @example
 * memoryStore({ maxBytes: MEMORY_STORE_DEFAULTS.maxBytes * 4 });
 */
export const MEMORY_STORE_DEFAULTS = { maxThreads: 1000, maxRunsPerThread: 50, maxBytes: 64 * 1024 * 1024 } as const;

/**
 * The bounds of one store: the options with their defaults, each checked.
 *
 * @example
 * resolveBounds({ maxBytes: 1024 }).maxRunBytes; // 256
 */
export interface MemoryStoreBounds {
  readonly maxThreads: number;
  readonly maxRunsPerThread: number;
  readonly maxBytes: number;
  readonly maxRunBytes: number;
}

/**
 * Fills in the defaults and checks every bound: positive numbers, and `maxRunBytes` at most `maxBytes`.
 *
 * @example
 * resolveBounds({ maxBytes: 1024, maxRunBytes: 2048 }); // throws RangeError: expected maxRunBytes to be at most maxBytes (1024), but got 2048
 */
export function resolveBounds(options: MemoryStoreOptions): MemoryStoreBounds {
  const maxBytes = positive("maxBytes", options.maxBytes ?? MEMORY_STORE_DEFAULTS.maxBytes);
  const maxRunBytes = positive("maxRunBytes", options.maxRunBytes ?? Math.max(1, Math.floor(maxBytes / 4)));
  if (maxRunBytes > maxBytes) throw new RangeError(`memoryStore: expected maxRunBytes to be at most maxBytes (${maxBytes}), but got ${maxRunBytes}`);
  return {
    maxThreads: positive("maxThreads", options.maxThreads ?? MEMORY_STORE_DEFAULTS.maxThreads),
    maxRunsPerThread: positive("maxRunsPerThread", options.maxRunsPerThread ?? MEMORY_STORE_DEFAULTS.maxRunsPerThread),
    maxBytes,
    maxRunBytes,
  };
}

/**
 * `value` if it is a positive number; else a RangeError naming the option.
 *
 * @example
 * positive("lease", 0); // throws RangeError: memoryStore: expected lease to be a positive number, but got 0
 */
export function positive(name: string, value: number): number {
  return positiveOption("memoryStore", name, value);
}
