/**
 * The server's OpenTelemetry metrics (docs/observability.md#metrics): the instruments, made once per
 * meter, and the few calls the routes make. No attribute ever carries a thread id, a run id or an
 * owner (unbounded cardinality): only closed sets (an outcome, an error code, a reason, a mode).
 */
import { identity, Observable, type MonoTypeOperatorFunction } from "rxjs";
import type { Event } from "../../protocol/events";
import type { OtelAttributes, OtelCounter, OtelHistogram, OtelMeter, OtelObservableResult } from "../../telemetry/OtelApi";
import type { Telemetry } from "../../telemetry/Telemetry";
import { StoreError } from "../store/StoreError";
import { pendingAppendBatches } from "../store/pendingAppends";
import type { StoreClock } from "../store/StoreClock";
import type { StreamMetrics } from "../http/EventStreamOptions";
import { IdleWriteError } from "../http/IdleWriteError";
import { SlowConsumerError } from "../http/SlowConsumerError";
import type { TailFrames } from "../http/TailFrames";

/** The prefix of every instrument's name. */
export const METRIC_PREFIX = "agui_rx.server.";

/**
 * Why a response (or a run) was cut for its size or its reader: `slow_consumer` (past
 * `maxBufferedBytes`), `idle_write` (`idleWriteTimeoutMs`), `tail_budget` (a `/connect` refused
 * past `maxTailBytes`), `run_too_large` (the store's bound for one run).
 */
export type AbortReason = "slow_consumer" | "idle_write" | "tail_budget" | "run_too_large";

/** The instruments of one meter, and the tail pools its gauge reads. */
interface Instruments {
  readonly liveRuns: OtelCounter;
  /**
   * Frames handed to readers since the instruments were made: `events.sent` is an observable
   * counter that reports this total when collected, so that a write batch adds to a number here
   * instead of making an SDK measurement (attribute set, timestamp, context read) each time.
   */
  framesSent: number;
  readonly runDuration: OtelHistogram;
  readonly connectDuration: OtelHistogram;
  readonly reconnects: OtelCounter;
  readonly aborts: OtelCounter;
  readonly storeErrors: OtelCounter;
  readonly queueWaiting: OtelCounter;
  /** The tail pools of the handlers that use this meter, held weakly (a handler has no close). */
  readonly pools: Set<WeakRef<TailFrames>>;
}

/** Instruments per meter: a meter's instruments are made once, however many handlers use it. `null`: the meter threw. */
const byMeter = new WeakMap<OtelMeter, Instruments | null>();

/** Makes the instruments of `meter` (see the table in docs/observability.md#metrics). */
function makeInstruments(meter: OtelMeter): Instruments {
  const name = (suffix: string): string => METRIC_PREFIX + suffix;
  const pools = new Set<WeakRef<TailFrames>>();
  const instruments: Instruments = {
    liveRuns: meter.createUpDownCounter(name("runs.live"), { description: "Runs in progress in this process", unit: "{run}" }),
    framesSent: 0,
    runDuration: meter.createHistogram(name("run.duration"), { description: "How long runs took, by outcome", unit: "s" }),
    connectDuration: meter.createHistogram(name("connect.duration"), { description: "From a /connect request to its first frame", unit: "s" }),
    reconnects: meter.createCounter(name("reconnects"), { description: "Connects that resume after a Last-Event-ID", unit: "{connect}" }),
    aborts: meter.createCounter(name("stream.aborts"), { description: "Responses or runs cut for a slow reader or a size limit", unit: "{abort}" }),
    storeErrors: meter.createCounter(name("store.errors"), { description: "Store operations that failed, by StoreError code", unit: "{error}" }),
    queueWaiting: meter.createUpDownCounter(name("queue.waiting"), {
      description: "Queued messages waiting for their turn whose stream this process serves",
      unit: "{message}",
    }),
    pools,
  };
  meter
    .createObservableCounter(name("events.sent"), { description: "SSE frames handed to clients (heartbeats not counted)", unit: "{event}" })
    .addCallback((result) => result.observe(instruments.framesSent));
  meter
    .createObservableGauge(name("store.pending_appends"), { description: "Batches of events at the store, not yet answered", unit: "{batch}" })
    .addCallback((result) => result.observe(pendingAppendBatches()));
  meter
    .createObservableGauge(name("tails.queued_bytes"), { description: "Bytes of frames queued to this process's SSE readers, each frame once", unit: "By" })
    .addCallback((result) => observeQueuedBytes(pools, result));
  return instruments;
}

