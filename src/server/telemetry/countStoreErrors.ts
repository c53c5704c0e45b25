/** A handler's store seen through its metrics: each failed operation counted by its `StoreError` code (docs/observability.md#metrics). */
import { Observable } from "rxjs";
import type { QueuedRun } from "../store/QueuedRun";
import type { RunAgentInput } from "../../protocol/input";
import type { Event } from "../../protocol/events";
import type {
  BeginOptions,
  CancelQueuedAnswer,
  Cursor,
  EnqueueAnswer,
  EnqueueOptions,
  HistoryQuery,
  ListQuery,
  QueueChange,
  QueueEntryState,
  ReadOptions,
  RunWriter,
  SelectAnswer,
  StopAnswer,
  StoredEvent,
  StoreScope,
  ThreadRead,
  ThreadStore,
} from "../store/ThreadStore";
import type { HistoryPage, ThreadListEvent, ThreadPage, ThreadPatch, ThreadSummary } from "../../thread/threadList";
import type { ServerMetrics } from "./ServerMetrics";

/**
 * `store` with every failure counted in `metrics` (`agui_rx.server.store.errors`), else unchanged:
 * the same answers, the same rejections (a promise is handed on as the store made it), the same
 * observables when no meter is registered (a stream is watched for its error only when one is, so
 * the per-event path of a tail pays nothing without an SDK).
 *
 * @example
 * const store = countStoreErrors(options.store, metrics);
 */
export function countStoreErrors(store: ThreadStore, metrics: ServerMetrics): ThreadStore {
  return new ErrorCountingStore(store, metrics);
}

/** Counts a rejection of `promise` (on a side branch, when metrics are recorded now) and returns `promise` itself. */
function counted<T>(promise: Promise<T>, metrics: ServerMetrics): Promise<T> {
  if (metrics.recording()) promise.catch((error: unknown) => metrics.storeError(error));
  return promise;
}

/** `source`, its error counted, when metrics are recorded now; else `source` itself. */
function watched<T>(source: Observable<T>, metrics: ServerMetrics): Observable<T> {
  if (!metrics.recording()) return source;
  return new Observable<T>((subscriber) =>
    source.subscribe({
      next: (value) => subscriber.next(value),
      error: (error: unknown) => {
        metrics.storeError(error);
        subscriber.error(error);
      },
      complete: () => subscriber.complete(),
    }),
  );
}

class ErrorCountingStore implements ThreadStore {
  constructor(
    private readonly store: ThreadStore,
    private readonly metrics: ServerMetrics,
  ) {}

  beginRun(input: RunAgentInput, options?: BeginOptions): Promise<RunWriter> {
    const begun = this.store.beginRun(input, options);
    if (!this.metrics.recording()) return begun;
    return counted(begun, this.metrics).then((writer) => new ErrorCountingWriter(writer, this.metrics));
  }
  read(threadId: string, after?: Cursor, options?: ReadOptions): Promise<ThreadRead | undefined> {
    return counted(this.store.read(threadId, after, options), this.metrics);
  }
  tail(threadId: string, after: Cursor, scope?: StoreScope): Observable<StoredEvent> {
    return watched(this.store.tail(threadId, after, scope), this.metrics);
  }
  stop(threadId: string, runId: string, scope?: StoreScope): Promise<StopAnswer> {
    return counted(this.store.stop(threadId, runId, scope), this.metrics);
  }
  list(scope: StoreScope, query: ListQuery): Promise<ThreadPage> {
    return counted(this.store.list(scope, query), this.metrics);
  }
  update(threadId: string, patch: ThreadPatch, scope?: StoreScope): Promise<ThreadSummary | undefined> {
    return counted(this.store.update(threadId, patch, scope), this.metrics);
  }
  remove(threadId: string, scope?: StoreScope): Promise<boolean> {
    return counted(this.store.remove(threadId, scope), this.metrics);
  }
  selectBranch(threadId: string, messageId: string, index: number, scope?: StoreScope): Promise<SelectAnswer> {
    return counted(this.store.selectBranch(threadId, messageId, index, scope), this.metrics);
  }
  history(threadId: string, query: HistoryQuery, scope?: StoreScope): Promise<HistoryPage | undefined> {
    return counted(this.store.history(threadId, query, scope), this.metrics);
  }
  listEvents(scope: StoreScope): Observable<ThreadListEvent> {
    return watched(this.store.listEvents(scope), this.metrics);
  }
  enqueue(entry: QueuedRun, options: EnqueueOptions): Promise<EnqueueAnswer> {
    return counted(this.store.enqueue(entry, options), this.metrics);
  }
  cancelQueued(threadId: string, id: string, reason: string, scope?: StoreScope): Promise<CancelQueuedAnswer> {
    return counted(this.store.cancelQueued(threadId, id, reason, scope), this.metrics);
  }
  queueEntry(threadId: string, id: string, scope?: StoreScope): Promise<QueueEntryState> {
    return counted(this.store.queueEntry(threadId, id, scope), this.metrics);
  }
  queueChanges(threadId: string, scope?: StoreScope): Observable<QueueChange> {
    return watched(this.store.queueChanges(threadId, scope), this.metrics);
  }
}

/** A run's writer whose failed appends, renewals and titles are counted (once per batch, never per event). */
class ErrorCountingWriter implements RunWriter {
  constructor(
    private readonly writer: RunWriter,
    private readonly metrics: ServerMetrics,
  ) {}

  get threadId(): string {
    return this.writer.threadId;
  }
  get runId(): string {
    return this.writer.runId;
  }
  get started(): StoredEvent {
    return this.writer.started;
  }
  get stopRequested(): Observable<void> {
    return this.writer.stopRequested;
  }
  get steers(): Observable<QueuedRun> {
    return this.writer.steers;
  }
  append(events: readonly Event[]): Promise<readonly Cursor[]> {
    return counted(this.writer.append(events), this.metrics);
  }
  renewLease(): Promise<boolean> {
    return counted(this.writer.renewLease(), this.metrics);
  }
  setTitle(title: string): Promise<void> {
    return counted(this.writer.setTitle(title), this.metrics);
  }
}
