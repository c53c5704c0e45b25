/** One `recordRun` subscription as a phase machine: starting, taking, draining after the terminal, closed (docs/durability.md#stores-and-routes). */
import type { Subscriber } from "rxjs";
import { ev } from "../../protocol/build";
import type { Event } from "../../protocol/events";
import { isTerminal } from "../../thread/isTerminal";
import { SourceObserver } from "../../rx/operate";
import type { AppendTally } from "./AppendTally";
import type { StoreClock } from "./StoreClock";
import { StoreError } from "./StoreError";
import { trackAppend } from "./pendingAppends";
import type { RunWriter, StoredEvent } from "./ThreadStore";

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

/** When the recorder renews its lease and sends its batches (`recordRun`'s options, defaults filled in). */
export interface RecorderTiming {
  readonly clock: StoreClock;
  readonly renewEvery: number;
  readonly defer: (callback: () => void) => () => void;
  /** Where each batch's size and time go (docs/observability.md#store-work); absent: nothing is timed. */
  readonly tally?: AppendTally | undefined;
}

/**
 * Where one recording stands:
 * - `starting`: nothing taken yet (the first event decides whether the logged RUN_STARTED goes before it);
 * - `taking`: the source's events are queued for the next append;
 * - `draining`: a terminal is queued (the source's, or the RUN_ERROR logged for a source that
 *   stopped without one), the source is let go, and the output completes once the queue is logged;
 * - `closed`: the output ended (completed, errored, unsubscribed): nothing more is taken or sent.
 */
type RecordPhase = { readonly kind: "starting" } | { readonly kind: "taking" } | { readonly kind: "draining" } | { readonly kind: "closed" };

/** The write side: nothing waits (`idle`), a flush waits for the end of this turn (`scheduled`), or a batch is at the store (`appending`). */
type Batching = { readonly kind: "idle" } | { readonly kind: "scheduled"; readonly cancel: () => void } | { readonly kind: "appending" };

const IDLE: Batching = { kind: "idle" };
const APPENDING: Batching = { kind: "appending" };

/**
 * One subscription of `recordRun`: the source's events in through `upstream`, each passed on as a
 * `StoredEvent` once the store logged it; `close` is the output's teardown.
 *
 * @example
 * const recorder = new RunRecorder(writer, subscriber, { clock: systemClock, renewEvery: 10_000, defer: nextMacrotask });
 * subscriber.add(() => recorder.close());
 * recorder.heartbeat();
 * source.subscribe(recorder.upstream);
 */
export class RunRecorder {
  private phase: RecordPhase = { kind: "starting" };
  private batching: Batching = IDLE;
  private queue: Event[] = [];
  private cancelHeartbeat: (() => void) | undefined;
  /** The source's subscriber; a synchronous source sees it close when the terminal is taken or the output ends. */
  readonly upstream: SourceObserver<Event>;

  constructor(
    private readonly writer: RunWriter,
    private readonly subscriber: Subscriber<StoredEvent>,
    private readonly timing: RecorderTiming,
  ) {
    // Chained to the output: closing it lets the source go, even inside a synchronous source's emission.
    this.upstream = new SourceObserver<Event>(subscriber, {
      next: (event) => {
        try {
          this.take(event);
        } catch (error) {
          this.fail(error);
        }
      },
      error: (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.end(ev.runError(`the run's event stream failed: ${message}`, { code: STREAM_ERROR_CODE }));
      },
      complete: () => this.end(ev.runError("the run's event stream completed before its RUN_FINISHED or RUN_ERROR", { code: TRUNCATED_ERROR_CODE })),
    });
  }

  /** The output ended (read through a getter: a call above may have closed it since the phase was last checked). */
  private get closed(): boolean {
    return this.phase.kind === "closed";
  }

  /** Takes one event of the source; throws when its RUN_STARTED names another run. */
  private take(event: Event): void {
    switch (this.phase.kind) {
      case "starting":
        this.phase = { kind: "taking" };
        if (event.type === "RUN_STARTED") {
          this.checkStarted(event);
          this.subscriber.next({ cursor: this.writer.started.cursor, event });
          return;
        }
        this.subscriber.next(this.writer.started);
        if (this.closed) return; // the consumer let go on seeing it
        break;
      case "taking":
        break;
      case "draining":
      case "closed":
        return;
      default:
        return unreachable(this.phase);
    }
    this.queue.push(event);
    if (isTerminal(event)) this.drain();
    this.flushLater();
  }

