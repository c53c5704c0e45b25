/**
 * The rows a thread list holds and how pages and events change them (docs/client.md#thread-list):
 * pure steps, so that the order pages and events arrive in cannot change the result.
 */
import type { ThreadListEvent, ThreadPage, ThreadSummary } from "../../thread/threadList";

/** How many deleted ids a list remembers (so that a page read before a deletion cannot bring the thread back). */
const REMEMBERED_DELETIONS = 1000;

/**
 * What a list holds: its rows in the server's order, the cursor of the page after them
 * (`undefined` when the server said there is none, or before the first page), how many pages were
 * read, whether it shows archived threads, and the ids deleted while it was live.
 *
 * @example
 * const rows: ThreadRows = emptyRows(false);
 */
export interface ThreadRows {
  readonly threads: readonly ThreadSummary[];
  readonly next: string | undefined;
  readonly pages: number;
  readonly archived: boolean;
  readonly deleted: ReadonlySet<string>;
}

/**
 * A list before its first page: no rows, showing archived threads or the others.
 *
 * @example
 * emptyRows(false).threads // []
 */
export function emptyRows(archived: boolean): ThreadRows {
  return { threads: [], next: undefined, pages: 0, archived, deleted: new Set() };
}

/**
 * The server's order: most recently updated first, ties by thread id (ascending).
 *
 * @example
 * [b, a].sort(compareThreads)
 */
export function compareThreads(a: ThreadSummary, b: ThreadSummary): number {
  if (a.updatedAt !== b.updatedAt) return b.updatedAt - a.updatedAt;
  return a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0;
}

/**
 * `rows` with a page merged in. A following page (`first: false`) adds its rows and takes its
 * cursor. The first page read again (`first: true`, on every (re)connect of the events stream) is
 * the truth for the part of the list it covers: a held row that sorts within it but is missing
 * from it is gone (deleted or archived meanwhile); rows below it, from later pages, stay, and so
 * does the cursor past them, and so do the rows in `changedSince` (threads an event changed
 * after the page was asked for: the page may predate them). A page that says nothing follows is
 * the whole list. Rows are
 * deduplicated by thread id, the more recently updated copy winning, and a thread deleted while
 * the list was live stays out.
 *
 * @example
 * applyPage(emptyRows(false), { threads: [row] }, true).threads // [row]
 */
export function applyPage(rows: ThreadRows, page: ThreadPage, first: boolean, changedSince: ReadonlySet<string> = new Set()): ThreadRows {
  const incoming = page.threads.filter((thread) => !rows.deleted.has(thread.threadId) && thread.archived === rows.archived);
  if (!first) return { ...rows, threads: merged(rows.threads, incoming), next: page.next, pages: rows.pages + 1 };
  const last = page.threads[page.threads.length - 1];
  const covered = new Set(page.threads.map((thread) => thread.threadId));
  // Held rows the page should have held, but does not: the server no longer lists them here.
  const below = (thread: ThreadSummary) => page.next !== undefined && last !== undefined && compareThreads(thread, last) > 0;
  const kept = rows.threads.filter((thread) => covered.has(thread.threadId) || changedSince.has(thread.threadId) || below(thread));
  const beyond = page.next !== undefined && rows.pages > 1;
  return { ...rows, threads: merged(kept, incoming), next: beyond ? rows.next : page.next, pages: Math.max(rows.pages, 1) };
}

/**
 * `rows` after one change of the list: a changed thread is put in its place (or taken out when it
 * no longer belongs to this list: archived in a list of the others, or the reverse), a deleted one
 * is taken out and remembered.
 *
 * @example
 * applyEvent(rows, { type: "deleted", threadId: "t1" }).threads.some((thread) => thread.threadId === "t1") // false
 */
export function applyEvent(rows: ThreadRows, event: ThreadListEvent): ThreadRows {
  switch (event.type) {
    case "deleted":
      return withoutThread(rows, event.threadId);
    case "created":
    case "updated":
    case "renamed":
    case "archived":
    case "run-started":
    case "run-ended":
    case "path-selected":
      return withThread(rows, event.thread);
    case "queue-enqueued":
    case "queue-started":
    case "queue-taken":
    case "queue-cancelled":
      return rows; // a queue's change leaves the row as it is (a run that starts announces run-started)
    default:
      return unreachable(event);
  }
}

/**
 * `rows` with `thread` as it is now (what an event or a `PATCH` answered): in its place, or out when
 * it does not belong to this list; a thread deleted while the list was live stays out.
 *
 * @example
 * withThread(rows, { ...row, title: "Renamed", updatedAt: row.updatedAt + 1 })
 */
export function withThread(rows: ThreadRows, thread: ThreadSummary): ThreadRows {
  if (rows.deleted.has(thread.threadId)) return rows;
  if (thread.archived !== rows.archived) return { ...rows, threads: rows.threads.filter((held) => held.threadId !== thread.threadId) };
  return { ...rows, threads: merged(rows.threads, [thread]) };
}

/**
 * `rows` without thread `threadId`, which is remembered as deleted (the last
 * `REMEMBERED_DELETIONS` ids), so that no page or event read before the deletion brings it back.
 *
 * @example
 * withoutThread(rows, "t1").deleted.has("t1") // true
 */
export function withoutThread(rows: ThreadRows, threadId: string): ThreadRows {
  const deleted = new Set(rows.deleted);
  deleted.add(threadId);
  if (deleted.size > REMEMBERED_DELETIONS) deleted.delete(deleted.values().next().value ?? threadId);
  return { ...rows, threads: rows.threads.filter((thread) => thread.threadId !== threadId), deleted };
}

/** `held` and `incoming` as one list in the server's order, one row per thread id: the more recently updated copy, or on a tie the incoming one. */
function merged(held: readonly ThreadSummary[], incoming: readonly ThreadSummary[]): readonly ThreadSummary[] {
  const byId = new Map<string, ThreadSummary>();
  for (const thread of held) byId.set(thread.threadId, thread);
  for (const thread of incoming) {
    const current = byId.get(thread.threadId);
    if (current === undefined || thread.updatedAt >= current.updatedAt) byId.set(thread.threadId, thread);
  }
  return [...byId.values()].sort(compareThreads);
}

function unreachable(value: never): never {
  throw new Error(`ThreadRows: unexpected list event ${JSON.stringify(value)}`);
}
