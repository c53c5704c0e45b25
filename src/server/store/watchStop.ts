/** `RunWriter.stopRequested` for any store that watches its live run in process (docs/durability.md#1-the-store-contract-threadstore): the memory store's and the Redis store's run writers. */
import { Observable } from "rxjs";

/** Called with `true` on a stop request, `false` when the run ends. */
export type StopWatcher = (stopped: boolean) => void;

/**
 * Emits once on a stop request (also one made before subscribing) and completes; completes
 * without emitting when the run ended first. `watchers` are called by the store when either
 * happens; a subscriber's watcher is removed when it unsubscribes.
 *
 * @example
 * this.stopRequested = watchStop(() => this.stopped, () => this.live, this.watchers);
 */
export function watchStop(stopped: () => boolean, live: () => boolean, watchers: Set<StopWatcher>): Observable<void> {
  return new Observable<void>((subscriber) => {
    if (stopped()) {
      subscriber.next();
      subscriber.complete();
      return undefined;
    }
    if (!live()) {
      subscriber.complete();
      return undefined;
    }
    const watcher: StopWatcher = (stop) => {
      if (stop) subscriber.next();
      subscriber.complete();
    };
    watchers.add(watcher);
    return () => watchers.delete(watcher);
  });
}
