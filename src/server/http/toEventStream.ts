/** An `Observable<Event>` as a pull-based SSE byte stream whose reader paces the producer. */
import type { Observable, Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import { ev } from "../../protocol/build";
import { encodeSse } from "../../wire/encodeSse";

/** Resolves when the stream can take more events: its queue is under the high-water mark. */
export type Ready = () => Promise<void>;

/** How the stream paces and ends. */
export interface EventStreamOptions {
  /**
   * Queued events at or above which `ready()` waits for the reader (default 16). The queue is
   * flushed as one chunk per read, so this is also the most events one chunk carries while the
   * producer respects `ready()`.
   */
  readonly highWaterMark?: number;
  /** Aborting it (the request's signal: the client went away) unsubscribes and ends the stream. */
  readonly signal?: AbortSignal;
}

/** The default high-water mark, in events. */
export const DEFAULT_HIGH_WATER_MARK = 16;

/**
 * Streams the events as SSE frames (`data: <json>\n\n`, UTF-8), pulled by the reader.
 *
 * - Cold: the source is subscribed on the first read, not before; unsubscribed when the reader
 *   cancels, when `signal` aborts, and after the source completes.
 * - Backpressure: RxJS cannot pause an Observable, so events are queued as encoded frames and each
 *   read takes the whole queue as one chunk. A producer that awaits `ready` (given to the factory
 *   form of `source`) is paced by the reader: `ready()` waits while `highWaterMark` or more frames
 *   are queued, so at most that many frames wait in memory however slow the client is. A producer
 *   that ignores `ready` is never blocked; its events queue up (the queue length is the figure to
 *   watch), exactly as a Subject would buffer them.
 * - Errors: a source error, or an event that cannot be encoded as JSON, becomes one final
 *   `RUN_ERROR` (code `STREAM_ERROR`) unless a `RUN_FINISHED`/`RUN_ERROR` was already sent; then the
 *   stream ends normally (headers are long gone, the only channel left is in-band).
 *
 * @example
 * const body = toEventStream((ready) => produce(ready), { signal: request.signal });
 * return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
 */
export function toEventStream(
  source: Observable<Event> | ((ready: Ready) => Observable<Event>),
  options: EventStreamOptions = {},
): ReadableStream<Uint8Array> {
  const highWaterMark = Math.max(1, options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK);
  const signal = options.signal;
  const encoder = new TextEncoder();

  let queue: string[] = [];
  let subscription: Subscription | undefined;
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
  const ready: Ready = () =>
    closed || finished || queue.length < highWaterMark ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));

  const finish = (): void => {
    finished = true;
    signal?.removeEventListener("abort", close);
    subscription?.unsubscribe();
    release();
    notify();
  };
  const fail = (error: unknown): void => {
    if (finished || closed) return;
    if (!terminated) {
      const message = error instanceof Error ? error.message : String(error);
      queue.push(encodeSse(ev.runError(`the event stream failed: ${message}`, { code: "STREAM_ERROR" })));
      terminated = true;
    }
    finish();
  };
  const push = (event: Event): void => {
    if (finished || closed) return;
    let frame: string;
    try {
      frame = encodeSse(event);
    } catch (error) {
      fail(new Error(`a ${event.type} event could not be encoded as JSON (${error instanceof Error ? error.message : String(error)})`));
      return;
    }
    if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") terminated = true;
    queue.push(frame);
    notify();
  };
  function close(): void {
    if (closed) return;
    closed = true;
    queue = [];
    signal?.removeEventListener("abort", close);
    subscription?.unsubscribe();
    release();
    notify();
  }

  const start = (): void => {
    started = true;
    let events$: Observable<Event>;
    try {
      events$ = typeof source === "function" ? source(ready) : source;
    } catch (error) {
      fail(error); // a factory that throws is a failed run, reported in-band like any other
      return;
    }
    subscription = events$.subscribe({ next: push, error: fail, complete: finish });
    // The source may have finished (or been closed) while subscribing, before `subscription` was set.
    if (finished || closed) subscription.unsubscribe();
  };

  if (signal?.aborted) closed = true;
  else signal?.addEventListener("abort", close, { once: true });

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started && !closed) start();
        while (queue.length === 0 && !finished && !closed) await new Promise<void>((resolve) => (wake = resolve));
        if (queue.length > 0) {
          const text = queue.length === 1 ? queue[0] : queue.join("");
          queue = [];
          controller.enqueue(encoder.encode(text));
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
      cancel: close,
    },
    // No read-ahead: the stream asks for a chunk only when its reader does, so the reader's pace
    // is the producer's pace.
    { highWaterMark: 0 },
  );
}
