/**
 * `queueChanges` on Redis (docs/queue.md#redis-keys): each thread's queue changes and run ends as
 * the scripts announce them on the signal channel (from every instance), and this instance's own
 * as soon as its script answered. Its own announcement then arrives again through the channel,
 * later: that copy is dropped, so that a watcher that subscribed after the change (after the call
 * that made it resolved) does not hear it — the feed is hot, and each change happens once (per
 * entry, or per run for `ended`).
 */
import { Observable } from "rxjs";
import type { QueueChange } from "../server/store/ThreadStore";
import type { RunSignals } from "./RunSignals";

/**
 * Changes announced here whose channel copy has not arrived yet, at most: far more than can be in
 * flight at once; a copy that never arrives (the subscription was down) is forgotten past it.
 */
const IN_FLIGHT = 1024;

/** One thread's watchers here and its subscription to the channel's signals. */
interface Watched {
  readonly listeners: Set<(change: QueueChange) => void>;
  readonly unwatch: () => void;
}

/**
 * One store instance's queue change feeds, by thread reference (`threadRef`).
 *
 * @example
 * const feed = new QueueFeed(signals);
 * feed.changes('["ann","t1"]').subscribe(console.log);
 * feed.local('["ann","t1"]', { kind: "enqueued", id: "r3" });
 */
export class QueueFeed {
  private readonly watched = new Map<string, Watched>();
  /** `ref kind id` of the changes `local` delivered, until their channel copy arrives (insertion order: oldest first). */
  private readonly inFlight = new Set<string>();

  constructor(private readonly signals: RunSignals) {}

  /** The changes of the thread `ref` from subscription on (hot: nothing is replayed), each once. */
  changes(ref: string): Observable<QueueChange> {
    return new Observable<QueueChange>((subscriber) => {
      // a change whose channel copy came first and whose local delivery follows: heard once
      const heard = new Set<string>();
      const deliver = (change: QueueChange): void => {
        const key = `${change.kind} ${change.id}`;
        if (heard.has(key)) return;
        heard.add(key);
        if (heard.size > IN_FLIGHT) heard.delete(heard.values().next().value as string);
        subscriber.next(change);
      };
      const watched = this.watch(ref);
      watched.listeners.add(deliver);
      // Other instances' changes need the subscription; this instance's arrive without it.
      this.signals.ready().catch((error: unknown) => subscriber.error(error));
      return () => {
        watched.listeners.delete(deliver);
        if (watched.listeners.size === 0 && this.watched.get(ref) === watched) {
          watched.unwatch();
          this.watched.delete(ref);
        }
      };
    });
  }

  /**
   * Resolves once the signal channel is subscribed: from then on every instance's changes reach
   * this instance's watchers. Rejects as `RunSignals.ready` does (the store closed, Redis down).
   */
  ready(): Promise<void> {
    return this.signals.ready();
  }

  /** A change this instance's script just made to the thread `ref`: its watchers here hear it now. */
  local(ref: string, change: QueueChange): void {
    const key = JSON.stringify([ref, change.kind, change.id]);
    this.inFlight.add(key);
    if (this.inFlight.size > IN_FLIGHT) this.inFlight.delete(this.inFlight.values().next().value as string);
    this.deliver(ref, change);
  }

  private watch(ref: string): Watched {
    const known = this.watched.get(ref);
    if (known !== undefined) return known;
    const watched: Watched = {
      listeners: new Set(),
      unwatch: this.signals.watchThread(ref, (change) => {
        const key = JSON.stringify([ref, change.kind, change.id]);
        if (this.inFlight.delete(key)) return; // delivered here already, when its script answered
        this.deliver(ref, change);
      }),
    };
    this.watched.set(ref, watched);
    return watched;
  }

  private deliver(ref: string, change: QueueChange): void {
    const watched = this.watched.get(ref);
    if (watched !== undefined) for (const listener of [...watched.listeners]) listener(change);
  }
}
