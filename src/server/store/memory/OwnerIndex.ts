/** Each owner's threads in list order for the memory store's `list` (docs/threads.md#in-the-store): a page costs O(log n + limit). */
import type { ListPosition } from "../pageQueries";
import type { MemoryThread } from "./MemoryThread";

/** One owner's threads: those listed by default and the archived ones, each sorted in list order. */
interface OwnerRows {
  readonly listed: MemoryThread[];
  readonly archived: MemoryThread[];
}

/**
 * The owned threads of a store, per owner, each list sorted most recently updated first and ties
 * by thread id (ascending), so a page is a binary search for its cursor and a slice. Keeping a list
 * sorted moves up to n references per change (`splice`), which for 10,000 threads is a few
 * microseconds; a sort per `list` call would be O(n log n) each time. Threads without an owner are
 * not indexed: no list shows them. A thread's `updatedAt` and `archived` decide its place, so they
 * change only through `move`.
 *
 * @example
 * const index = new OwnerIndex();
 * index.add(thread);
 * index.page("alice", false, undefined, 20); // { threads: [thread], more: false }
 */
export class OwnerIndex {
  private readonly owners = new Map<string, OwnerRows>();

  /** Indexes `thread` at its place (nothing for a thread without an owner). */
  add(thread: MemoryThread): void {
    const rows = this.rowsOf(thread, true);
    if (rows === undefined) return;
    const list = thread.meta.archived ? rows.archived : rows.listed;
    list.splice(firstAfter(list, positionOf(thread)), 0, thread);
  }

  /** Drops `thread` from its owner's list (nothing if it is not indexed). */
  remove(thread: MemoryThread): void {
    const owner = thread.meta.owner;
    const rows = this.rowsOf(thread, false);
    if (owner === undefined || rows === undefined) return;
    const list = thread.meta.archived ? rows.archived : rows.listed;
    // Its place is right before the first row after its position; the search is by value, so a thread moved without `move` is looked for in full.
    const guess = firstAfter(list, positionOf(thread)) - 1;
    const at = list[guess] === thread ? guess : list.indexOf(thread);
    if (at >= 0) list.splice(at, 1);
    if (rows.listed.length === 0 && rows.archived.length === 0) this.owners.delete(owner);
  }

  /** Changes what decides `thread`'s place (its `updatedAt`, `archived`) through `change`, and puts it back in order. */
  move(thread: MemoryThread, change: () => void): void {
    this.remove(thread);
    change();
    this.add(thread);
  }

  /** At most `limit` of `owner`'s threads (archived ones or the others) after `after`, and whether more follow. */
  page(owner: string, archived: boolean, after: ListPosition | undefined, limit: number): { threads: MemoryThread[]; more: boolean } {
    const rows = this.owners.get(owner);
    if (rows === undefined) return { threads: [], more: false };
    const list = archived ? rows.archived : rows.listed;
    const start = after === undefined ? 0 : firstAfter(list, after);
    return { threads: list.slice(start, start + limit), more: start + limit < list.length };
  }

  /** How many threads `owner` has indexed (both lists). */
  count(owner: string): number {
    const rows = this.owners.get(owner);
    return rows === undefined ? 0 : rows.listed.length + rows.archived.length;
  }

  private rowsOf(thread: MemoryThread, create: boolean): OwnerRows | undefined {
    const owner = thread.meta.owner;
    if (owner === undefined) return undefined;
    let rows = this.owners.get(owner);
    if (rows === undefined && create) {
      rows = { listed: [], archived: [] };
      this.owners.set(owner, rows);
    }
    return rows;
  }
}

function positionOf(thread: MemoryThread): ListPosition {
  return { updatedAt: thread.meta.updatedAt, threadId: thread.id };
}

/** Whether `thread` comes after `position` in list order (older, or as old with a greater id). */
function sortsAfter(thread: MemoryThread, position: ListPosition): boolean {
  const { updatedAt } = thread.meta;
  return updatedAt < position.updatedAt || (updatedAt === position.updatedAt && thread.id > position.threadId);
}

/** The index of the first thread of `list` (sorted) after `position`: a binary search. */
function firstAfter(list: readonly MemoryThread[], position: ListPosition): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sortsAfter(list[middle], position)) high = middle;
    else low = middle + 1;
  }
  return low;
}
