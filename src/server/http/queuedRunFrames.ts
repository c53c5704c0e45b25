/** The frames of a waiting message's own run, read from the thread's log once it started (docs/queue.md#on-the-wire: `started`, then the run's frames). */
import { Observable, type Subscription } from "rxjs";
import { isTerminal } from "../../thread/isTerminal";
import type { Cursor, StoreScope, ThreadStore } from "../store/ThreadStore";
import type { CursorFrame } from "./EventStreamOptions";

/**
 * The events of run `runId` as logged, from its RUN_STARTED through its terminal, each with its
 * cursor (the SSE `id:`, so that a client cut after this resumes as for any run), read by
 * following the thread from `after` (a cursor logged before that RUN_STARTED). `store.tail`
 * completes at each run's terminal, so the thread is followed again from the last cursor until
 * the run's own terminal; the events of earlier runs are passed by. Completes after that
 * terminal; errors as `tail` does (`evicted`: the cursor left the log). Unsubscribing stops
 * following.
 *
 * @example
 * runFramesAfter(store, "t1", "r3", cursorWhenTheWaitBegan, { owner }).subscribe(send);
 */
export function runFramesAfter(store: ThreadStore, threadId: string, runId: string, after: Cursor, scope: StoreScope): Observable<CursorFrame> {
  return new Observable<CursorFrame>((subscriber) => {
    let from = after;
    let found = false;
    let following: Subscription | undefined;
    let endedInside = false; // a tail that completes during its own subscribe: followed again by the loop, not by recursion
    const follow = (): void => {
      do {
        endedInside = false;
        let subscribing = true;
        following = store.tail(threadId, from, scope).subscribe({
          next: (stored) => {
            from = stored.cursor;
            if (!found && stored.event.type === "RUN_STARTED" && stored.event.runId === runId) found = true;
            if (!found) return;
            subscriber.next({ event: stored.event, cursor: stored.cursor });
            if (isTerminal(stored.event)) subscriber.complete();
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            if (subscriber.closed) return;
            if (subscribing) endedInside = true;
            else follow();
          },
        });
        subscribing = false;
      } while (endedInside && !subscriber.closed);
    };
    follow();
    return () => following?.unsubscribe();
  });
}
