/** A run's events logged through its `RunWriter` in batches, each event passed on with its cursor (docs/durability.md#stores-and-routes: `id:` on every frame). */
import { Observable, type OperatorFunction } from "rxjs";
import { ev } from "../../protocol/build";
import type { Event } from "../../protocol/events";
import { isTerminal } from "../../thread/isTerminal";
import { SourceObserver } from "./SourceObserver";
import { systemClock, type StoreClock } from "./StoreClock";
import { StoreError } from "./StoreError";
import type { RunWriter, StoredEvent } from "./ThreadStore";

/** Options of `recordRun()`. */
export interface RecordRunOptions {
  /** Time and timers for the heartbeat (default `systemClock`). */
  readonly clock?: StoreClock;
  /** Milliseconds between heartbeats (`renewLease`) while the run is live (default 10,000: a third of the default lease). */
  readonly renewEvery?: number;
  /**
   * Runs `callback` once the events of this turn of the event loop have arrived, and returns a
   * function that cancels it (default `nextMacrotask`: `setImmediate` where there is one, else
   * `setTimeout(…, 0)`). A batch is sent then, so events arriving in one turn share one append.
   */
  readonly defer?: (callback: () => void) => () => void;
}

/**
 * Runs `callback` in a later macrotask (`setImmediate` where there is one, else `setTimeout(…, 0)`:
 * edge runtimes have no `setImmediate`); returns a function that cancels it.
 *
 * @example
 * const cancel = nextMacrotask(() => flush());
 */
export function nextMacrotask(callback: () => void): () => void {
  if (typeof setImmediate === "function") {
    const immediate = setImmediate(callback);
    return () => clearImmediate(immediate);
  }
  const timeout = setTimeout(callback, 0);
  return () => clearTimeout(timeout);
}

/**
 * The RUN_ERROR code `recordRun` logs when the run's source fails (the same code `toEventStream` sends).
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === STREAM_ERROR_CODE) reportBug(event.message);
 */
export const STREAM_ERROR_CODE = "STREAM_ERROR";
/**
 * The RUN_ERROR code `recordRun` logs when the run's source completes without a terminal event.
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === TRUNCATED_ERROR_CODE) reportBug(event.message);
 */
export const TRUNCATED_ERROR_CODE = "TRUNCATED";

/**
 * Logs one run's events (the output of `run()`, or of any normalized and verified stream) through
 * `writer` and emits each as a `StoredEvent`, in order, once the store has logged it, so that the
 * HTTP layer can send it with `id: <cursor>`.
 *
 * - **Batching**: the events that arrive in one turn of the event loop go in one append, sent once
 *   that turn is over (`defer`), and while an append is pending, arriving events queue up and go in
 *   the next append as soon as it resolves: one store round trip per batch, never one per event,
 *   however fast the run produces. (A paced producer awaits `ready()` between events, a microtask
 *   each, so without the turn's wait every append would carry one event; the wait adds less than a
 *   turn of the loop to an event's way to its clients.)
 * - **RUN_STARTED**: `beginRun` logged it already; the source's own (which must name the same
 *   thread and run) is emitted with that cursor, not logged again. A source that does not start
 *   with one gets the logged one emitted first.
 * - **The end**: after a terminal event the source is unsubscribed and the output completes once
 *   the terminal is logged. A source that errors, or completes without a terminal, has a
 *   RUN_ERROR logged for it (code `STREAM_ERROR` / `TRUNCATED`), so the run ends in the store too.
 * - **Heartbeat**: every `renewEvery` ms while live, `writer.renewLease()`.
 * - **Failures**: a refused append (the run was ended `ABANDONED` meanwhile, it grew past the
 *   store's bound and was ended `RUN_TOO_LARGE`, the store failed), a renewal that finds the run
 *   over, or a source whose RUN_STARTED names another run errors the output with the `StoreError`,
 *   and then the source is unsubscribed (which aborts `run()`'s agent): the error comes first, so
 *   a consumer may stop the producer with a reason that says why (`createHandler` does).
 * - Unsubscribing unsubscribes the source and stops the heartbeat; an append already sent is not
 *   undone. Subscribe once per writer.
 *
 * @example
 * const writer = await store.beginRun(input);
 * run(agent, input).pipe(recordRun(writer)).subscribe(({ cursor, event }) => send(event, cursor));
 */
