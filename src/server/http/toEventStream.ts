/** An `Observable<Event>` as a pull-based SSE byte stream whose reader paces the producer. */
import type { Observable, Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import { ev } from "../../protocol/build";
import { excerpt } from "../../protocol/describeFailure";
import { systemClock } from "../store/StoreClock";
import { encodeFrame } from "./encodeFrame";
import { sharedTurns, type StreamTurn } from "./fairTurns";
import { FrameQueue, MAX_CHUNK_BYTES } from "./FrameQueue";
import { IdleWriteError } from "./IdleWriteError";
import { nextMacrotask } from "./nextMacrotask";
import { SLOW_CONSUMER_CODE, SlowConsumerError } from "./SlowConsumerError";
import type { Frame } from "./TailFrames";
import type { CursorFrame, EventSource, EventStreamOptions, Ready } from "./EventStreamOptions";
import { isTerminal } from "../../thread/isTerminal";

export type { CursorFrame, EventSource, EventStreamOptions, Ready } from "./EventStreamOptions";

/** The default high-water mark, in events. */
export const DEFAULT_HIGH_WATER_MARK = 16;

/** The default send-buffer cap: 16 MiB of queued events per response. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** The most macrotasks a gathering read waits (`gatherWrites`): a bound on the latency it adds to a source that never pauses. */
const MAX_GATHER_TURNS = 16;

/**
 * Bytes of frames left unread at which a stream with `resumeAfter` lets its source go (four
 * chunks): a reader that stopped reading (a paused socket) then costs nothing per event, while one
 * that reads, even slowly, seldom reaches it between two reads.
 */
export const PARK_BYTES = 4 * MAX_CHUNK_BYTES;

/**
 * Streams the events as SSE frames (`data: <json>\n\n`, UTF-8; `id: <cursor>\n` first for a
 * `CursorFrame` with a cursor), pulled by the reader. With `frames`, frames are shared with the
 * other responses that queue the same event (each encoded once); with `idleWriteTimeoutMs`, a
 * reader that takes nothing while frames wait for it is cut off (see the options).
 *
 * - Cold: the source is subscribed on the first read, not before; unsubscribed when the reader
 *   cancels, when `signal` aborts, and after the source completes. The factory form is handed a
 *   signal too, aborted with the reason whenever the stream stops early (an `AbortError` when
 *   the client went away, a `SlowConsumerError` past the cap); `run()` takes it as its `signal`.
 * - Backpressure: RxJS cannot pause an Observable, so events are queued as encoded frames and each
 *   read takes the queue as one chunk (up to 64 KiB of frames, so a long queue drains in
 *   bounded pieces). A producer that awaits `ready` (given to the factory
 *   form of `source`) is paced by the reader: `ready()` waits while `highWaterMark` or more frames
 *   (or half of `maxBufferedBytes`) are queued, so that much at most waits in memory however slow
 *   the client is. A producer that ignores `ready` is never blocked, but its queue is capped at
 *   `maxBufferedBytes`: past it the run is stopped (see the option).
 * - Fairness: `ready()` also yields a macrotask once the stream's slice of `turns` is used up.
 * - Errors: a source error, or an event that cannot be encoded as JSON, becomes one final
 *   `RUN_ERROR` (code `STREAM_ERROR`) unless a `RUN_FINISHED`/`RUN_ERROR` was already sent; then the
 *   stream ends normally (headers are long gone, the only channel left is in-band).
 *
 * @example
 * const body = toEventStream((ready, signal) => run(agent, input, { ready, signal }), { signal: request.signal });
 * return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
 */
export function toEventStream(source: Observable<Event | CursorFrame> | EventSource, options: EventStreamOptions = {}): ReadableStream<Uint8Array> {
  const highWaterMark = Math.max(1, options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK);
  const maxBufferedBytes = Math.max(1, options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES);
  const signal = options.signal;
  const turns = options.turns ?? sharedTurns;
  const pool = options.frames;
  const idleMs = options.idleWriteTimeoutMs;
  const clock = options.clock ?? systemClock;
  /** Aborted with the reason whenever the stream stops before the source finished. */
  const stopping = new AbortController();

  const queue = new FrameQueue(pool);
  let subscription: Subscription | undefined;
  let turn: StreamTurn | undefined;
  /** This stream's place among `writeTurns`, from the first read until the body ends. */
  let writeTurn: StreamTurn | undefined;
  let started = false;
  /** The source completed or failed; what is queued is all there will be. */
  let finished = false;
  /** The reader went away or the signal aborted; nothing more is read or sent. */
  let closed = false;
  /** A run-level terminal event was queued, so a late failure adds no second one. */
  let terminated = false;
  /** The pending read waiting for a frame. */
  let wake: (() => void) | undefined;
  /** A read is being answered (the reader is not idle). */
  let reading = false;
  /** Producers waiting in `ready()`. */
  let waiters: (() => void)[] = [];
  /** The body's controller, to error it when the reader is idle (no read is pending to hand it to). */
  let body: ReadableStreamDefaultController<Uint8Array> | undefined;
  /** Cancels the idle-write timer; set while frames wait and no read is pending. */
  let cancelIdle: (() => void) | undefined;
  /** The cursor after which the source was let go because the reader stopped reading (`resumeAfter`), while it is. */
  let parkedAfter: string | undefined;

  const notify = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const release = (): void => {
    const pending = waiters;
    waiters = [];
    for (const resolve of pending) resolve();
  };
  const full = (): boolean => queue.length >= highWaterMark || queue.bytes * 2 >= maxBufferedBytes;
  const room = (): Promise<void> =>
    closed || finished || !full() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
  const ready: Ready = () => {
    const pause = closed || finished ? undefined : turn?.pause();
    return pause === undefined ? room() : pause.then(room);
  };

  /** Frames wait and no read is pending: from now the reader has `idleMs` to ask for them. */
  const watchIdle = (): void => {
    if (idleMs === undefined || cancelIdle !== undefined || closed || reading) return;
    cancelIdle = clock.setTimer(idleMs, () => {
      cancelIdle = undefined;
      const reason = new IdleWriteError(idleMs);
      close(reason);
      body?.error(reason);
    });
  };
  const unwatchIdle = (): void => {
    cancelIdle?.();
    cancelIdle = undefined;
  };

  const finish = (): void => {
    finished = true;
    turn?.leave();
    signal?.removeEventListener("abort", onAbort);
    subscription?.unsubscribe();
    release();
    notify();
  };
  /** Queues a frame this stream made itself (a final RUN_ERROR). */
  const pushOwn = (event: Event): void => {
    queue.push({ bytes: encodeFrame(event) });
    watchIdle();
  };
  const fail = (error: unknown): void => {
    if (finished || closed) return;
    if (!terminated) {
      const message = error instanceof Error ? error.message : excerpt(error);
      pushOwn(ev.runError(`the event stream failed: ${message}`, { code: "STREAM_ERROR" }));
      terminated = true;
    }
    finish();
  };
  /** The reader cannot keep up: stop the run with what is queued and one final RUN_ERROR. */
  const overflow = (frameSize: number): void => {
    const reason = new SlowConsumerError(queue.bytes + frameSize, maxBufferedBytes);
    if (!terminated && options.slowConsumer !== "end") pushOwn(ev.runError(reason.message, { code: SLOW_CONSUMER_CODE }));
    terminated = true;
    finished = true; // before the abort, so the source's reaction to it (an error) adds nothing
    stopping.abort(reason);
    finish();
  };
  const push = (item: Event | CursorFrame): void => {
    if (finished || closed || parkedAfter !== undefined) return; // parked: the source sends the rest again after `parkedAfter`
    const event = "type" in item ? item : item.event;
    const cursor = "type" in item ? undefined : item.cursor;
    let frame: Frame;
    try {
      frame = pool === undefined ? { bytes: encodeFrame(event, cursor) } : pool.take(event, cursor);
    } catch (error) {
      fail(error);
      return;
    }
    if (queue.bytes + frame.bytes.byteLength > maxBufferedBytes) {
      pool?.release(frame);
      overflow(frame.bytes.byteLength);
      return;
    }
    if (isTerminal(event)) terminated = true;
    queue.push(frame);
    watchIdle();
    notify();
    if (options.resumeAfter !== undefined && cursor !== undefined && !terminated && queue.bytes >= PARK_BYTES) park(cursor);
  };
  /** The reader is not reading: let the source go after `cursor` (the last queued frame's); `pull` picks it up again. */
  const park = (cursor: string): void => {
    parkedAfter = cursor;
    subscription?.unsubscribe();
    subscription = undefined; // unset during a synchronous subscribe: `follow` lets it go when that returns
  };
  /** Subscribes `events$`: what it sends is queued, its end ends the stream; it is let go at once if the stream stopped or parked meanwhile. */
  const follow = (events$: Observable<Event | CursorFrame>): void => {
    // While parked, what the source says is for later: its events and its end come again after `parkedAfter`.
    const followed = events$.subscribe({
      next: push,
      error: (error: unknown) => (parkedAfter === undefined ? fail(error) : undefined),
      complete: () => (parkedAfter === undefined ? finish() : undefined),
    });
    if (finished || closed || parkedAfter !== undefined) followed.unsubscribe();
    else subscription = followed;
  };
  /** The reader took what waited: follow the source again from where it was let go. */
  const unpark = (cursor: string): void => {
    parkedAfter = undefined;
    let events$: Observable<CursorFrame>;
    try {
      events$ = (options.resumeAfter ?? never)(cursor);
    } catch (error) {
      fail(error);
      return;
    }
    follow(events$);
  };
  const close = (reason: unknown): void => {
    if (closed) return;
    closed = true;
    queue.clear();
    unwatchIdle();
    turn?.leave();
    writeTurn?.leave();
    signal?.removeEventListener("abort", onAbort);
    if (!finished) stopping.abort(reason);
    subscription?.unsubscribe();
    release();
    notify();
  };
  function onAbort(): void {
    close(signal?.reason ?? new DOMException("the client went away", "AbortError"));
  }

  /** `gatherWrites`: waits while frames keep arriving, until the source pauses for a turn, a chunk is full or the stream ends. */
  const gather = async (): Promise<void> => {
    for (let waits = 0; waits < MAX_GATHER_TURNS && !finished && !closed && queue.bytes < MAX_CHUNK_BYTES; waits++) {
      const queued = queue.length;
      await nextMacrotask();
      if (queue.length === queued) return;
    }
  };

  const start = (): void => {
    started = true;
    turn = turns.join();
    let events$: Observable<Event | CursorFrame>;
    try {
      events$ = typeof source === "function" ? source(ready, stopping.signal) : source;
    } catch (error) {
      fail(error); // a factory that throws is a failed run, reported in-band like any other
      return;
    }
    // The source may finish, be closed or park while subscribing, before `subscription` is set.
    follow(events$);
  };

  if (signal?.aborted) closed = true;
  else signal?.addEventListener("abort", onAbort, { once: true });

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body = controller;
      },
      async pull(controller) {
        reading = true;
        unwatchIdle();
        if (!started && !closed) start();
        if (parkedAfter !== undefined && queue.length === 0 && !finished && !closed) unpark(parkedAfter);
        let waited = false;
        while (queue.length === 0 && !finished && !closed) {
          waited = true;
          await new Promise<void>((resolve) => (wake = resolve));
        }
        if (waited && options.gatherWrites === true) await gather();
        writeTurn ??= options.writeTurns?.join();
        const turnToWrite = closed ? undefined : writeTurn?.pause();
        if (turnToWrite !== undefined) await turnToWrite;
        reading = false;
        if (queue.length > 0) {
          if (options.uncopiedFrames === true) for (const c of queue.takeFrames()) controller.enqueue(c);
          else controller.enqueue(queue.takeChunk());
          release();
        }
        if (closed || (finished && queue.length === 0)) {
          writeTurn?.leave();
          try {
            controller.close();
          } catch {
            // Already cancelled by the reader: nothing left to close.
          }
        } else if (queue.length > 0) watchIdle(); // the rest waits until the reader asks again
      },
      cancel: (reason) => close(reason ?? new DOMException("the response body was cancelled", "AbortError")),
    },
    // No read-ahead: the stream asks for a chunk only when its reader does, so the reader's pace
    // is the producer's pace.
    { highWaterMark: 0 },
  );
}

function never(cursor: string): Observable<CursorFrame> {
  throw new Error(`expected a resumeAfter to pick the source up after cursor ${JSON.stringify(cursor)}, but the stream has none`);
}
