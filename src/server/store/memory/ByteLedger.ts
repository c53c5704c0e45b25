/** The memory store's byte rule (docs/durability.md §6): what is counted, each run's limit, and room made before bytes are logged. */
import { StoreError } from "../StoreError";
import { evictIdleThread, freeableBytes, freeBytes, type EvictionCounts } from "./evictions";
import type { LiveRun } from "./LiveRun";
import type { MemoryStoreStats } from "./MemoryStoreOptions";
import type { MemoryThread } from "./MemoryThread";
import type { ThreadTable } from "./ThreadTable";
import { storeFull, tooLarge, type RunLimit } from "./runBytes";

/**
 * What the store found when it could not make room: its total, what it may free, its bound.
 *
 * @example
 * const room: NoRoom = { bytes: 1000, freeable: 0, maxBytes: 1024 };
 */
export interface NoRoom {
  readonly bytes: number;
  readonly freeable: number;
  readonly maxBytes: number;
}

/**
 * The bytes of one store's threads (each thread's `bytes`, summed as they change, so reading the
 * total is O(1)), and the decisions made on them: a run's limit, eviction before a write (only
 * what the incoming bytes need, and nothing when they cannot fit), and after one that was logged
 * without room. The store adds and subtracts what it logs and drops; the ledger subtracts what it
 * evicts.
 *
 * @example
 * const ledger = new ByteLedger(threads, 1024 * 1024, 256 * 1024);
 * const refusal = ledger.refuseBatch(thread, live, incoming); // undefined: room made; else end the run with it
 */
export class ByteLedger {
  bytes = 0;
  readonly evictions: EvictionCounts = { threads: 0, runLogs: 0 };
  /** Runs the store ended `RUN_TOO_LARGE`. */
  tooLargeRuns = 0;

  constructor(
    private readonly threads: ThreadTable,
    readonly maxBytes: number,
    readonly maxRunBytes: number,
  ) {}

  /** What is counted (O(threads): the live runs are summed). */
  stats(): MemoryStoreStats {
    let liveRuns = 0;
    let liveRunBytes = 0;
    for (const { live } of this.threads.values()) {
      if (live === undefined) continue;
      liveRuns++;
      liveRunBytes += live.loggedBytes + live.foldBytes;
    }
    const { threads: evictedThreads, runLogs: droppedRunLogs } = this.evictions;
    return { threads: this.threads.size, liveRuns, bytes: this.bytes, liveRunBytes, evictedThreads, droppedRunLogs, tooLargeRuns: this.tooLargeRuns };
  }

  /** A run's limit on `thread` (`undefined`: a new one): `maxRunBytes`, or what its compacted state leaves under `maxBytes` if that is less. */
  private runLimit(thread: MemoryThread | undefined): { readonly bytes: number; readonly named: RunLimit } {
    const snapshotBytes = thread?.snapshotBytes ?? 0;
    const bytes = Math.min(this.maxRunBytes, this.maxBytes - snapshotBytes);
    return {
      bytes,
      named: bytes < this.maxRunBytes ? { kind: "thread", maxBytes: this.maxBytes, snapshotBytes } : { kind: "run", maxRunBytes: this.maxRunBytes },
    };
  }

  /**
   * Admits a new run's first `incoming` bytes (its RUN_STARTED and its input's new messages) on
   * `thread` (`undefined`: a new one), making room for them; returns the run's limit. Throws
   * `run-too-large` past the limit, `capacity` when no room can be made; then nothing was evicted.
   */
  admitStart(thread: MemoryThread | undefined, run: { readonly threadId: string; readonly runId: string }, incoming: number): number {
    const limit = this.runLimit(thread);
    if (incoming > limit.bytes) throw tooLarge(run, limit.named, 0, incoming);
    const noRoom = this.makeRoom(incoming, thread);
    if (noRoom !== undefined) throw new StoreError("capacity", storeFull(run, noRoom, incoming), { threadId: run.threadId });
    return limit.bytes;
  }

  /**
   * Admits a waiting message's `incoming` bytes on `thread` (docs/queue.md#in-the-store), making
   * room for them as for a batch; `false` (nothing evicted) when no room can be made.
   */
  admitQueued(thread: MemoryThread, incoming: number): boolean {
    return this.makeRoom(incoming, thread) === undefined;
  }

  /**
   * Admits `incoming` bytes of `live`'s next batch, making room for them, or answers the refusal
   * (`run-too-large`: past the run's limit, or no room can be made; then nothing was evicted).
   */
  refuseBatch(thread: MemoryThread, live: LiveRun, incoming: number): StoreError | undefined {
    const run = { threadId: thread.id, runId: live.runId };
    const held = live.loggedBytes + live.foldBytes;
    if (held + incoming > live.limit) return tooLarge(run, this.runLimit(thread).named, held, incoming); // its state, and so its limit, are as when it began
    const noRoom = this.makeRoom(incoming, thread);
    return noRoom === undefined ? undefined : new StoreError("run-too-large", storeFull(run, noRoom, incoming), run);
  }

  /**
   * Evicts what `incoming` bytes need to fit under `maxBytes` (see `freeBytes`), keeping `writing`
   * whole; when they cannot fit however much goes, evicts nothing and answers what it found.
   */
  private makeRoom(incoming: number, writing: MemoryThread | undefined): NoRoom | undefined {
    const need = this.bytes + incoming - this.maxBytes;
    if (need <= 0) return undefined;
    const freeable = freeableBytes(this.threads, writing);
    if (freeable < need) return { bytes: this.bytes, freeable, maxBytes: this.maxBytes };
    this.bytes -= freeBytes(this.threads, need, writing, this.evictions);
    return undefined;
  }

  /** After a write logged without room (an end the store decides) or a state measured past its estimate: frees what it can for the excess, keeping `writing`. */
  settle(writing: MemoryThread): void {
    if (this.bytes > this.maxBytes) this.bytes -= freeBytes(this.threads, this.bytes - this.maxBytes, writing, this.evictions);
  }

  /** Evicts the least recently used idle thread for a new one (`maxThreads`); `false` when every thread has a live run. */
  evictForThread(): boolean {
    const freed = evictIdleThread(this.threads, undefined, this.evictions);
    if (freed === undefined) return false;
    this.bytes -= freed;
    return true;
  }
}
