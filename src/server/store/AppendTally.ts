/**
 * A run's appends to its store, counted (docs/observability.md#store-work): what its span reports
 * in one event when the recording ends, never a span per batch.
 */
import type { OtelAttributes } from "../../telemetry/OtelApi";

/** The span event a recorded run's appends are reported in, on the run's span. */
export const STORE_APPENDS_EVENT = "agui_rx.store.appends";

/**
 * The batches `recordRun` appended for one run: how many, how many events in all and in the
 * largest, how long the store took in all and for the slowest, and how many the store refused.
 * Fed once per batch (never per event); read once, when the recording ends.
 *
 * @example
 * const tally = new AppendTally();
 * events.pipe(recordRun(writer, { tally })).subscribe({ complete: () => span.addEvent(STORE_APPENDS_EVENT, tally.attributes()) });
 */
export class AppendTally {
  batches = 0;
  events = 0;
  largestBatch = 0;
  /** Milliseconds the store took over every append, and over the slowest. */
  appendMs = 0;
  slowestAppendMs = 0;
  failed = 0;

  /** The clock appends are timed on (default `performance.now`, sub-millisecond where there is one). */
  constructor(readonly now: () => number = defaultNow) {}

  /** A batch of `events` events was logged in `ms` milliseconds. */
  appended(events: number, ms: number): void {
    this.batches++;
    this.events += events;
    if (events > this.largestBatch) this.largestBatch = events;
    this.appendMs += ms;
    if (ms > this.slowestAppendMs) this.slowestAppendMs = ms;
  }

  /** The store refused or failed a batch. */
  refused(): void {
    this.failed++;
  }

  /** The counts as the span event's attributes (durations rounded to microseconds). */
  attributes(): OtelAttributes {
    return {
      "agui_rx.store.batches": this.batches,
      "agui_rx.store.events": this.events,
      "agui_rx.store.largest_batch": this.largestBatch,
      "agui_rx.store.append_ms": round(this.appendMs),
      "agui_rx.store.slowest_append_ms": round(this.slowestAppendMs),
      "agui_rx.store.failed_appends": this.failed,
    };
  }
}

function defaultNow(): number {
  return typeof performance === "undefined" ? Date.now() : performance.now();
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
