/** The reader's side of one `toEventStream` body as a phase machine: idle between reads (with the idle-write timeout), or reading. */
import type { StoreClock } from "../store/StoreClock";
import type { FrameQueue } from "./FrameQueue";
import { MAX_CHUNK_BYTES } from "./FrameQueue";
import { IdleWriteError } from "./IdleWriteError";
import { defer, nextMacrotask } from "./nextMacrotask";

/** Where the reader stands: `idle` between reads (`timer` cancels the idle-write timeout while frames wait), or `reading` (`wake` resolves its wait for a frame). */
type ReaderPhase = { readonly kind: "idle"; readonly timer: (() => void) | undefined } | { readonly kind: "reading"; wake: (() => void) | undefined };

const IDLE: ReaderPhase = { kind: "idle", timer: undefined };

/** The most macrotasks a gathering read waits (`gatherWrites`): a bound on the latency it adds to a source that never pauses. */
const MAX_GATHER_TURNS = 16;

/**
 * Tracks whether a read is pending: wakes a read that waits for a frame, and gives an idle reader
 * `idleMs` to ask for frames that wait before `onIdle` is called with an `IdleWriteError`.
 *
 * @example
 * const reader = new EventStreamReader(30_000, systemClock, (reason) => close(reason));
 * reader.beginRead();
 * while (queue.length === 0) await reader.nextFrame();
 * reader.endRead();
 */
export class EventStreamReader {
  private phase: ReaderPhase = IDLE;

  constructor(
    private readonly idleMs: number | undefined,
    private readonly clock: StoreClock,
    private readonly onIdle: (reason: IdleWriteError) => void,
  ) {}

  /** A read begins: the reader is not idle, so the idle-write timeout stops. */
  beginRead(): void {
    this.unwatch();
    this.phase = { kind: "reading", wake: undefined };
  }

  /** Resolves when `wake` is called (a frame was queued, or the stream ended); only during a read. */
  nextFrame(): Promise<void> {
    const reading = this.phase;
    if (reading.kind !== "reading") return Promise.resolve();
    return new Promise<void>((resolve) => (reading.wake = resolve));
  }

  /** The read was answered: the reader is idle again. */
  endRead(): void {
    this.phase = IDLE;
  }

  /** Resolves at the latest in a later macrotask, sooner when `wake` is called; only during a read. */
  burstEnd(): Promise<void> {
    const next = this.nextFrame();
    this.wakeSoon();
    return next;
  }

  /**
   * Wakes the pending read in a later macrotask, unless something wakes it sooner: for a producer
   * that says when it pauses (`EventStreamPump`'s paced source), so that a read takes its whole
   * burst, not one event. A wake already due is not scheduled twice.
   */
  wakeSoon(): void {
    if (this.phase.kind !== "reading" || this.phase.wake === undefined || this.wakeDue) return;
    this.wakeDue = true;
    defer(this.dueWake);
  }

  private wakeDue = false;
  private readonly dueWake = (): void => {
    this.wakeDue = false;
    this.wake();
  };

  /** Wakes the pending read, if one waits for a frame. */
  wake(): void {
    if (this.phase.kind !== "reading") return;
    const wake = this.phase.wake;
    this.phase.wake = undefined;
    wake?.();
  }

  /** Frames wait: if no read is pending, from now the reader has `idleMs` to ask for them. */
  watch(): void {
    const idleMs = this.idleMs;
    if (idleMs === undefined || this.phase.kind !== "idle" || this.phase.timer !== undefined) return;
    const timer = this.clock.setTimer(idleMs, () => {
      this.phase = IDLE;
      this.onIdle(new IdleWriteError(idleMs));
    });
    this.phase = { kind: "idle", timer };
  }

  /** Stops the idle-write timeout, if it runs. */
  unwatch(): void {
    if (this.phase.kind !== "idle" || this.phase.timer === undefined) return;
    this.phase.timer();
    this.phase = IDLE;
  }

  /** `gatherWrites`: waits while frames keep arriving, until the source pauses for a turn, a chunk is full or the stream `ended`. */
  async gather(queue: FrameQueue, ended: () => boolean): Promise<void> {
    for (let waits = 0; waits < MAX_GATHER_TURNS && !ended() && queue.bytes < MAX_CHUNK_BYTES; waits++) {
      const queued = queue.length;
      await nextMacrotask();
      if (queue.length === queued) return;
    }
  }
}
