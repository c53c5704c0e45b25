/** A thread list as React state (docs/client.md#thread-list): the rows, live while a component shows them, and the calls that change them. */
import { useMemo, useSyncExternalStore } from "react";
import type { ThreadList, ThreadListSnapshot } from "../client/threads/threadList";

/**
 * What `useThreads` returns: the list's snapshot (rows, `hasMore`, `loading`, `error`) and its calls.
 *
 * @example
 * const { threads, hasMore, loadMore }: ThreadsHandle = useThreads(list);
 */
export interface ThreadsHandle extends ThreadListSnapshot {
  readonly loadMore: ThreadList["loadMore"];
  readonly rename: ThreadList["rename"];
  readonly archive: ThreadList["archive"];
  readonly remove: ThreadList["remove"];
  readonly open: ThreadList["open"];
}

/**
 * The caller's threads, live: while a component uses it the list's events stream is open (one
 * for every component on the same list), the first page read on each (re)connect, and the
 * component re-renders when a row changes. The list is made outside (a module, a context, or
 * `useState(() => threadList(transport))`), so that it outlives re-renders.
 *
 * @example
 * const { threads, remove } = useThreads(list);
 * return threads.map((thread) => <li key={thread.threadId}>{thread.title} <button onClick={() => remove(thread.threadId)}>Delete</button></li>);
 */
export function useThreads(list: ThreadList): ThreadsHandle {
  const snapshot = useSyncExternalStore(list.subscribe, list.getSnapshot, list.getSnapshot);
  return useMemo(
    () => ({
      ...snapshot,
      loadMore: () => list.loadMore(),
      rename: (threadId: string, title: string) => list.rename(threadId, title),
      archive: (threadId: string, archived?: boolean) => list.archive(threadId, archived),
      remove: (threadId: string) => list.remove(threadId),
      open: list.open.bind(list),
    }),
    [snapshot, list],
  );
}
