/** One `toEventStream` body as a phase machine for its source (unstarted, following, parked, finished, closed), beside the reader's (`EventStreamReader`). */
import type { Observable, Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import { ev } from "../../protocol/build";
import { excerpt } from "../../protocol/describeFailure";
import { systemClock, type StoreClock } from "../store/StoreClock";
import { textFrame } from "./encodeFrame";
import { frameSize, TextFrame } from "./TextFrame";
import { sharedTurns, type StreamTurn } from "./fairTurns";
import { BodyProgress } from "./BodyProgress";
import type { ChunkSink, DirectSource } from "./DirectBody";
import { FrameQueue } from "./FrameQueue";
import { EventStreamReader } from "./EventStreamReader";
import { SLOW_CONSUMER_CODE, SlowConsumerError } from "./SlowConsumerError";
import type { Frame } from "./TailFrames";
import type { CursorFrame, DataFrame, EventSource, EventStreamOptions, Ready } from "./EventStreamOptions";
import { isTerminal } from "../../thread/isTerminal";

/** The source is followed; `terminated` once a run-level terminal was queued, so a late failure adds no second one. */
interface Following {
  readonly kind: "following";
  subscription: Subscription | undefined;
  terminated: boolean;
}

/**
 * Where the source stands:
 * - `unstarted`: no read yet, so the source is not subscribed (it is cold);
 * - `following`: its events are queued as frames;
 * - `parked`: the reader stopped reading, so the source was let go after cursor `after` (`resumeAfter`); the next read follows it again;
 * - `finished`: it completed or failed (or was stopped past the cap): what is queued is all there will be;
 * - `closed`: the reader went away, the signal aborted, or the reader idled out: nothing more is read or sent.
 */
type SourcePhase =
  | { readonly kind: "unstarted" }
  | Following
  | { readonly kind: "parked"; readonly after: string }
  | { readonly kind: "finished" }
  | { readonly kind: "closed" };

const UNSTARTED: SourcePhase = { kind: "unstarted" };
const FINISHED: SourcePhase = { kind: "finished" };
const CLOSED: SourcePhase = { kind: "closed" };

/**
 * What `ready()` returns while the queue has room: one settled promise shared by every stream, as a
 * producer awaits it once per event, and a promise made per call is one more for the process's
 * promise hooks (an OpenTelemetry context manager runs one per promise made).
 */
const ROOM: Promise<void> = Promise.resolve();

/** `toEventStream`'s bounds with their defaults applied, and its `PARK_BYTES`. */
export interface PumpBounds {
  readonly highWaterMark: number;
  readonly maxBufferedBytes: number;
  readonly parkBytes: number;
}

/**
 * The underlying source of one `toEventStream` body (see there for the contract): queues the
 * source's events as frames and hands them to the reader read by read.
 *
 * @example
 * const pump = new EventStreamPump(source, options, { highWaterMark: 16, maxBufferedBytes: 16 << 20, parkBytes: 256 << 10 });
 * new ReadableStream<Uint8Array>({ start: (c) => pump.start(c), pull: (c) => pump.pull(c), cancel: (r) => pump.cancel(r) }, { highWaterMark: 0 });
 */
export class EventStreamPump implements DirectSource {
  private phase: SourcePhase = UNSTARTED;
  private readonly reader: EventStreamReader;
  private readonly queue: FrameQueue;
  /** Aborted with the reason whenever the stream stops before the source finished. */
  private readonly stopping = new AbortController();
  private turn: StreamTurn | undefined;
  /** The source is the factory form, handed `ready()`: its producer says when it pauses. */
  private readonly paced: boolean;
  /** This stream's place among `writeTurns`, from the first read until the body ends. */
  private writeTurn: StreamTurn | undefined;
  /** Producers waiting in `ready()` for room in the queue. */
  private waiting: (() => void)[] = [];
  /** The body's controller, to error it when the reader is idle (no read is pending to hand it to). */
  private body: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readonly clock: StoreClock;
  /** When bytes were last handed to the reader (or the stream was made), on `clock`: the heartbeat counts its silence from it. */
  private lastWrite: number;
  /** A heartbeat waits in the queue: the read that takes it does not count it as a frame sent. */
  private heartbeatQueued = false;
  /** The body's chunks as its reader takes them, and its end, for whoever follows it (a request span counting bytes). */
  readonly progress = new BodyProgress();

  constructor(
    private readonly source: Observable<Event | CursorFrame | DataFrame> | EventSource,
    private readonly options: EventStreamOptions,
    private readonly bounds: PumpBounds,
  ) {
    this.queue = new FrameQueue(options.frames);
    this.paced = typeof source === "function";
    this.clock = options.clock ?? systemClock;
    this.lastWrite = this.clock.now();
    this.reader = new EventStreamReader(options.idleWriteTimeoutMs, this.clock, (reason) => {
      options.metrics?.stopped(reason);
      this.close(reason);
      this.body?.error(reason);
    });
    if (options.signal?.aborted) this.phase = CLOSED;
    else options.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.body = controller;
  }

  /** One read: starts or resumes the source if needed, waits for frames, and hands over what is queued (the web stream's pull, or a direct one: `DirectSource`). */
  async pull(controller: ChunkSink): Promise<void> {
    const { queue, options } = this;
    this.reader.beginRead();
    if (this.phase.kind === "unstarted") this.begin();
    if (this.phase.kind === "parked" && queue.length === 0) this.unpark(this.phase.after);
    // A paced producer in the middle of a burst (neither waiting for room nor giving way) goes on
    // queueing: the read takes the burst whole, in a later macrotask at the latest.
    if (this.paced && queue.length > 0 && this.phase.kind === "following" && this.waiting.length === 0) await this.reader.burstEnd();
    let waited = false;
    while (queue.length === 0 && !this.ended) {
      waited = true;
      const heartbeat = this.heartbeatLater();
      await this.reader.nextFrame();
      heartbeat?.(); // the wait ended (a frame, the end, a close): the timer goes with it, so none outlives the stream
    }
    if (waited && options.gatherWrites === true) await this.reader.gather(queue, () => this.ended);
    this.writeTurn ??= options.writeTurns?.join();
    const turnToWrite = this.phase.kind === "closed" ? undefined : this.writeTurn?.pause();
    if (turnToWrite !== undefined) await turnToWrite;
    this.reader.endRead();
    if (queue.length > 0) {
      const queued = queue.length;
      if (options.uncopiedFrames === true)
        for (const frame of queue.takeFrames()) {
          controller.enqueue(frame);
          this.progress.sent(frame.byteLength);
        }
      else {
        const chunk = queue.takeChunk();
        controller.enqueue(chunk);
        this.progress.sent(chunk.byteLength);
      }
      this.lastWrite = this.clock.now();
      this.release();
      options.metrics?.sent(queued - queue.length - this.sentHeartbeat());
    }
    if (this.phase.kind === "closed" || (this.phase.kind === "finished" && queue.length === 0)) {
      this.writeTurn?.leave();
      try {
        controller.close();
      } catch {
        // Already cancelled by the reader: nothing left to close.
      }
      this.progress.ended();
    } else if (queue.length > 0) this.watchIdle(); // the rest waits until the reader asks again
  }

  cancel(reason: unknown): void {
    this.close(reason ?? new DOMException("the response body was cancelled", "AbortError"));
  }

  /** Resolves when the producer may send more (see `EventStreamOptions`); handed to the factory form of the source. */
  private readonly ready: Ready = () => {
    const pause = this.ended ? undefined : this.turn?.pause();
    if (pause === undefined) return this.room();
    this.reader.wake(); // the producer gives way: what it queued goes now
    return pause.then(() => this.room());
  };

  /** The source finished or the stream closed: nothing more will be queued. */
  private get ended(): boolean {
    return this.phase.kind === "finished" || this.phase.kind === "closed";
  }

  private room(): Promise<void> {
    const { queue, bounds } = this;
    const full = queue.length >= bounds.highWaterMark || queue.bytes * 2 >= bounds.maxBufferedBytes;
    if (this.ended || !full) return ROOM;
    this.reader.wake(); // the producer waits for room: what it queued goes now
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** The first read: join the turns and follow the source (a factory that throws is a failed run, reported in-band like any other). */
  private begin(): void {
    this.turn = (this.options.turns ?? sharedTurns).join();
    const source = this.source;
    this.follow(() => (typeof source === "function" ? source(this.ready, this.stopping.signal) : source));
  }

  /** The reader took what waited: follow the source again from where it was let go. */
  private unpark(cursor: string): void {
    this.follow(() => (this.options.resumeAfter ?? never)(cursor));
  }

  /**
   * Subscribes what `make` returns (a throw is the source failing): what it sends is queued, its end
   * ends the stream; it is let go at once if the stream stopped or parked while subscribing. While
   * parked, what the source says is for later: its events and its end come again after the cursor.
   */
  private follow(make: () => Observable<Event | CursorFrame | DataFrame>): void {
    const following: Following = { kind: "following", subscription: undefined, terminated: false };
    this.phase = following;
    let events$: Observable<Event | CursorFrame | DataFrame>;
    try {
      events$ = make();
    } catch (error) {
      return this.fail(error);
    }
    const followed = events$.subscribe({
      next: this.push,
      error: (error: unknown) => (this.phase === following ? this.fail(error) : undefined),
      complete: () => (this.phase === following ? this.finish(following) : undefined),
    });
    if (this.phase === following) following.subscription = followed;
    else followed.unsubscribe();
  }

  private readonly push = (item: Event | CursorFrame | DataFrame): void => {
    const phase = this.phase;
    if (phase.kind !== "following") return; // parked: the source sends the rest again after the cursor; finished, closed: nothing more
    const { queue, options } = this;
    // Told apart without wrapping a bare event in a frame object: this runs once per event of every stream.
    let event: Event | undefined;
    let cursor: string | undefined;
    let json: string | undefined;
    if ("type" in item) event = item;
    else if ("event" in item) ({ event, cursor, json } = item);
    let frame: Frame;
    try {
      if (event === undefined) frame = dataFrame(item as DataFrame);
      else frame = options.frames === undefined ? textFrame(event, cursor, json) : options.frames.take(event, cursor, json);
    } catch (error) {
      return this.fail(error);
    }
    const size = frameSize(frame);
    if (queue.bytes + size > this.bounds.maxBufferedBytes) {
      options.frames?.release(frame);
      return this.overflow(phase, size);
    }
    if (event !== undefined && isTerminal(event)) phase.terminated = true;
    queue.push(frame);
    if (options.idleWriteTimeoutMs !== undefined) this.reader.watch(); // following, so not closed
    // A producer that awaits `ready()` says when it pauses (there, the read is woken at once), so a
    // waiting read takes its burst whole: one read, one write and their promises per burst, not per event.
    if (this.paced) this.reader.wakeSoon();
    else this.reader.wake();
    if (options.resumeAfter !== undefined && cursor !== undefined && !phase.terminated && queue.bytes >= this.bounds.parkBytes) this.park(phase, cursor);
  };

  /** The reader is not reading: let the source go after `cursor` (the last queued frame's); `pull` picks it up again. */
  private park(following: Following, cursor: string): void {
    this.phase = { kind: "parked", after: cursor };
    following.subscription?.unsubscribe(); // unset during a synchronous subscribe: `follow` lets it go when that returns
  }

  /** The source failed (or an event could not be encoded): one final RUN_ERROR unless a terminal was sent, then the end. */
  private fail(error: unknown): void {
    const phase = this.phase;
    if (phase.kind !== "following") return; // parked: its failure comes again after the cursor
    if (!phase.terminated) {
      const message = error instanceof Error ? error.message : excerpt(error);
      this.pushOwn(ev.runError(`the event stream failed: ${message}`, { code: "STREAM_ERROR" }));
      phase.terminated = true;
    }
    this.finish(phase);
  }

  /** The reader cannot keep up: stop the run with what is queued and one final RUN_ERROR. */
  private overflow(following: Following, frameSize: number): void {
    const reason = new SlowConsumerError(this.queue.bytes + frameSize, this.bounds.maxBufferedBytes);
    this.options.metrics?.stopped(reason);
    if (!following.terminated && this.options.slowConsumer !== "end") this.pushOwn(ev.runError(reason.message, { code: SLOW_CONSUMER_CODE }));
    following.terminated = true;
    this.phase = FINISHED; // before the abort, so the source's reaction to it (an error) adds nothing
    this.stopping.abort(reason);
    this.finish(following);
  }

  /** The source is done: what is queued is all there will be. */
  private finish(following: Following): void {
    this.phase = FINISHED;
    this.turn?.leave();
    this.options.signal?.removeEventListener("abort", this.onAbort);
    following.subscription?.unsubscribe();
    this.release();
    this.reader.wake();
  }

  /** Queues a frame this stream made itself (a final RUN_ERROR). */
  private pushOwn(event: Event): void {
    this.queue.push(textFrame(event));
    this.watchIdle();
  }

  private close(reason: unknown): void {
    const phase = this.phase;
    if (phase.kind === "closed") return;
    this.phase = CLOSED;
    this.queue.clear();
    this.reader.unwatch();
    this.turn?.leave();
    this.writeTurn?.leave();
    this.options.signal?.removeEventListener("abort", this.onAbort);
    if (phase.kind !== "finished") this.stopping.abort(reason);
    if (phase.kind === "following") phase.subscription?.unsubscribe();
    this.release();
    this.reader.wake();
    this.progress.ended();
  }

  private readonly onAbort = (): void => this.close(this.options.signal?.reason ?? new DOMException("the client went away", "AbortError"));

  /**
   * A read waits with nothing queued: with `heartbeatMs`, queues a comment frame and wakes the read
   * once nothing was written for that long. Returns what cancels the timer (`undefined` without one).
   */
  private heartbeatLater(): (() => void) | undefined {
    const interval = this.options.heartbeatMs;
    if (interval === undefined) return undefined;
    const due = Math.max(0, this.lastWrite + interval - this.clock.now());
    return this.clock.setTimer(due, () => {
      if (this.queue.length > 0 || this.ended) return;
      this.queue.push(HEARTBEAT_FRAME);
      this.heartbeatQueued = true;
      this.reader.wake();
    });
  }

  /** Frames wait: unless the stream is closed, an idle reader has `idleWriteTimeoutMs` from now to ask for them. */
  private watchIdle(): void {
    if (this.phase.kind !== "closed") this.reader.watch();
  }

  /** 1 when the read just taken carried the heartbeat (queued only into an empty queue, so it is always taken first), else 0. */
  private sentHeartbeat(): number {
    if (!this.heartbeatQueued) return 0;
    this.heartbeatQueued = false;
    return 1;
  }

  /** Lets the producers waiting in `ready()` go on. */
  private release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}

/** A `DataFrame` as an SSE frame: its `event:` line when it has a name, its one `data:` line, then the blank line. */
function dataFrame({ data, name }: DataFrame): TextFrame {
  if (name === undefined) return new TextFrame(`data: ${data}\n\n`);
  if (/[\r\n\0]/.test(name)) throw new Error(`expected an SSE event name without CR, LF or NUL, but got ${JSON.stringify(name)}`);
  return new TextFrame(`event: ${name}\ndata: ${data}\n\n`);
}

const utf8 = new TextEncoder();

/** The heartbeat: one comment line and the blank line, no `data:` (so no event) and no `id:`; one object shared by every stream (written as it is, never changed). */
const HEARTBEAT_FRAME: Frame = { bytes: utf8.encode(": heartbeat\n\n") };

function never(cursor: string): Observable<CursorFrame> {
  throw new Error(`expected a resumeAfter to pick the source up after cursor ${JSON.stringify(cursor)}, but the stream has none`);
}
