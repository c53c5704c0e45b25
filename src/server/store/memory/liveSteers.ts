/** `RunWriter.steers` for a memory store's live run (docs/queue.md#steer): the steers waiting for it, then each new one, until it ends. */
import { Observable } from "rxjs";
import type { QueuedRun } from "../QueuedRun";
import type { StopWatcher } from "../watchStop";
import type { LiveRun } from "./LiveRun";

/**
 * What the steers of one live run are read from: the steers waiting for it now (in queue order),
 * whether one still waits (a steer taken or cancelled meanwhile is not offered), and whether the
 * run is still live.
 */
export interface SteerSource {
  readonly waiting: () => readonly QueuedRun[];
  readonly stillWaits: (id: string) => boolean;
  readonly isLive: () => boolean;
}

/**
 * Cold: each subscription offers the steers already waiting for `live` first, then each stored
 * later (the store calls `live.steerWatchers`), each once and only while it still waits, and
 * completes when the run ends (its `watchers` hear `false`). A subscriber that enqueues or takes
 * steers while it is offered one still sees every offer in order: offers queue behind the one
 * being delivered.
 *
 * @example
 * const steers = liveSteers(live, {
 *   waiting: () => thread.queue.entries().filter((entry) => entry.policy === "steer" && entry.target === live.runId),
 *   stillWaits: (id) => thread.queue.find(id) !== undefined,
 *   isLive: () => thread.live === live,
 * });
 */
export function liveSteers(live: LiveRun, source: SteerSource): Observable<QueuedRun> {
  return new Observable<QueuedRun>((subscriber) => {
    if (!source.isLive()) {
      subscriber.complete();
      return undefined;
    }
    const pending: QueuedRun[] = [...source.waiting()];
    let delivering = false;
    const deliver = (): void => {
      if (delivering) return; // the outer delivery reaches it
      delivering = true;
      try {
        for (let next = pending.shift(); next !== undefined && !subscriber.closed; next = pending.shift()) {
          if (!source.stillWaits(next.id)) continue;
          subscriber.next(next);
        }
      } finally {
        delivering = false;
      }
    };
    const onSteer = (entry: QueuedRun): void => {
      pending.push(entry);
      deliver();
    };
    const onEnd: StopWatcher = (stopped) => {
      if (!stopped) subscriber.complete(); // a stop request is not an end: steers may still come until the run's terminal
    };
    live.steerWatchers.add(onSteer);
    live.watchers.add(onEnd);
    deliver();
    if (!source.isLive()) subscriber.complete(); // ended while the first steers were offered
    return () => {
      live.steerWatchers.delete(onSteer);
      live.watchers.delete(onEnd);
    };
  });
}
