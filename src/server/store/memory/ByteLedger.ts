/** The memory store's byte rule (docs/durability.md §6): what is counted, each run's limit, and room made before bytes are logged. */
import { evictIdleThread, freeableBytes, freeBytes, type EvictionCounts } from "./evictions";
import type { MemoryThread } from "./MemoryThread";
import type { RunLimit } from "./runBytes";

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
 * const noRoom = ledger.makeRoom(incoming, thread); // undefined: room made; else refuse the batch
 */
export class ByteLedger {
  bytes = 0;
  readonly evictions: EvictionCounts = { threads: 0, runLogs: 0 };

  constructor(
    private readonly threads: Map<string, MemoryThread>,
    readonly maxBytes: number,
    readonly maxRunBytes: number,
  ) {}

  /** A run's limit on `thread` (`undefined`: a new one): `maxRunBytes`, or what its compacted state leaves under `maxBytes` if that is less. */
  runLimit(thread: MemoryThread | undefined): { readonly bytes: number; readonly named: RunLimit } {
    const snapshotBytes = thread?.snapshotBytes ?? 0;
    const bytes = Math.min(this.maxRunBytes, this.maxBytes - snapshotBytes);
    return { bytes, named: bytes < this.maxRunBytes ? { kind: "thread", maxBytes: this.maxBytes, snapshotBytes } : { kind: "run", maxRunBytes: this.maxRunBytes } };
  }

  /**
   * Evicts what `incoming` bytes need to fit under `maxBytes` (see `freeBytes`), keeping `writing`
   * whole; when they cannot fit however much goes, evicts nothing and answers what it found.
   */
  makeRoom(incoming: number, writing: MemoryThread | undefined): NoRoom | undefined {
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
