/** An `Observable<Event>` as a pull-based SSE byte stream whose reader paces the producer. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import { reportsProgress } from "./BodyProgress";
import { readsDirectly } from "./DirectBody";
import { EventStreamPump } from "./EventStreamPump";
import type { CursorFrame, DataFrame, EventSource, EventStreamOptions } from "./EventStreamOptions";
import { MAX_CHUNK_BYTES } from "./FrameQueue";

export type { CursorFrame, DataFrame, EventSource, EventStreamOptions, Ready } from "./EventStreamOptions";

/** The default high-water mark, in events. */
export const DEFAULT_HIGH_WATER_MARK = 16;

/** The default send-buffer cap: 16 MiB of queued events per response. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/**
 * Bytes of frames left unread at which a stream with `resumeAfter` lets its source go (four
 * chunks): a reader that stopped reading (a paused socket) then costs nothing per event, while one
 * that reads, even slowly, seldom reaches it between two reads.
 */
export const PARK_BYTES = 4 * MAX_CHUNK_BYTES;

/**
 * Streams the events as SSE frames (`data: <json>\n\n`, UTF-8; `id: <cursor>\n` first for a
 * `CursorFrame` with a cursor; a `DataFrame`'s own line), pulled by the reader. With `frames`, frames are shared with the
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
 *   `maxBufferedBytes`: past it the run is stopped (see the option). A read of the factory form
 *   takes the producer's burst whole: it answers when `ready()` waits or gives way, or a macrotask
 *   later at the latest (docs/http.md#backpressure).
 * - Fairness: `ready()` also yields a macrotask once the stream's slice of `turns` is used up.
 * - Heartbeats: with `heartbeatMs`, a read that waits that long after the last write gets a
 *   `: heartbeat` comment (no event, no `id:`); `heartbeatOf(body)` tells the interval, which
 *   `createHandler`'s answers announce in `AGUI-Heartbeat` (docs/http.md#heartbeats).
 * - Errors: a source error, or an event that cannot be encoded as JSON, becomes one final
 *   `RUN_ERROR` (code `STREAM_ERROR`) unless a `RUN_FINISHED`/`RUN_ERROR` was already sent; then the
 *   stream ends normally (headers are long gone, the only channel left is in-band).
 *
 * @example
 * const body = toEventStream((ready, signal) => run(agent, input, { ready, signal }), { signal: request.signal });
 * return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
 */
export function toEventStream(source: Observable<Event | CursorFrame | DataFrame> | EventSource, options: EventStreamOptions = {}): ReadableStream<Uint8Array> {
  const pump = new EventStreamPump(source, options, {
    highWaterMark: Math.max(1, options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK),
    maxBufferedBytes: Math.max(1, options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES),
    parkBytes: PARK_BYTES,
  });
  const body = new ReadableStream<Uint8Array>(
    { start: (controller) => pump.start(controller), pull: (controller) => pump.pull(controller), cancel: (reason) => pump.cancel(reason) },
    // No read-ahead: the stream asks for a chunk only when its reader does, so the reader's pace
    // is the producer's pace.
    { highWaterMark: 0 },
  );
  if (options.heartbeatMs !== undefined) heartbeats.set(body, options.heartbeatMs);
  reportsProgress(body, pump.progress);
  readsDirectly(body, pump);
  return body;
}

/** Each body's heartbeat interval, so that the response that sends it announces exactly what it does. */
const heartbeats = new WeakMap<ReadableStream<Uint8Array>, number>();

/**
 * The heartbeat interval (ms) a `toEventStream` body sends with (its `heartbeatMs`), or
 * `undefined` when it sends none or is another stream: what its response announces in the
 * `AGUI-Heartbeat` header (docs/http.md#heartbeats).
 *
 * @example
 * heartbeatOf(toEventStream(events$, { heartbeatMs: 15_000 })); // 15000
 */
export function heartbeatOf(body: ReadableStream<Uint8Array>): number | undefined {
  return heartbeats.get(body);
}
