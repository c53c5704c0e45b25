/** An `Observable<Event>` as a pull-based SSE byte stream whose reader paces the producer. */
import type { Observable, Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import { ev } from "../../protocol/build";
import { excerpt } from "../../protocol/describeFailure";
import { encodeSse } from "../../wire/encodeSse";
import { sharedTurns, type FairTurns, type StreamTurn } from "./fairTurns";
import { SLOW_CONSUMER_CODE, SlowConsumerError } from "./SlowConsumerError";

/** Resolves when the stream can take more events: its queue is under the high-water mark. */
export type Ready = () => Promise<void>;

/**
 * An event and the SSE `id:` to send with it (a store's cursor: `StoredEvent` and `ConnectFrame`
 * fit); without a cursor the frame has no `id:`.
 *
 * @example
 * const frame: CursorFrame = { event: ev.textMessageContent("m1", "Hi"), cursor: "c7" };
 */
export interface CursorFrame {
  readonly event: Event;
  readonly cursor?: string;
}

/**
 * What the factory form of `toEventStream`'s source is handed: the pace to follow and the signal
 * that says the stream is over.
 */
export type EventSource = (ready: Ready, signal: AbortSignal) => Observable<Event | CursorFrame>;

/** How the stream paces and ends. */
export interface EventStreamOptions {
  /**
   * Queued events at or above which `ready()` waits for the reader (default 16). Each read takes
   * the queued frames as one chunk (up to 64 Ki characters of them), so this is also the most
   * events one chunk carries while the producer respects `ready()`.
   */
  readonly highWaterMark?: number;
  /**
   * The send-buffer cap (default 16 MiB): the most bytes of encoded events queued for a reader that
   * does not keep up. An event that would take the queue past it stops the run (the source's signal
   * aborts with a `SlowConsumerError`, the source is unsubscribed) and the stream ends with what was
   * queued and one final RUN_ERROR (code `SLOW_CONSUMER`). Sizes are the frames' string lengths
   * (UTF-16 code units): the UTF-8 size for ASCII text, within 3× of it otherwise, and about what
   * the queued strings hold in memory. `ready()` also waits while half the cap is queued, so a
   * producer that awaits it never reaches the cap with events smaller than half of it.
   */
  readonly maxBufferedBytes?: number;
  /** Aborting it (the request's signal: the client went away) unsubscribes and ends the stream. */
  readonly signal?: AbortSignal;
  /**
   * How the streams of this process share the event loop (default `sharedTurns`): once a stream's
   * time slice is used up, its next `ready()` resolves in a later macrotask, so concurrent runs
   * interleave instead of one streaming to its end while the others wait.
   */
  readonly turns?: FairTurns;
  /**
   * What a reader too slow for `maxBufferedBytes` gets: `fail` (the default) ends the stream with
   * one final RUN_ERROR `SLOW_CONSUMER`; `end` ends it after what was queued, without a terminal
   * event, so that a client that can resume (the frames carry `id:`) reconnects and reads the rest
   * at its own pace from where the run is kept. Either way the source is let go and the factory's
   * signal aborts with the `SlowConsumerError`.
   */
  readonly slowConsumer?: "fail" | "end";
}

/** The default high-water mark, in events. */
export const DEFAULT_HIGH_WATER_MARK = 16;

/** The default send-buffer cap: 16 MiB of queued events per response. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** The most text one read takes from the queue (one frame more if a single frame is larger): 64 Ki code units. */
const MAX_CHUNK_LENGTH = 64 * 1024;

/**
 * Streams the events as SSE frames (`data: <json>\n\n`, UTF-8; `id: <cursor>\n` first for a
 * `CursorFrame` with a cursor), pulled by the reader.
 *
 * - Cold: the source is subscribed on the first read, not before; unsubscribed when the reader
 *   cancels, when `signal` aborts, and after the source completes. The factory form is handed a
 *   signal too, aborted with the reason whenever the stream stops early (an `AbortError` when
 *   the client went away, a `SlowConsumerError` past the cap); `run()` takes it as its `signal`.
 * - Backpressure: RxJS cannot pause an Observable, so events are queued as encoded frames and each
 *   read takes the queue as one chunk (up to 64 Ki characters of frames, so a long queue drains in
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
  const encoder = new TextEncoder();
  /** Aborted with the reason whenever the stream stops before the source finished. */
  const stopping = new AbortController();

  let queue: string[] = [];
  /** The queued frames' total length (see `maxBufferedBytes`). */
  let queuedSize = 0;
  let subscription: Subscription | undefined;
  let turn: StreamTurn | undefined;
  let started = false;
  /** The source completed or failed; what is queued is all there will be. */
  let finished = false;
  /** The reader went away or the signal aborted; nothing more is read or sent. */
  let closed = false;
  /** A run-level terminal event was queued, so a late failure adds no second one. */
  let terminated = false;
  /** The pending read waiting for a frame. */
  let wake: (() => void) | undefined;
  /** Producers waiting in `ready()`. */
  let waiters: (() => void)[] = [];

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
  const full = (): boolean => queue.length >= highWaterMark || queuedSize * 2 >= maxBufferedBytes;
  const room = (): Promise<void> =>
    closed || finished || !full() ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
  const ready: Ready = () => {
    const pause = closed || finished ? undefined : turn?.pause();
    return pause === undefined ? room() : pause.then(room);
  };

  const finish = (): void => {
    finished = true;
    turn?.leave();
    signal?.removeEventListener("abort", onAbort);
    subscription?.unsubscribe();
    release();
    notify();
  };
  const fail = (error: unknown): void => {
    if (finished || closed) return;
    if (!terminated) {
      const message = error instanceof Error ? error.message : excerpt(error);
      queue.push(encodeSse(ev.runError(`the event stream failed: ${message}`, { code: "STREAM_ERROR" })));
      terminated = true;
    }
    finish();
  };
  /** The reader cannot keep up: stop the run with what is queued and one final RUN_ERROR. */
  const overflow = (frameSize: number): void => {
    const reason = new SlowConsumerError(queuedSize + frameSize, maxBufferedBytes);
    if (!terminated && options.slowConsumer !== "end") queue.push(encodeSse(ev.runError(reason.message, { code: SLOW_CONSUMER_CODE })));
    terminated = true;
    finished = true; // before the abort, so the source's reaction to it (an error) adds nothing
    stopping.abort(reason);
    finish();
  };
  const push = (item: Event | CursorFrame): void => {
    if (finished || closed) return;
    const event = "type" in item ? item : item.event;
    const cursor = "type" in item ? undefined : item.cursor;
    let frame: string;
    try {
      frame = encodeSse(event);
    } catch (error) {
      fail(new Error(`a ${event.type} event could not be encoded as JSON (${error instanceof Error ? error.message : excerpt(error)})`));
      return;
    }
    if (cursor !== undefined) {
      // An id line ends at the first CR or LF, and one with NUL is ignored (SSE): such a cursor cannot be sent.
      if (/[\r\n\0]/.test(cursor)) {
        fail(new Error(`expected a cursor that can be an SSE id (no CR, LF or NUL), but got ${JSON.stringify(cursor)}`));
        return;
      }
      frame = `id: ${cursor}\n${frame}`;
    }
    if (queuedSize + frame.length > maxBufferedBytes) {
      overflow(frame.length);
      return;
    }
    if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") terminated = true;
    queue.push(frame);
    queuedSize += frame.length;
    notify();
  };
  const close = (reason: unknown): void => {
    if (closed) return;
    closed = true;
    queue = [];
    queuedSize = 0;
    turn?.leave();
    signal?.removeEventListener("abort", onAbort);
    if (!finished) stopping.abort(reason);
    subscription?.unsubscribe();
    release();
    notify();
  };
  function onAbort(): void {
    close(signal?.reason ?? new DOMException("the client went away", "AbortError"));
  }

  /**
   * Takes the queue's first frames, up to `MAX_CHUNK_LENGTH` of them in all (at least one frame),
   * as one string. Bounded chunks keep what the writer holds small while the queue is long, and
   * let a large queue's memory go back frame by frame instead of after one huge write.
   */
  const takeChunk = (): string => {
    let count = 0;
    let size = 0;
    while (count < queue.length && (count === 0 || size + queue[count].length <= MAX_CHUNK_LENGTH)) size += queue[count++].length;
    const taken = count === queue.length ? queue : queue.splice(0, count);
    if (taken === queue) queue = [];
    queuedSize -= size;
    return taken.length === 1 ? taken[0] : taken.join("");
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
    subscription = events$.subscribe({ next: push, error: fail, complete: finish });
    // The source may have finished (or been closed) while subscribing, before `subscription` was set.
    if (finished || closed) subscription.unsubscribe();
  };

  if (signal?.aborted) closed = true;
  else signal?.addEventListener("abort", onAbort, { once: true });

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started && !closed) start();
        while (queue.length === 0 && !finished && !closed) await new Promise<void>((resolve) => (wake = resolve));
        if (queue.length > 0) {
          controller.enqueue(encoder.encode(takeChunk()));
          release();
        }
        if (closed || (finished && queue.length === 0)) {
          try {
            controller.close();
          } catch {
            // Already cancelled by the reader: nothing left to close.
          }
        }
      },
      cancel: (reason) => close(reason ?? new DOMException("the response body was cancelled", "AbortError")),
    },
    // No read-ahead: the stream asks for a chunk only when its reader does, so the reader's pace
    // is the producer's pace.
    { highWaterMark: 0 },
  );
}
