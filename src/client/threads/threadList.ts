/** A principal's thread list, live (docs/client.md#thread-list): the first page, then the server's changes, with paging, edits, deletion and opening a thread as a Session. */
import { defer, distinctUntilChanged, EMPTY, from, ignoreElements, map, mergeMap, Observable, share, startWith, Subject, tap, finalize } from "rxjs";
import { threadIdOfChange, type ThreadListEvent, type ThreadPage, type ThreadSummary } from "../../thread/threadList";
import { ClientError } from "../../thread/ClientError";
import { Session, type SessionOptions } from "../Session";
import type { Transport } from "../transports/Transport";
import { RunController } from "../view/RunController";
import { applyEvent, applyPage, emptyRows, withoutThread, withThread, type ThreadRows } from "./ThreadRows";
import type { ThreadsTransport } from "./ThreadsTransport";

/** The page size when none is given. */
const DEFAULT_PAGE = 20;

/**
 * Options of `threadList`: how many threads a page reads, and whether the list shows the
 * archived threads (`true`) or the others (`false`, the default).
 *
 * @example
 * const options: ThreadListOptions = { limit: 30 };
 */
export interface ThreadListOptions {
  readonly limit?: number | undefined;
  readonly archived?: boolean | undefined;
}

/**
 * What a view of the list reads: the rows in the server's order, whether `loadMore` has more to
 * read, whether a page is being read, and the last failure (of the live stream or of a page), if any.
 *
 * @example
 * const { threads, hasMore, loading, error }: ThreadListSnapshot = list.getSnapshot();
 */
export interface ThreadListSnapshot {
  readonly threads: readonly ThreadSummary[];
  readonly hasMore: boolean;
  readonly loading: boolean;
  readonly error: ClientError | undefined;
}

/**
 * How `ThreadList.open` makes a thread's Session: the Session's options but the thread id, and
 * whether to join it on the server at once (`join`, default `true`; `false` for a new chat).
 *
 * @example
 * const options: OpenThreadOptions<unknown> = { historyLimit: 50, join: true };
 */
export interface OpenThreadOptions<S> extends Omit<SessionOptions<S>, "threadId"> {
  readonly join?: boolean | undefined;
}

/**
 * The caller's threads, live, over a transport that speaks the thread list and runs
 * (`HttpThreadsTransport`). Subscribing to `snapshot$` or `threads$` (or `subscribe`) goes live:
 * the events stream opens (one for every view of this list, closed with the last), and on every
 * (re)connect of it the first page is read again and merged, so changes missed while it was down
 * are not lost (docs/client.md#thread-list); events in between are applied as they come.
 * Rows are deduplicated by thread id and kept in the server's order (most recently updated first,
 * ties by thread id). Edits apply the server's answer at once, before its event comes back.
 *
 * @example
 * const list = threadList(new HttpThreadsTransport("/agent"));
 * list.threads$.subscribe((threads) => render(threads));
 * await list.rename("t1", "Lisbon, final plan");
 */
export class ThreadList {
  private rows: ThreadRows;
  private loading = 0;
  private error: ClientError | undefined;
  private cached: ThreadListSnapshot | undefined;
  private readonly changes = new Subject<void>();
  /** For each first page being read: the threads events changed meanwhile (the page may predate them). */
  private readonly pendingFirst = new Set<Set<string>>();
  private more: Promise<void> | undefined;

  constructor(
    private readonly transport: ThreadsTransport & Transport,
    private readonly options: ThreadListOptions = {},
  ) {
    this.rows = emptyRows(options.archived ?? false);
  }

  /** The events stream with the first page read on each (re)connect; shared by every view. */
  private readonly live: Observable<never> = defer(() => this.transport.threadEvents()).pipe(
    mergeMap((item) => (item.type === "opened" ? this.readPage(true) : this.hear(item))),
    share(),
  );

  /** The list as views read it; replays the current value, and goes live while subscribed. A failure is in `error`, never the Observable's. */
  readonly snapshot$: Observable<ThreadListSnapshot> = new Observable<ThreadListSnapshot>((subscriber) => {
    subscriber.add(
      this.changes
        .pipe(
          startWith(undefined),
          map(() => this.getSnapshot()),
          distinctUntilChanged(),
        )
        .subscribe(subscriber),
    );
    subscriber.add(this.live.subscribe({ error: (error: unknown) => this.fail(error) }));
  });

  /** The rows, live; replays the current value. */
  readonly threads$: Observable<readonly ThreadSummary[]> = this.snapshot$.pipe(
    map((snapshot) => snapshot.threads),
    distinctUntilChanged(),
  );

  /** Everything a view reads; the same object until something changes (`useSyncExternalStore`'s `getSnapshot`). */
  readonly getSnapshot = (): ThreadListSnapshot =>
    (this.cached ??= Object.freeze({
      threads: this.rows.threads,
      hasMore: this.rows.pages === 0 || this.rows.next !== undefined,
      loading: this.loading > 0,
      error: this.error,
    }));

