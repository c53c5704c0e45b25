/** The memory store's threads as their owners see them (docs/threads.md#in-the-store): lookup by (owner, id), the list, its changes, metadata, deletion and tombstones. */
import type { Observable } from "rxjs";
import type { StoreClock } from "../StoreClock";
import { StoreError } from "../StoreError";
import type { HistoryQuery, ListQuery, StoreScope } from "../ThreadStore";
import type { HistoryPage, ThreadChanged, ThreadListEvent, ThreadPage, ThreadPatch, ThreadQueueChanged, ThreadSummary } from "../../../thread/threadList";
import { checkPageLimit, decodeListCursor, encodeListCursor } from "../pageQueries";
import { ListChanges } from "./ListChanges";
import type { MemoryThread } from "./MemoryThread";
import { threadKey } from "./threadKey";
import { noteDefaultTitle, summaryOf } from "./threadRows";
import { ThreadTable } from "./ThreadTable";
import { Tombstones } from "./Tombstones";

/**
 * Every thread of one memory store by (owner, thread id), each owner's list over them, and what
 * the list's listeners hear. The store's runs change threads; this keeps what the owner sees of
 * them (`updatedAt`, titles, `archived`, the list order) in step, and answers the list-side
 * operations. A deleted thread's key is kept as a tombstone for two leases: a producer still
 * writing when it was deleted has let its lease run out by then, so nothing it does recreates it.
 *
 * @example
 * const owned = new OwnedThreads(clock, lease);
 * owned.get("alice", "t1"); // undefined: alice has no thread t1 (whoever else does)
 */
export class OwnedThreads {
  readonly table: ThreadTable;
  private readonly tombstones: Tombstones;
  private readonly changes = new ListChanges();

  /** `forgotten` hears of every thread that leaves the store (deleted or evicted), after its owner's list heard it `deleted`. */
  constructor(
    private readonly clock: StoreClock,
    private readonly lease: number,
    forgotten: (thread: MemoryThread) => void = () => undefined,
  ) {
    // Deleted or evicted, a thread leaves its owner's list: say so to those watching it.
    this.table = new ThreadTable((thread) => {
      this.changes.announce(thread.meta.owner, () => ({ type: "deleted", threadId: thread.id }));
      forgotten(thread);
    });
    this.tombstones = new Tombstones(clock, 2 * lease);
  }

  /** `owner`'s thread `threadId` (`undefined` owner: the ownerless thread of that id). */
  get(owner: string | undefined, threadId: string): MemoryThread | undefined {
    return this.table.get(threadKey(owner, threadId));
  }

  /** Refuses a run on a thread deleted less than two leases ago (`deleted`). */
  refuseDeleted(owner: string | undefined, threadId: string, runId: string): void {
    if (!this.isDeleted(owner, threadId)) return;
    const message = `expected thread "${threadId}" to be open for run "${runId}", but it was deleted less than two leases (${2 * this.lease} ms) ago, and nothing may write it again until then`;
    throw new StoreError("deleted", message, { threadId, runId });
  }

  /** Whether `owner`'s thread `threadId` was deleted less than two leases ago (its tombstone). */
  isDeleted(owner: string | undefined, threadId: string): boolean {
    return this.tombstones.has(threadKey(owner, threadId));
  }

  /** Tells the thread's owner's listeners of a change of its queue (`change` is built only when someone listens); nothing about the row moves. */
  announceQueue(thread: MemoryThread, change: () => ThreadQueueChanged): void {
    this.changes.announce(thread.meta.owner, change);
  }

  /** A run of `thread` started or ended now: its `updatedAt` moves, its default title is looked for, its owner hears `change`. */
  ranNow(thread: MemoryThread, change: "created" | "run-started" | "run-ended"): void {
    const now = this.clock.now();
    this.table.reindex(thread, () => (thread.meta.updatedAt = now));
    noteDefaultTitle(thread);
    this.announce(thread, change);
  }

  /** Another sibling of `thread` was selected now: its `updatedAt` moves (its last message did), its owner hears `path-selected`. */
  pathSelected(thread: MemoryThread): void {
    const now = this.clock.now();
    this.table.reindex(thread, () => (thread.meta.updatedAt = now));
    this.announce(thread, "path-selected");
  }

  /** The agent's title (`RunWriter.setTitle`): shown unless the owner renamed the thread (then kept unseen, and nothing moves). */
  setAgentTitle(thread: MemoryThread, title: string): void {
    thread.meta.agentTitle = title;
    if (thread.meta.ownerTitle !== undefined) return;
    const now = this.clock.now();
    this.table.reindex(thread, () => (thread.meta.updatedAt = now));
    this.announce(thread, "renamed");
  }

  /** `ThreadStore.list`. */
  list(scope: StoreScope, query: ListQuery): ThreadPage {
    const limit = checkPageLimit("list", query.limit);
    const after = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
    if (scope.owner === undefined) return { threads: [] }; // no list holds threads without an owner
    const { threads, more } = this.table.index.page(scope.owner, query.archived === true, after, limit);
    const now = this.clock.now();
    const rows = threads.map((thread) => summaryOf(thread, now));
    const last = threads[threads.length - 1];
    return more && last !== undefined ? { threads: rows, next: encodeListCursor({ updatedAt: last.meta.updatedAt, threadId: last.id }) } : { threads: rows };
  }

  /** `ThreadStore.update`: the owner's rename wins over every other title from then on. */
  update(threadId: string, patch: ThreadPatch, scope: StoreScope): ThreadSummary | undefined {
    const thread = this.get(scope.owner, threadId);
    if (thread === undefined) return undefined;
    const { title, archived } = patch;
    const now = this.clock.now();
    if (title !== undefined || archived !== undefined) {
      this.table.reindex(thread, () => {
        thread.meta.updatedAt = now;
        if (title !== undefined) thread.meta.ownerTitle = title;
        if (archived !== undefined) thread.meta.archived = archived;
      });
    }
    if (title !== undefined) this.announce(thread, "renamed");
    if (archived !== undefined) this.announce(thread, archived ? "archived" : "updated");
    return summaryOf(thread, now);
  }

  /** `ThreadStore.history`. */
  history(threadId: string, query: HistoryQuery, scope: StoreScope): HistoryPage | undefined {
    const limit = checkPageLimit("history", query.limit);
    const thread = this.get(scope.owner, threadId);
    if (thread === undefined) return undefined;
    this.table.touch(thread);
    return thread.messagesBefore(query.before, limit);
  }

  /** Forgets a deleted thread (its bytes and live run are the store's to let go first) and keeps its tombstone. */
  delete(thread: MemoryThread): void {
    this.tombstones.add(thread.key);
    this.table.forget(thread); // its tails error, its owner's list drops it and hears `deleted`
  }

  /** `ThreadStore.listEvents`. */
  listen(scope: StoreScope): Observable<ThreadListEvent> {
    return this.changes.listen(scope.owner);
  }

  /** Tells the thread's owner's listeners of a change, with its row as it is now. */
  private announce(thread: MemoryThread, type: ThreadChanged["type"]): void {
    this.changes.announce(thread.meta.owner, () => ({ type, thread: summaryOf(thread, this.clock.now()) }));
  }
}