/** Sums the pools still alive (dropping the collected ones). */
function observeQueuedBytes(pools: Set<WeakRef<TailFrames>>, result: OtelObservableResult): void {
  let bytes = 0;
  for (const ref of pools) {
    const pool = ref.deref();
    if (pool === undefined) pools.delete(ref);
    else bytes += pool.queuedBytes;
  }
  result.observe(bytes);
}

/** Runs `record`, swallowing what a broken SDK throws: telemetry never fails a request or a run. */
function safely(record: () => void): void {
  try {
    record();
  } catch {
    // A meter that throws records nothing; the server goes on.
  }
}

/** The event of a run's item: the event itself, or a logged one's (`StoredEvent`); told apart by `type`, as a RAW event has an `event` too. */
function eventOf(item: Event | { readonly event: Event }): Event {
  return "type" in item ? item : item.event;
}

/** The outcome attributes of a run's terminal event. */
function outcomeOf(event: Event): OtelAttributes {
  if (event.type === "RUN_ERROR") return { "agui_rx.run.outcome": "error", "error.type": event.code ?? "RUN_ERROR" };
  if (event.type === "RUN_FINISHED") return { "agui_rx.run.outcome": event.outcome?.type ?? "success" };
  return { "agui_rx.run.outcome": "cancelled" };
}

/** The outcome attributes of a run whose events failed before a terminal (a store refusal, a source error). */
function failureOf(error: unknown): OtelAttributes {
  if (StoreError.isInstance(error)) return { "agui_rx.run.outcome": "error", "error.type": error.code === "run-too-large" ? "RUN_TOO_LARGE" : error.code };
  return { "agui_rx.run.outcome": "error", "error.type": "STREAM_ERROR" };
}

/**
 * One handler's metrics. Each call resolves the meter then (`Telemetry.meter()`: the option's, or
 * the globally registered provider's), so a handler made before the SDK registered still records;
 * with no meter nothing is made and each call returns after that one read. The routes call it at
 * run, request and write-batch granularity, never per event (but `measureRun`, which is applied
 * only when a meter exists).
 *
 * @example
 * const metrics = new ServerMetrics(context.telemetry, context.tails.frames, context.tails.clock);
 * events$.pipe(metrics.measureRun());
 */
export class ServerMetrics {
  constructor(
    private readonly telemetry: Telemetry,
    private readonly frames: TailFrames,
    private readonly clock: StoreClock,
  ) {}

  /** The meter's instruments, made on first use; `undefined` without a meter (or with one that throws). */
  private instruments(): Instruments | undefined {
    let meter: OtelMeter | undefined;
    try {
      meter = this.telemetry.meter();
    } catch {
      return undefined;
    }
    if (meter === undefined) return undefined;
    let made = byMeter.get(meter);
    if (made === undefined) {
      try {
        made = makeInstruments(meter);
      } catch {
        made = null;
      }
      byMeter.set(meter, made);
    }
    if (made === null) return undefined;
    if (!this.registered.has(made)) {
      this.registered.add(made);
      made.pools.add(new WeakRef(this.frames));
    }
    return made;
  }

  /** The instrument sets this handler's pool was added to (a pool is added once per meter per handler). */
  private readonly registered = new WeakSet<Instruments>();

  /** Whether a meter is there now (instruments are made on this first look). */
  recording(): boolean {
    return this.instruments() !== undefined;
  }

