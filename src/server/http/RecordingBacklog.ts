/** How far a stored run's producer may run ahead of its store (docs/durability.md#stores-and-routes; docs/durability.md §8, "Failure behaviour"). */
import { tap, type MonoTypeOperatorFunction } from "rxjs";
import type { Event } from "../../protocol/events";
import { StoreError } from "../store/StoreError";
import type { StoredEvent } from "../store/ThreadStore";
import type { Ready } from "./toEventStream";

/**
 * The bounds of a run's events taken from its producer but not yet logged (they wait in
 * `recordRun`'s queue while an append is pending, or is sent again while Redis restarts): at
 * `paceAt` the producer's `ready()` waits until the store catches up; past `failAt` (a producer
 * that does not await `ready`) the run fails instead of growing. An event of a model stream holds
 * 0.1–0.3 kB, so a paced run buffers under 1.5 MB and no run more than 15 MB. Far above the
 * batches of a healthy store (a saturated producer's reach ~2,000 events), so only a store that
 * stopped answering engages them.
 *
 * @example
 * const backlog = new RecordingBacklog(run, RECORDING_BACKLOG);
 */
export const RECORDING_BACKLOG = { paceAt: 5_000, failAt: 50_000 } as const;

/**
 * Counts one run's events on their way into `recordRun` (`taken`) and out of it, logged
 * (`logged`), and paces the producer by the difference (`pace`). Made per run.
 *
 * @example
 * const backlog = new RecordingBacklog({ threadId, runId });
 * const ready = backlog.pace(runPace.ready);
 * events.pipe(backlog.taken(), recordRun(writer), backlog.logged()).subscribe();
 */
export class RecordingBacklog {
  private unlogged = 0;
  private waiting: (() => void)[] = [];

  constructor(
    private readonly run: { readonly threadId: string; readonly runId: string },
    private readonly limits: { readonly paceAt: number; readonly failAt: number } = RECORDING_BACKLOG,
  ) {}

  /** `ready`, which first waits while `paceAt` or more events wait for the store. */
  pace(ready: Ready): Ready {
    return () => (this.unlogged < this.limits.paceAt ? ready() : new Promise<void>((resolve) => this.waiting.push(resolve)).then(ready));
  }

  /** Counts each event the producer hands on; errors (failing the run: `recordRun` logs it as its RUN_ERROR) past `failAt`. */
  taken(): MonoTypeOperatorFunction<Event> {
    return tap(() => {
      if (++this.unlogged <= this.limits.failAt) return;
      const { threadId, runId } = this.run;
      throw new StoreError(
        "capacity",
        `expected at most ${this.limits.failAt} events of run "${runId}" waiting for the store (a producer awaits ready() while ${this.limits.paceAt} do), but the producer went on without waiting`,
        { threadId, runId },
      );
    });
  }

  /** Counts each event `recordRun` emits (logged); wakes the producer once fewer than `paceAt` wait, or the recording ended. */
  logged(): MonoTypeOperatorFunction<StoredEvent> {
    return tap({
      next: () => {
        // recordRun emits a RUN_STARTED the producer did not send (the logged one), so never below 0.
        this.unlogged = Math.max(0, this.unlogged - 1);
        if (this.unlogged < this.limits.paceAt) this.wake();
      },
      finalize: () => this.wake(), // the producer is let go of: nothing of it may stay waiting
    });
  }

  private wake(): void {
    if (this.waiting.length > 0) for (const wake of this.waiting.splice(0)) wake();
  }
}
