/**
 * `queueChanges` on Redis (docs/queue.md#redis-keys): each thread's queue changes and run ends as
 * the scripts announce them on the signal channel (from every instance), and this instance's own
 * as soon as its script answered (its own announcement then arrives again through the channel and
 * is dropped: each change happens once per entry, or per run for `ended`).
 */
import { Observable } from "rxjs";
import type { QueueChange } from "../server/store/ThreadStore";
import type { RunSignals } from "./RunSignals";

/** Changes a watcher remembers to drop their second arrival: far more than can be in flight at once. */
const REMEMBERED = 256;

/**
 * One store instance's queue change feeds, by thread reference (`threadRef`).
 *
 * @example
 * const feed = new QueueFeed(signals);
 * feed.changes('["ann","t1"]').subscribe(console.log);
 * feed.local('["ann","t1"]', { kind: "enqueued", id: "r3" });
 */
export class QueueFeed {
  private readonly here = new Map<string, Set<(change: QueueChange) => void>>();

  constructor(private readonly signals: RunSignals) {}

  /** The changes of the thread `ref` from subscription on (hot: nothing is replayed), each once. */
  changes(ref: string): Observable<QueueChange> {
    return new Observable<QueueChange>((subscriber) => {
      const seen = new Set<string>();
      const deliver = (change: QueueChange): void => {
        const key = `${change.kind} ${change.id}`;
        if (seen.has(key)) return;
        seen.add(key);
        if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
        subscriber.next(change);
      };
      const listeners = this.here.get(ref) ?? new Set<(change: QueueChange) => void>();
      listeners.add(deliver);
      this.here.set(ref, listeners);
      const unwatch = this.signals.watchThread(ref, deliver);
      // Other instances' changes need the subscription; this instance's arrive without it.
      this.signals.ready().catch((error: unknown) => subscriber.error(error));
      return () => {
        unwatch();
        listeners.delete(deliver);
        if (listeners.size === 0 && this.here.get(ref) === listeners) this.here.delete(ref);
      };
    });
  }

  /** A change this instance's script just made to the thread `ref`: its watchers here hear it now. */
  local(ref: string, change: QueueChange): void {
    const listeners = this.here.get(ref);
    if (listeners !== undefined) for (const listener of [...listeners]) listener(change);
  }
}