  /**
   * Counts a run while it is live and records its duration and outcome (from its terminal event:
   * `success`, `interrupt`, `cancelled`, `error` with the RUN_ERROR code as `error.type`; a run let
   * go before its terminal, its client gone, is `cancelled`; one whose events failed is `error`).
   * Without a meter when the run starts: the events pass untouched.
   */
  measureRun<T extends Event | { readonly event: Event }>(): MonoTypeOperatorFunction<T> {
    const instruments = this.instruments();
    if (instruments === undefined) return identity;
    const clock = this.clock;
    return (source) =>
      new Observable<T>((subscriber) => {
        const started = clock.now();
        let outcome: OtelAttributes | undefined;
        safely(() => instruments.liveRuns.add(1));
        const subscription = source.subscribe({
          next: (item) => {
            const event = eventOf(item);
            if (outcome === undefined && (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR")) outcome = outcomeOf(event);
            subscriber.next(item);
          },
          error: (error: unknown) => {
            outcome ??= failureOf(error);
            subscriber.error(error);
          },
          complete: () => subscriber.complete(),
        });
        return () => {
          subscription.unsubscribe();
          const attributes = outcome ?? { "agui_rx.run.outcome": "cancelled" };
          safely(() => {
            instruments.liveRuns.add(-1);
            instruments.runDuration.record((clock.now() - started) / 1000, attributes);
          });
        };
      });
  }

  /**
   * What every response's stream reports to (`EventStreamOptions.metrics`): frames handed to the
   * reader per read, and a cut for a slow or idle reader.
   */
  readonly stream: StreamMetrics = {
    sent: (frames) => {
      const instruments = this.instruments();
      if (instruments !== undefined) instruments.framesSent += frames;
    },
    stopped: (reason) => {
      const why: AbortReason | undefined = reason instanceof SlowConsumerError ? "slow_consumer" : reason instanceof IdleWriteError ? "idle_write" : undefined;
      if (why !== undefined) this.aborted(why);
    },
  };

  /**
   * The stream metrics of one `/connect` answer: those of every stream, plus the connect's latency
   * from `startedAt` (on the handler's clock) to its first frame, with its mode; a connect after a
   * `Last-Event-ID` counts as a reconnect.
   */
  connect(startedAt: number, how: { readonly mode: string; readonly reconnect: boolean }): StreamMetrics {
    const attributes: OtelAttributes = { "agui_rx.connect.mode": how.mode, "agui_rx.connect.reconnect": how.reconnect };
    if (how.reconnect) {
      const instruments = this.instruments();
      if (instruments !== undefined) safely(() => instruments.reconnects.add(1, { "agui_rx.connect.mode": how.mode }));
    }
    let first = true;
    return {
      sent: (frames) => {
        if (first) {
          first = false;
          const instruments = this.instruments();
          if (instruments !== undefined) safely(() => instruments.connectDuration.record((this.clock.now() - startedAt) / 1000, attributes));
        }
        this.stream.sent(frames);
      },
      stopped: this.stream.stopped,
    };
  }

  /** Counts a response or run cut for `reason`. */
  aborted(reason: AbortReason): void {
    const instruments = this.instruments();
    if (instruments !== undefined) safely(() => instruments.aborts.add(1, { "agui_rx.abort.reason": reason }));
  }

  /** Counts a failed store operation by its `StoreError` code (`error.type`; `other` for anything else), and a run refused for its size as an abort. */
  storeError(error: unknown): void {
    const instruments = this.instruments();
    if (instruments === undefined) return;
    const code = StoreError.isInstance(error) ? error.code : "other";
    safely(() => instruments.storeErrors.add(1, { "error.type": code }));
    if (code === "run-too-large") this.aborted("run_too_large");
  }

  /** A queued message's stream saw it waiting (`+1`) or saw it leave the wait (`-1`: started, taken, cancelled, or the stream ended). */
  queueWaiting(delta: 1 | -1, policy: string): void {
    const instruments = this.instruments();
    if (instruments !== undefined) safely(() => instruments.queueWaiting.add(delta, { "agui_rx.queue.policy": policy }));
  }
}