  /** A terminal is queued: let the source go and stop the heartbeat (the terminal's append renews the lease; after it the run is over). */
  private drain(): void {
    this.phase = { kind: "draining" };
    this.cancelHeartbeat?.();
    this.upstream.unsubscribe();
  }

  /** Ends the run for a source that stopped without a terminal: `failure` is logged as its terminal. */
  private end(failure: Event): void {
    if (this.phase.kind === "draining" || this.phase.kind === "closed") return;
    this.take(failure); // a source that sent nothing still has its RUN_STARTED emitted first (in take)
  }

  private checkStarted(event: Extract<Event, { type: "RUN_STARTED" }>): void {
    const { writer } = this;
    if (event.threadId === writer.threadId && event.runId === writer.runId) return;
    throw new StoreError(
      "invalid-append",
      `expected the source to start run "${writer.runId}" of thread "${writer.threadId}", ` +
        `but its RUN_STARTED names run "${event.runId}" of thread "${event.threadId}"`,
      { threadId: writer.threadId, runId: writer.runId },
    );
  }

  /** Sends the queue once this turn of the event loop is over (a pending append sends it when it resolves). */
  private flushLater(): void {
    if (this.batching.kind !== "idle" || this.phase.kind === "closed") return;
    const cancel = this.timing.defer(() => {
      this.batching = IDLE;
      this.flush();
    });
    this.batching = { kind: "scheduled", cancel };
  }

  /** Appends what is queued, or, with nothing queued after the terminal, completes the output. */
  private flush(): void {
    if (this.batching.kind === "appending" || this.phase.kind === "closed") return;
    if (this.queue.length === 0) {
      if (this.phase.kind === "draining") {
        this.close();
        this.subscriber.complete();
      }
      return;
    }
    const batch = this.queue;
    this.queue = [];
    this.batching = APPENDING;
    const { tally } = this.timing;
    const sent = tally === undefined ? 0 : tally.now();
    let appended: Promise<readonly string[]>;
    try {
      appended = trackAppend(this.writer.append(batch)); // counted while at the store (pendingAppendBatches)
    } catch (error) {
      // A writer that throws instead of rejecting: still this run's failure, never an uncaught one in a later turn.
      this.batching = IDLE;
      tally?.refused();
      this.fail(error);
      return;
    }
    appended.then(
      (cursors) => {
        this.batching = IDLE;
        tally?.appended(batch.length, tally.now() - sent);
        if (this.phase.kind === "closed") return;
        for (let i = 0; i < batch.length; i++) this.subscriber.next({ cursor: cursors[i], event: batch[i] });
        this.flush();
      },
      (error: unknown) => {
        this.batching = IDLE;
        tally?.refused();
        this.fail(error);
      },
    );
  }

  /** Renews the lease every `renewEvery` ms while the output is open; a renewal that finds the run over before its terminal fails it. */
  heartbeat(): void {
    this.cancelHeartbeat = this.timing.clock.setTimer(this.timing.renewEvery, () => {
      if (this.phase.kind === "closed") return;
      this.writer.renewLease().then(
        (live) => {
          if (this.phase.kind === "closed") return;
          if (live) this.heartbeat();
          else if (this.phase.kind !== "draining") this.fail(ended(this.writer));
        },
        (error: unknown) => this.fail(error),
      );
    });
  }

  private fail(error: unknown): void {
    if (this.phase.kind === "closed") return;
    this.phase = { kind: "closed" }; // nothing more is taken or sent
    // The output errors while the source is still subscribed, so a consumer that stops the
    // producer on this error (serveRun aborts the agent, naming it) reaches it with that
    // reason first; the teardown (`close`) then lets the source go.
    this.subscriber.error(error);
  }

  /** The output's teardown: lets the source go and cancels the timers. */
  close(): void {
    this.phase = { kind: "closed" };
    this.cancelHeartbeat?.();
    if (this.batching.kind === "scheduled") this.batching.cancel();
    this.upstream.unsubscribe();
  }
}

function ended(writer: RunWriter): StoreError {
  const message = `expected run "${writer.runId}" of thread "${writer.threadId}" to be live, but the store ended it (its lease ran out)`;
  return new StoreError("run-ended", message, { threadId: writer.threadId, runId: writer.runId });
}

function unreachable(phase: never): never {
  throw new Error(`expected a known recording phase, but got ${JSON.stringify(phase)}`);
}
