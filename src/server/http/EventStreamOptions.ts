/** What `toEventStream` takes: its source (events, or a factory handed the pace) and the options of its pacing and ending. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { StoreClock } from "../store/StoreClock";
import type { FairTurns } from "./fairTurns";
import type { TailFrames } from "./TailFrames";

/**
 * Resolves when the stream can take more events: its queue is under the high-water mark.
 *
 * @example
 * for await (const token of model) { await ready(); subscriber.next(ev.textMessageContent("m1", token)); }
 */
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
  /** The event's JSON text when the source has it (`StoredEvent.json`): exactly `JSON.stringify(event)`, written in its place. */
  readonly json?: string | undefined;
}

/**
 * A frame that is not an AG-UI event: its `data:` line as it is, one line of our own JSON (a
 * thread-list change, docs/threads.md#the-thread-list; a queue notice, docs/queue.md#on-the-wire),
 * preceded by `event: <name>` when it has a `name` (so that a reader of AG-UI events, which reads
 * unnamed frames only, passes it by). Never a terminal event, never with `id:`.
 *
 * @example
 * const frame: DataFrame = { data: JSON.stringify({ type: "deleted", threadId: "t1" }) };
 * const notice: DataFrame = { name: "agui-rx-queue", data: JSON.stringify({ id: "r3", status: "queued" }) };
 */
export interface DataFrame {
  readonly data: string;
  /** The SSE event name (one line: no CR, LF or NUL); absent for an unnamed frame. */
  readonly name?: string;
}

/**
 * What the factory form of `toEventStream`'s source is handed: the pace to follow and the signal
 * that says the stream is over.
 *
 * @example
 * const source: EventSource = (ready, signal) => run(agent, input, { ready, signal });
 */
export type EventSource = (ready: Ready, signal: AbortSignal) => Observable<Event | CursorFrame | DataFrame>;

/**
 * What a stream tells the server's metrics (docs/observability.md#metrics): called per read, never
 * per event, and only with a handler's metrics (`createHandler` passes them; a bare `toEventStream`
 * has none and pays nothing).
 *
 * @example
 * const metrics: StreamMetrics = { sent: (frames) => counter.add(frames), stopped: (reason) => log(reason) };
 */
export interface StreamMetrics {
  /** A read handed `frames` frames (events and named notices; a heartbeat is not counted) to the reader. */
  readonly sent: (frames: number) => void;
  /** The stream was cut for its reader: a `SlowConsumerError` past the cap, or an `IdleWriteError`. */
  readonly stopped: (reason: unknown) => void;
}

/**
 * How the stream paces and ends.
 *
 * @example
 * const options: EventStreamOptions = { signal: request.signal, slowConsumer: "end", frames: sharedTailFrames, idleWriteTimeoutMs: 30_000 };
 */
export interface EventStreamOptions {
  /**
   * Queued events at or above which `ready()` waits for the reader (default 16). Each read takes
   * the queued frames as one chunk (up to 64 KiB of them), so this is also the most events one
   * chunk carries while the producer respects `ready()`.
   */
  readonly highWaterMark?: number;
  /**
   * The send-buffer cap (default 16 MiB): the most bytes of encoded events queued for a reader that
   * does not keep up. An event that would take the queue past it stops the run (the source's signal
   * aborts with a `SlowConsumerError`, the source is unsubscribed) and the stream ends with what was
   * queued and one final RUN_ERROR (code `SLOW_CONSUMER`). Sizes are the encoded frames' UTF-8
   * bytes, what the queue holds in memory (a frame shared with other responses counts in each).
   * `ready()` also waits while half the cap is queued, so a producer that awaits it never reaches
   * the cap with events smaller than half of it.
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
  /**
   * Where the frames come from (default: encoded for this stream alone): a pool shared by the
   * responses that may queue the same event (a store's tails), which encodes each event once and
   * counts its bytes once (`TailFrames`).
   */
  readonly frames?: TailFrames;
  /**
   * Closes the stream when frames waited and its reader asked for none of them for this long, in
   * ms (default: never): the body errors with an `IdleWriteError` (the runtime cuts the
   * connection), the queue is dropped and the source let go, its signal aborted with that error.
   * A reader that is waiting, or has nothing queued for it, is never idle.
   */
  readonly idleWriteTimeoutMs?: number;
  /** The clock of the idle-write timer and of the heartbeat (default `systemClock`). */
  readonly clock?: StoreClock;
  /**
   * Sends a heartbeat, an SSE comment line (`: heartbeat`, then the blank line), when the reader
   * waits for a frame and nothing was handed to it for this long, in ms (default: never;
   * docs/http.md#heartbeats). A comment is no event: every SSE reader passes it by, it carries no
   * `id:` (the reader's `Last-Event-ID` stays the last event's), and it is queued only while a read
   * waits with nothing queued, so it never waits unread (the idle-write timeout does not see it) and
   * never counts against `maxBufferedBytes`. The timer runs on `clock` and only during such a wait.
   */
  readonly heartbeatMs?: number | undefined;
  /**
   * Gathers frames that keep arriving into fewer, larger chunks (default `false`): a read that had
   * to wait for a frame then waits one macrotask at a time while more arrive, until the source
   * pauses for a turn, 64 KiB are queued or it ended (at most 16 turns). Many readers of one
   * source (a store's tails) then cost one socket write per read each, not one per event.
   */
  readonly gatherWrites?: boolean;
  /**
   * Hands a read's frames on one by one, each the shared bytes every tail queued (`frames`),
   * instead of copying them into one chunk (default `false`): the writer gathers them into one
   * socket write itself (Node's `writev`), so nothing is copied or allocated per tail (measured:
   * half the server's CPU for 500 unread tails). Only for many readers of one source (`/connect`
   * tails): one reader of a saturated run writes far faster in copied 64 KiB chunks (the server
   * bench: 0.58× no store with single frames, against about 1× copied).
   */
  readonly uncopiedFrames?: boolean;
  /**
   * Turns a read waits for before it takes a chunk (default none): the writes of streams that
   * share them (a process's `/connect` tails) then take a bounded part of each event-loop turn, and
   * the runs and their own responses keep the rest.
   */
  readonly writeTurns?: FairTurns;
  /**
   * Where the source can be picked up again after a frame with a cursor (a store's tail after that
   * cursor). With it, a reader that stops taking frames stops costing anything per event: once
   * `PARK_BYTES` of frames wait unread, the stream lets the source go after the last queued frame
   * that has a cursor, and subscribes `resumeAfter(cursor)` when the reader has taken what was
   * queued. Only for sources whose every cursor is such a point (a `/connect` stream: the events as
   * logged, and a prelude whose one cursor is where its tail starts); never for a run's own
   * response, whose source is the run.
   */
  readonly resumeAfter?: (cursor: string) => Observable<CursorFrame>;
  /** Where frames sent and cuts are counted (default: nowhere); see `StreamMetrics`. */
  readonly metrics?: StreamMetrics | undefined;
}
