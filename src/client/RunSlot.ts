/**
 * A session's one run at a time (docs/seeds.md#seed-001: one `send` is one run, docs/client.md#session-and-updates): which exchange or
 * joined run is active, its run id once known (for `stop()`), and its end at its `done` or at
 * unsubscription, whichever comes first.
 */
import { Observable, Subject } from "rxjs";
import { operate, SourceObserver } from "../rx/operate";
import type { ExchangeTrace } from "./SessionTelemetry";

/**
 * The token of one active exchange or joined run, and the id of the run in flight once known (a
 * joined run's comes with its RUN_STARTED). A token, so that a finished run's teardown cannot end
 * the next run.
 *
 * @example
 * const run = slot.begin();
 * run.runId = input.runId;
 * run.heard = true; // its first event arrived
 */
export interface ActiveRun {
  runId: string | undefined;
  /** An event of the exchange has arrived: the server has recorded its input (a refused send is judged by it, `withdrawRefusedSend`). */
  heard: boolean;
  /** The exchange's trace, when the session has telemetry that records (docs/observability.md#client). */
  trace?: ExchangeTrace | undefined;
}

/**
 * Holds the active run's token; `changed` hears of every begin and end (the session's `running`
 * view).
 *
 * @example
 * const slot = new RunSlot(() => views.notify("running"));
 * const run = slot.begin();
 * return slot.observe(updates, run); // the slot is free again at the `done` or on unsubscribe
 */
export class RunSlot {
  #active: ActiveRun | undefined;
  readonly #freed = new Subject<void>();

  constructor(private readonly changed: () => void) {}

  /** Whether a run is active. */
  get running(): boolean {
    return this.#active !== undefined;
  }

  /** The id of the active run in flight, or `undefined` when idle or not known yet. */
  get runId(): string | undefined {
    return this.#active?.runId;
  }

  /**
   * Emits once the slot is free (at once when it is), then completes: a queued message's run that
   * started waits for the session's run before it (docs/queue.md#in-the-client). The taker calls
   * `begin()` right there, before anyone else hears the slot is free.
   */
  whenFree(): Observable<void> {
    return new Observable<void>((subscriber) => {
      const emit = (): void => {
        subscriber.next();
        subscriber.complete();
      };
      if (this.#active === undefined) return emit();
      const waiting = this.#freed.subscribe(() => {
        if (this.#active === undefined && !subscriber.closed) {
          waiting.unsubscribe();
          emit();
        }
      });
      return waiting;
    });
  }

  /** Takes the slot for a new run and returns its token (the caller has checked that none is active). */
  begin(): ActiveRun {
    const run: ActiveRun = { runId: undefined, heard: false };
    this.#active = run;
    this.changed();
    return run;
  }

  /** `updates` as they are, the slot freed for `run` at its `done` update (before it goes on) or at unsubscription. */
  observe<U extends { readonly kind: string }>(updates: Observable<U>, run: ActiveRun): Observable<U> {
    return updates.pipe(
      operate<U, U>((source, subscriber) => {
        source.subscribe(
          new SourceObserver(subscriber, {
            next: (update) => {
              if (update.kind === "done") this.end(run);
              subscriber.next(update);
            },
          }),
        );
        // After the SourceObserver (chained above) has let `updates` go.
        return () => this.end(run);
      }),
    );
  }

  private end(run: ActiveRun): void {
    if (this.#active !== run) return;
    this.#active = undefined;
    this.#freed.next();
    this.changed();
  }
}