export function recordRun(writer: RunWriter, options: RecordRunOptions = {}): OperatorFunction<Event, StoredEvent> {
  const clock = options.clock ?? systemClock;
  const renewEvery = options.renewEvery ?? 10_000;
  const defer = options.defer ?? nextMacrotask;
  return (source) =>
    new Observable<StoredEvent>((subscriber) => {
      let queue: Event[] = [];
      let appending = false;
      let first = true;
      /** A terminal event has been queued: nothing more is taken from the source. */
      let terminated = false;
      /** The source completed, failed, or was let go after the terminal. */
      let sourceDone = false;
      let closed = false;
      let cancelHeartbeat: (() => void) | undefined;
      /** Cancels the flush waiting for the end of this turn of the event loop, if one is. */
      let cancelFlush: (() => void) | undefined;

      // `upstream` (the source's subscriber, below) exists before anything can call this.
      const close = (): void => {
        closed = true;
        cancelHeartbeat?.();
        cancelFlush?.();
        upstream.unsubscribe();
      };
      const fail = (error: unknown): void => {
        if (closed) return;
        closed = true; // nothing more is taken or sent
        // The output errors while the source is still subscribed, so a consumer that stops the
        // producer on this error (serveRun aborts the agent, naming it) reaches it with that
        // reason first; the teardown (`close`) then lets the source go.
        subscriber.error(error);
      };
      const flush = (): void => {
        if (appending || closed) return;
        if (queue.length === 0) {
          if (sourceDone) {
            close();
            subscriber.complete();
          }
          return;
        }
        const batch = queue;
        queue = [];
        appending = true;
        let appended: Promise<readonly string[]>;
        try {
          appended = writer.append(batch);
        } catch (error) {
          // A writer that throws instead of rejecting: still this run's failure, never an uncaught one in a later turn.
          appending = false;
          fail(error);
          return;
        }
        appended.then(
          (cursors) => {
            appending = false;
            if (closed) return;
            for (let i = 0; i < batch.length; i++) subscriber.next({ cursor: cursors[i], event: batch[i] });
            flush();
          },
          (error: unknown) => {
            appending = false;
            fail(error);
          },
        );
      };
      /** Sends the queue once this turn of the event loop is over (a pending append sends it when it resolves). */
      const flushLater = (): void => {
        if (appending || closed || cancelFlush !== undefined) return;
        cancelFlush = defer(() => {
          cancelFlush = undefined;
          flush();
        });
      };
      const take = (event: Event): void => {
        if (terminated || closed) return;
        if (first) {
          first = false;
          if (event.type === "RUN_STARTED") {
            if (event.threadId !== writer.threadId || event.runId !== writer.runId) {
              throw new StoreError(
                "invalid-append",
                `expected the source to start run "${writer.runId}" of thread "${writer.threadId}", ` +
                  `but its RUN_STARTED names run "${event.runId}" of thread "${event.threadId}"`,
                { threadId: writer.threadId, runId: writer.runId },
              );
            }
            subscriber.next({ cursor: writer.started.cursor, event });
            return;
          }
          subscriber.next(writer.started);
        }
        queue.push(event);
        if (isTerminal(event)) {
          terminated = true;
          sourceDone = true;
          cancelHeartbeat?.(); // the terminal's append renews the lease; after it the run is over
          upstream.unsubscribe();
        }
        flushLater();
      };
      /** Ends the run for a source that stopped without a terminal: `failure` is logged as its terminal. */
      const end = (failure: Event): void => {
        if (terminated || closed) return;
        take(failure); // a source that sent nothing still has its RUN_STARTED emitted first (in take)
      };
      const heartbeat = (): void => {
        cancelHeartbeat = clock.setTimer(renewEvery, () => {
          if (closed) return;
          writer.renewLease().then((live) => {
            if (closed) return;
            if (live) heartbeat();
            else if (!terminated) fail(ended(writer));
          }, fail);
        });
      };

      const upstream = new SourceObserver<Event>({
        next(event) {
          try {
            take(event);
          } catch (error) {
            fail(error);
          }
        },
        error(error: unknown) {
          const message = error instanceof Error ? error.message : String(error);
          end(ev.runError(`the run's event stream failed: ${message}`, { code: STREAM_ERROR_CODE }));
        },
        complete() {
          end(ev.runError("the run's event stream completed before its RUN_FINISHED or RUN_ERROR", { code: TRUNCATED_ERROR_CODE }));
        },
      });
      // Whatever ends the output (completion, an error, unsubscription, even from inside a
      // synchronous source's emission) lets the source go and stops the heartbeat at once.
      subscriber.add(close);
      heartbeat();
      source.subscribe(upstream);
    });
}

function ended(writer: RunWriter): StoreError {
  const message = `expected run "${writer.runId}" of thread "${writer.threadId}" to be live, but the store ended it (its lease ran out)`;
  return new StoreError("run-ended", message, { threadId: writer.threadId, runId: writer.runId });
}
