/** The memory store's eviction steps (docs/durability.md), least recently used thread first; each returns the bytes it freed. */
import type { MemoryThread } from "./MemoryThread";

/**
 * Frees bytes until `bytes` is at most `maxBytes`, in this order, one step at a time: the oldest
 * ended run's events of the least recently used thread that has any; else the least recently used
 * thread without a live run, whole; else the oldest event of the least recently used live run.
 * Returns the bytes freed (less than needed only when nothing is left to free: the compacted
 * states of threads with live runs alone exceed the bound). O(1) when under the bound.
 *
 * @example
 * store.bytes -= enforceByteBound(threads, store.bytes, maxBytes);
 */
export function enforceByteBound(threads: Map<string, MemoryThread>, bytes: number, maxBytes: number): number {
  let freed = 0;
  while (bytes - freed > maxBytes) {
    const step = dropEndedRun(threads) ?? evictIdleThread(threads) ?? trimLiveRun(threads);
    if (step === undefined) break;
    freed += step;
  }
  return freed;
}

/**
 * Evicts the least recently used thread that has no live run: its tails error with `evicted`, and
 * the store forgets it. Returns the bytes freed, or `undefined` when every thread has a live run.
 *
 * @example
 * const freed = evictIdleThread(threads); // undefined: all busy
 */
export function evictIdleThread(threads: Map<string, MemoryThread>): number | undefined {
  for (const thread of threads.values()) {
    if (thread.live !== undefined) continue;
    threads.delete(thread.id);
    thread.evict();
    return thread.bytes;
  }
  return undefined;
}

/** Drops the events of the oldest ended run that still has some, in the least recently used thread that has one. */
function dropEndedRun(threads: Map<string, MemoryThread>): number | undefined {
  for (const thread of threads.values()) {
    // While a run is live it is the last one; every run before it has ended.
    const ended = thread.live === undefined ? thread.runs.length : thread.runs.length - 1;
    for (let i = 0; i < ended; i++) {
      const run = thread.runs[i];
      if (run.lastSeq < thread.log.firstSeq) continue; // its events are gone already
      const freed = thread.log.dropThrough(run.lastSeq);
      if (freed > 0) return freed;
    }
  }
  return undefined;
}

/** Drops the oldest retained event of the least recently used thread that has one (only live runs have any by now). */
function trimLiveRun(threads: Map<string, MemoryThread>): number | undefined {
  for (const thread of threads.values()) {
    if (thread.log.size === 0) continue;
    return thread.log.dropThrough(thread.log.firstSeq);
  }
  return undefined;
}
