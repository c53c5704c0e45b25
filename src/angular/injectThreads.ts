/** A thread list as Angular signals (docs/client.md#thread-list): the rows, live while the caller lives, and the calls that change them. */
import { assertInInjectionContext, computed, DestroyRef, inject, signal, type Signal } from "@angular/core";
import type { ClientError, ThreadList, ThreadSummary } from "../client";

/**
 * One component's view of a thread list: read-only signals and the list's calls.
 *
 * @example
 * const threads: Threads = injectThreads(list);
 * threads.threads(); // the rows, most recently updated first
 */
export interface Threads {
  /** The list itself, for what the signals do not cover (`threads$`, `open` with typed state …). */
  readonly list: ThreadList;
  readonly threads: Signal<readonly ThreadSummary[]>;
  readonly hasMore: Signal<boolean>;
  readonly loading: Signal<boolean>;
  readonly error: Signal<ClientError | undefined>;
  loadMore(): Promise<void>;
  rename(threadId: string, title: string): Promise<ThreadSummary>;
  archive(threadId: string, archived?: boolean): Promise<ThreadSummary>;
  remove(threadId: string): Promise<boolean>;
}

/**
 * The {@link Threads} view of `list`, for a component, directive or service: call it in an
 * injection context. The list is live (its events stream open, shared by every view of it) until
 * the caller is destroyed (`DestroyRef`).
 *
 * @example
 * export class SidebarComponent {
 *   protected readonly threads = injectThreads(inject(THREAD_LIST));
 * }
 */
export function injectThreads(list: ThreadList): Threads {
  assertInInjectionContext(injectThreads);
  const snapshot = signal(list.getSnapshot());
  const unsubscribe = list.subscribe(() => snapshot.set(list.getSnapshot()));
  inject(DestroyRef).onDestroy(unsubscribe);
  return {
    list,
    threads: computed(() => snapshot().threads),
    hasMore: computed(() => snapshot().hasMore),
    loading: computed(() => snapshot().loading),
    error: computed(() => snapshot().error),
    loadMore: () => list.loadMore(),
    rename: (threadId, title) => list.rename(threadId, title),
    archive: (threadId, archived) => list.archive(threadId, archived),
    remove: (threadId) => list.remove(threadId),
  };
}
