/** What a thread list asks of a server that owns threads (docs/threads.md#the-thread-list): pages of the caller's threads, edits, deletion, and the live changes. */
import type { Observable } from "rxjs";
import type { ThreadListEvent, ThreadPage, ThreadPatch, ThreadSummary } from "../../thread/threadList";

/**
 * Which page of `GET {url}/threads` to read: at most `limit` threads (the server's default
 * without it), after `cursor` (a page's `next`), archived ones or not (`false` by default).
 *
 * @example
 * const query: ThreadQuery = { limit: 20, cursor: page.next };
 */
export interface ThreadQuery {
  readonly limit?: number | undefined;
  readonly cursor?: string | undefined;
  readonly archived?: boolean | undefined;
}

/**
 * The events stream was (re)connected: the server sends the changes from now on, so a list that
 * may have missed some reads its first page again (docs/client.md#thread-list). `attempt` is 0
 * for the first connection, then counts the reconnects.
 *
 * @example
 * if (item.type === "opened") refetchFirstPage();
 */
export interface ThreadStreamOpened {
  readonly type: "opened";
  readonly attempt: number;
}

/**
 * One item of `ThreadsTransport.threadEvents()`: a change of the list, or a (re)connection.
 *
 * @example
 * const item: ThreadStreamItem = { type: "deleted", threadId: "t1" };
 */
export type ThreadStreamItem = ThreadListEvent | ThreadStreamOpened;

/**
 * The thread-list routes of a server that owns threads, for the signed-in principal
 * (`HttpThreadsTransport` speaks them over HTTP). Promises reject, and the events stream errors,
 * with a `ClientError` that names the status and the server's code and sentence.
 *
 * @example
 * const first = await threads.listThreads({ limit: 20 });
 */
export interface ThreadsTransport {
  /** One page of the caller's threads, most recently updated first. */
  listThreads(query?: ThreadQuery): Promise<ThreadPage>;
  /** Renames and/or (un)archives a thread; resolves the row as it is now. */
  updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadSummary>;
  /** Deletes a thread (stopping a live run of it): `true`, or `false` when the server does not know it (already deleted). */
  deleteThread(threadId: string): Promise<boolean>;
  /** The live changes of the caller's list, each (re)connection announced by `opened`; cold, reconnects until unsubscribed. */
  threadEvents(): Observable<ThreadStreamItem>;
}
