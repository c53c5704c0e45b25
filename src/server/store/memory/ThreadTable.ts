/** The memory store's threads (docs/threads.md#in-the-store): by (owner, thread id) in least-recently-used order, and each owner's list beside them. */
import type { MemoryThread } from "./MemoryThread";
import { OwnerIndex } from "./OwnerIndex";

/**
 * Every thread of one store, keyed by `threadKey(owner, threadId)`, least recently used first (the
 * first is the next eviction's), with the owner index kept in step: a thread leaves both at once,
 * whether deleted or evicted, so no list shows a thread the store no longer holds.
 *
 * @example
 * const table = new ThreadTable((thread) => announceDeleted(thread));
 * table.add(thread);
 * table.forget(thread); // gone from the table and its owner's list; its tails error `evicted`
 */
export class ThreadTable {
  readonly index = new OwnerIndex();
  private readonly byKey = new Map<string, MemoryThread>();

  /** `forgotten` hears of every thread that leaves, deleted or evicted, after it left. */
  constructor(private readonly forgotten: (thread: MemoryThread) => void) {}

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): MemoryThread | undefined {
    return this.byKey.get(key);
  }

  /** The threads, least recently used first. */
  values(): IterableIterator<MemoryThread> {
    return this.byKey.values();
  }

  /** Adds a new thread as the most recently used, and to its owner's list. */
  add(thread: MemoryThread): void {
    this.byKey.set(thread.key, thread);
    this.index.add(thread);
  }

  /** Marks `thread` the most recently used. */
  touch(thread: MemoryThread): void {
    if (this.byKey.get(thread.key) !== thread) return;
    this.byKey.delete(thread.key);
    this.byKey.set(thread.key, thread);
  }

  /** Changes `thread`'s `updatedAt` or `archived` through `change`, keeping its owner's list in order (a thread that left changes alone). */
  reindex(thread: MemoryThread, change: () => void): void {
    if (this.byKey.get(thread.key) === thread) this.index.move(thread, change);
    else change();
  }

  /** Forgets `thread`: out of the table and its owner's list, its tails errored `evicted`; then `forgotten` hears of it. */
  forget(thread: MemoryThread): void {
    if (this.byKey.get(thread.key) !== thread) return;
    this.byKey.delete(thread.key);
    this.index.remove(thread);
    thread.evict();
    this.forgotten(thread);
  }
}