  /** Calls `listener` after every change, live while subscribed; returns the unsubscribe function (`useSyncExternalStore`'s `subscribe`). */
  readonly subscribe = (listener: () => void): (() => void) => {
    const subscription = this.snapshot$.subscribe(() => listener());
    return () => subscription.unsubscribe();
  };

  /**
   * Reads the page after the rows held (the first page when none was read yet) and merges it;
   * resolves at once when the server said there is none. Calls while one is being read share it.
   * A failure rejects with the `ClientError` and is also the snapshot's `error`.
   *
   * @example
   * if (list.getSnapshot().hasMore) await list.loadMore();
   */
  loadMore(): Promise<void> {
    if (this.rows.pages > 0 && this.rows.next === undefined) return Promise.resolve();
    return (this.more ??= new Promise<void>((resolve, reject) => {
      this.readPage(this.rows.pages === 0).subscribe({ error: reject, complete: resolve });
    }).finally(() => (this.more = undefined)));
  }

  /**
   * Renames a thread; the list shows the server's row at once.
   *
   * @example
   * await list.rename("t1", "Lisbon, final plan");
   */
  async rename(threadId: string, title: string): Promise<ThreadSummary> {
    return this.edited(await this.transport.updateThread(threadId, { title }));
  }

  /**
   * Archives a thread (`archived` false: brings it back); it leaves a list of the others and joins one of the archived.
   *
   * @example
   * await list.archive("t1");
   */
  async archive(threadId: string, archived = true): Promise<ThreadSummary> {
    return this.edited(await this.transport.updateThread(threadId, { archived }));
  }

  /**
   * Deletes a thread on the server (a live run of it is stopped) and takes it out of the list:
   * `true`, or `false` when the server did not know it (another tab deleted it first).
   *
   * @example
   * await list.remove("t1");
   */
  async remove(threadId: string): Promise<boolean> {
    const deleted = await this.transport.deleteThread(threadId);
    this.set(withoutThread(this.rows, threadId));
    return deleted;
  }

  /**
   * A Session on thread `threadId` over this list's transport, joined on the server unless `join`
   * is `false` (a new chat): its last `historyLimit` messages (all without it), then a run in
   * progress, live. The join runs on the session's `RunController`, as `useRun`'s `connect` does,
   * so the views see it and `RunController.of(session).detach()` (or `useSession`'s unmount) lets it go.
   *
   * @example
   * const session = list.open("t1", { historyLimit: 50 });
   */
  open<S = unknown>(threadId: string, options: OpenThreadOptions<S> = {}): Session<S> {
    const { join = true, ...sessionOptions } = options;
    const session = new Session<S>(this.transport, { ...sessionOptions, threadId });
    if (join) RunController.of(session).connect();
    return session;
  }

  /** Reads one page (the first again, or the next) and merges it; completes empty. */
  private readPage(first: boolean): Observable<never> {
    return defer(() => {
      const since = new Set<string>();
      if (first) this.pendingFirst.add(since);
      this.loading++;
      this.touch();
      const query = { limit: this.options.limit ?? DEFAULT_PAGE, archived: this.rows.archived, ...(first ? {} : { cursor: this.rows.next }) };
      return from(this.transport.listThreads(query)).pipe(
        tap({
          next: (page: ThreadPage) => this.set(applyPage(this.rows, page, first, since), undefined),
          error: (error: unknown) => this.fail(error),
        }),
        finalize(() => {
          this.pendingFirst.delete(since);
          this.loading--;
          this.touch();
        }),
        ignoreElements(),
      );
    });
  }

  /** Applies one change the server announced. */
  private hear(event: ThreadListEvent): Observable<never> {
    const threadId = threadIdOfChange(event);
    for (const since of this.pendingFirst) since.add(threadId);
    this.set(applyEvent(this.rows, event));
    return EMPTY;
  }

  private edited(thread: ThreadSummary): ThreadSummary {
    this.set(withThread(this.rows, thread));
    return thread;
  }

  private fail(error: unknown): void {
    this.error = ClientError.from(error);
    this.touch();
  }

  private set(rows: ThreadRows, error: ClientError | undefined = this.error): void {
    this.rows = rows;
    this.error = error;
    this.touch();
  }

  private touch(): void {
    this.cached = undefined;
    this.changes.next();
  }
}

/**
 * The caller's thread list over `transport` (see `ThreadList`).
 *
 * @example
 * const list = threadList(new HttpThreadsTransport("/agent"), { limit: 30 });
 */
export function threadList(transport: ThreadsTransport & Transport, options: ThreadListOptions = {}): ThreadList {
  return new ThreadList(transport, options);
}
