import type { OperatorFunction, Subscriber } from "rxjs";
import { operate, SourceObserver } from "../rx/operate";
import { runInBatch } from "../rx/runInBatch";
import { SseIdField, SseRetryField, type SseControl } from "./SseControl";
import type { SseFrame } from "./SseFrame";
import { SseFrameReader } from "./SseFrameReader";
import type { DecodeError } from "./DecodeError";

export type { SseFrame } from "./SseFrame";

/**
 * Options of `decodeSseFrames()` and `decodeSse()`.
 *
 * @example
 * response$.pipe(decodeSse({ maxFrameBytes: 1024 * 1024 }))
 */
export interface DecodeSseOptions {
  /**
   * Largest frame accepted, counted in decoded characters (UTF-16 code units; equal to bytes for
   * ASCII, never more than the UTF-8 byte count) of everything between two blank lines.
   * Defaults to `DEFAULT_MAX_FRAME_BYTES` (16 MiB).
   */
  readonly maxFrameBytes?: number | undefined;
  /**
   * `decodeSse` only: the nesting limit of a frame's JSON (arrays and objects); deeper is a
   * `too-deep` error naming the path and the limit. Defaults to `DEFAULT_MAX_JSON_DEPTH` (512).
   */
  readonly maxDepth?: number | undefined;
}

/**
 * The option of `decodeSseFrames()` and `decodeSse()` that turns in-band stream controls on:
 * `controls: true` emits an `SseIdField` each time a dispatched block sets the last event ID (with
 * data or without; right before its frame or event) and an `SseRetryField` for each `retry:` of
 * ASCII digits. Without it they are parsed and dropped (a frame still carries its own `id`). Apart
 * from `DecodeSseOptions` so that the output type follows it.
 *
 * @example
 * body$.pipe(decodeSseFrames({ controls: true }))
 */
export interface SseControlsOption {
  readonly controls: true;
}

/**
 * The default frame-size limit of `decodeSseFrames()`: 16 MiB.
 *
 * @example
 * decodeSseFrames({ maxFrameBytes: DEFAULT_MAX_FRAME_BYTES / 4 })
 */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

/**
 * An operator from a stream of text or UTF-8 byte chunks to its SSE frames, with spec framing:
 * LF, CR and CRLF line ends (also a CRLF split across two chunks), `data:` lines joined with `\n`,
 * comments, `id:`/`event:`/`retry:` read (reported in-band with `controls: true`), one leading space after the colon stripped; a frame
 * without data lines is skipped, and a last frame without its blank line is discarded at
 * completion, as the SSE spec says (revised: it used to be emitted). Bytes are decoded as streaming UTF-8 (a code point may be split across chunks;
 * invalid sequences become U+FFFD). A frame over `maxFrameBytes` errors the stream with a
 * `DecodeError` of code `frame-too-large` as soon as the limit is passed, without buffering the
 * rest of it. Cold: each subscription has its own decoder; unsubscribing unsubscribes the source.
 *
 * Decision (the reference client differs): a bare `data` line without a colon is, as the SSE spec
 * says, a data line with an empty value.
 *
 * @example
 * of("data: {\"a\":1}\r\n\r\n: ping\n\ndata: x\n").pipe(decodeSseFrames())
 * // emits { data: "{\"a\":1}" }, then { data: "x" }
 */
export function decodeSseFrames(options: DecodeSseOptions & SseControlsOption): OperatorFunction<string | Uint8Array, SseFrame | SseControl>;
export function decodeSseFrames(options?: DecodeSseOptions): OperatorFunction<string | Uint8Array, SseFrame>;
export function decodeSseFrames(options: DecodeSseOptions & Partial<SseControlsOption> = {}): OperatorFunction<string | Uint8Array, SseFrame | SseControl> {
  return readSseFrames<SseFrame | SseControl>(
    options,
    (frame, subscriber) => subscriber.next(frame),
    undefined,
    options.controls === true ? (control, subscriber) => subscriber.next(control) : undefined,
  );
}

/**
 * The frame-size limit of `options`, checked: a RangeError for anything but a positive number.
 * Internal to the wire layer.
 *
 * @example
 * frameLimitOf({}) // DEFAULT_MAX_FRAME_BYTES
 */
export function frameLimitOf(options: DecodeSseOptions): number {
  const max = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
  if (!(max > 0)) throw new RangeError(`decodeSseFrames: expected maxFrameBytes to be a positive number, got ${String(max)}`);
  return max;
}

/**
 * Builds an operator that reads SSE frames from text or byte chunks and hands each to `onFrame`
 * together with the output subscriber (which it may `next` or `error`). `onTruncated`, when given,
 * hears of a last frame that was discarded because the body ended before its blank line (it may
 * error the subscriber; completion follows otherwise). Shared by `decodeSseFrames()` and
 * `decodeSse()` so that both decode in one pass, with one subscriber. `onControl`, when given, hears
 * of every `id:` (at its block's dispatch, before the block's frame) and `retry:` (see
 * `DecodeSseOptions.controls`). Internal to the wire layer (not re-exported from the package root).
 *
 * @example
 * const lengths = readSseFrames<number>({}, (frame, out) => out.next(frame.data.length));
 */
export function readSseFrames<T>(
  options: DecodeSseOptions,
  onFrame: (frame: SseFrame, subscriber: Subscriber<T>) => void,
  onTruncated?: (lost: { readonly data: string }, subscriber: Subscriber<T>) => void,
  onControl?: (control: SseControl, subscriber: Subscriber<T>) => void,
): OperatorFunction<string | Uint8Array, T> {
  const max = frameLimitOf(options);
  return operate<string | Uint8Array, T>((source, subscriber) => {
    const fields =
      onControl === undefined
        ? {}
        : { onId: (id: string) => onControl(new SseIdField(id), subscriber), onRetry: (ms: number) => onControl(new SseRetryField(ms), subscriber) };
    const reader = new SseFrameReader(
      max,
      (frame) => onFrame(frame, subscriber),
      () => subscriber.closed,
      fields,
    );
    let decoder: TextDecoder | undefined;
    // The frames of one chunk (one read of the body) are one delivery batch (`runInBatch`): a stage
    // downstream may publish once for all of them (the client's state, `applyEvents`).
    const feedText = (): DecodeError | undefined => reader.feed(pending);
    let pending = "";
    const feed = (text: string): boolean => {
      pending = text;
      const error = runInBatch(feedText);
      pending = "";
      if (error) subscriber.error(error);
      return !error && !subscriber.closed;
    };
    // A synchronous source pushes everything before `subscribe` returns a subscription to cancel:
    // the SourceObserver closes with the output (after an error), so it sees that we stopped.
    source.subscribe(
      new SourceObserver(subscriber, {
        next: (chunk) => {
          if (typeof chunk === "string") {
            // Bytes before a string: whatever partial code point they left becomes U+FFFD.
            const rest = decoder?.decode() ?? "";
            feed(rest ? rest + chunk : chunk);
          } else {
            decoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
            feed(decoder.decode(chunk, { stream: true }));
          }
        },
        complete: () => {
          if (subscriber.closed) return;
          const rest = decoder?.decode() ?? "";
          if (rest && !feed(rest)) return;
          const lost = reader.finish();
          if (lost !== undefined) onTruncated?.(lost, subscriber);
          subscriber.complete(); // a no-op if onTruncated errored it
        },
      }),
    );
    return () => reader.clear();
  });
}
