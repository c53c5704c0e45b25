/** The memory store's eviction steps (docs/durability.md §6), least recently used thread first; each returns the bytes it freed. */
import type { MemoryThread } from "./MemoryThread";
import type { ThreadTable } from "./ThreadTable";

/**
 * What eviction has taken so far, for `stats()`: whole threads (for bytes or for `maxThreads`),
 * and ended runs whose events were dropped for bytes.
 *
 * @example
 * const counts: EvictionCounts = { threads: 0, runLogs: 0 };
 */
export interface EvictionCounts {
  threads: number;
  runLogs: number;
}

/**
 * The bytes `freeBytes` could free with `keep` (the thread being written) kept whole: every idle
 * thread but `keep` whole, and of `keep` and of threads with a live run their ended runs' events.
 * A live run's events and its thread's compacted state are never freeable. O(threads).
 *
 * @example
 * if (freeableBytes(threads, thread) < need) refuse(); // nothing is evicted for a write that cannot fit
 */
export function freeableBytes(threads: ThreadTable, keep: MemoryThread | undefined): number {
  let total = 0;
  for (const thread of threads.values()) total += thread.live === undefined && thread !== keep ? thread.bytes : thread.endedRunBytes;
  return total;
}

/**
 * Frees at least `need` bytes if it can, one step at a time, and stops as soon as it has: first the
 * oldest ended run's events of the least recently used thread that has any (cursors into it then
 * take the snapshot path; the thread keeps its state); only when no thread has any, the least
 * recently used thread without a live run, whole (it is forgotten, its tails error `evicted`).
 * Never a thread with a live run, never a live run's events, never `keep` whole. Returns the bytes
 * freed: less than `need` only when nothing freeable is left (see `freeableBytes`).
 *
 * @example
 * store.bytes -= freeBytes(threads, store.bytes + incoming - maxBytes, writing, counts);
 */
export function freeBytes(threads: ThreadTable, need: number, keep: MemoryThread | undefined, counts: EvictionCounts): number {
  let freed = 0;
  while (freed < need) {
    const step = dropEndedRun(threads, counts) ?? evictIdleThread(threads, keep, counts);
    if (step === undefined) break;
    freed += step;
  }
  return freed;
}

/**
 * Evicts the least recently used thread that has no live run and is not `keep`, one without
 * waiting messages if there is any: its tails error with `evicted`, and the store forgets it (its
 * owner's list too, docs/threads.md#in-the-store; its queue with it). Returns the bytes freed, or
 * `undefined` when no thread may go.
 *
 * @example
 * const freed = evictIdleThread(threads, undefined, counts); // undefined: all busy
 */
export function evictIdleThread(threads: ThreadTable, keep: MemoryThread | undefined, counts: EvictionCounts): number | undefined {
  // Threads with waiting messages go last: evicting one drops what its senders wait for (docs/queue.md#in-the-store).
  for (const spareQueues of [true, false]) {
    for (const thread of threads.values()) {
      if (thread.live !== undefined || thread === keep || (spareQueues && thread.queue.size > 0)) continue;
      threads.forget(thread);
      counts.threads++;
      return thread.bytes;
    }
  }
  return undefined;
}

/** Drops the events of the oldest ended run that still has some, in the least recently used thread that has one. */
function dropEndedRun(threads: ThreadTable, counts: EvictionCounts): number | undefined {
  for (const thread of threads.values()) {
    if (thread.endedRunBytes === 0) continue; // O(1) per thread without any, so a scan is O(threads)
    // While a run is live it is the last one; every run before it has ended.
    const ended = thread.live === undefined ? thread.runs.length : thread.runs.length - 1;
    for (let i = 0; i < ended; i++) {
      const run = thread.runs[i];
      if (run.lastSeq < thread.log.firstSeq) continue; // its events are gone already
      const freed = thread.log.dropThrough(run.lastSeq);
      if (freed > 0) {
        counts.runLogs++;
        return freed;
      }
    }
  }
  return undefined;
}
