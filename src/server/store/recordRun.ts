/** A run's events logged through its `RunWriter` in batches, each event passed on with its cursor (docs/durability.md#stores-and-routes: `id:` on every frame). */
import type { OperatorFunction } from "rxjs";
import { operate } from "../../rx/operate";
import type { Event } from "../../protocol/events";
import type { AppendTally } from "./AppendTally";
import { RunRecorder, type RecorderTiming } from "./RunRecorder";
import { systemClock, type StoreClock } from "./StoreClock";
import type { RunWriter, StoredEvent } from "./ThreadStore";

/** Options of `recordRun()`. */
export interface RecordRunOptions {
  /** Time and timers for the heartbeat (default `systemClock`). */
  readonly clock?: StoreClock | undefined;
  /** Milliseconds between heartbeats (`renewLease`) while the run is live (default 10,000: a third of the default lease). */
  readonly renewEvery?: number | undefined;
  /**
   * Runs `callback` once the events of this turn of the event loop have arrived, and returns a
   * function that cancels it (default `nextMacrotask`: `setImmediate` where there is one, else
   * `setTimeout(…, 0)`). A batch is sent then, so events arriving in one turn share one append.
   */
  readonly defer?: ((callback: () => void) => () => void) | undefined;
  /**
   * Counts the batches as they are logged, once per batch (docs/observability.md#store-work): what
   * the run's span reports when tracing is on. Absent (the default): nothing is counted or timed.
   */
  readonly tally?: AppendTally | undefined;
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

export { STREAM_ERROR_CODE, TRUNCATED_ERROR_CODE } from "./RunRecorder";

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
  const timing: RecorderTiming = {
    clock: options.clock ?? systemClock,
    renewEvery: options.renewEvery ?? 10_000,
    defer: options.defer ?? nextMacrotask,
    tally: options.tally,
  };
  return operate<Event, StoredEvent>((source, subscriber) => {
    const recorder = new RunRecorder(writer, subscriber, timing);
    recorder.heartbeat();
    source.subscribe(recorder.upstream);
    // Whatever ends the output (completion, an error, unsubscription, even from inside a
    // synchronous source's emission) lets the source go and stops the heartbeat at once.
    return () => recorder.close();
  });
}
