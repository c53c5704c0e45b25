import { defer, type OperatorFunction, type Subscriber } from "rxjs";
import type { Event } from "../protocol/events";
import { DEFAULT_MAX_JSON_DEPTH } from "../protocol/jsonDepth";
import type { Stripped } from "../protocol/unrecognised";
import { DecodeError } from "./DecodeError";
import { DecodeWarning } from "./DecodeWarning";
import type { SseControl } from "./SseControl";
import { SseNamedFrame } from "./SseNamedFrame";
import { decodeEventValue, Dropped, type EventDecoding } from "./decodeEvent";
import { frameLimitOf, readSseFrames, type DecodeSseOptions, type SseControlsOption, type SseFrame } from "./decodeSseFrames";

/** How much of a payload that is not JSON, or of a lost frame, an error message quotes. */
const QUOTED = 80;

/**
 * Options of `decodeSse()`: those of `decodeSseFrames()` plus the JSON nesting limit, and whether
 * stripped material is reported in-band.
 *
 * @example
 * body$.pipe(decodeSse({ warnings: true, maxDepth: 128 }))
 */
export interface DecodeSseEventOptions extends DecodeSseOptions {
  /**
   * `true`: every piece of material stripped under AG-UI 1.1's processing model is emitted as a
   * `DecodeWarning` right before the (stripped) event, and an event dropped whole leaves only its
   * warning. `false` (the default): stripping is silent and dropped events are skipped.
   */
  readonly warnings?: boolean | undefined;
  /**
   * `event:` names whose frames are handed on as `SseNamedFrame`s, undecoded (the caller reads
   * them: a queued message's `agui-rx-queue` notices, docs/queue.md#on-the-wire). Frames of any
   * other name, or none, are events as always.
   */
  readonly named?: readonly string[] | undefined;
}

/**
 * An operator from an SSE body (text or UTF-8 byte chunks) to AG-UI events: each frame's data is
 * parsed as JSON and decoded as `decodeEvent` does (lenient on nulls, defaults filled, material the
 * protocol does not describe stripped; see `warnings`). Framing and the frame-size limit are those
 * of `decodeSseFrames()`. The stream errors with a `DecodeError` at the first frame that fails:
 * code `json` when the data is not JSON (the message quotes its start), `too-deep` past `maxDepth`,
 * otherwise the code `decodeEvent` gave (`unknown-type`, `invalid-event`, `not-an-event`). A body
 * that ends inside a frame (before the blank line that ends it) errors with code `truncated`,
 * "truncated mid-frame": that frame is lost, as the SSE spec says, whether or not its JSON was
 * whole. Events before the failure are delivered. An event AG-UI 1.1 drops whole (unrecognised
 * material in a required member) is skipped, not fatal. `event:` is ignored, as the reference
 * client does: every data frame is an event; `id:` and `retry:` come in-band as `SseControl` values
 * with `controls: true` (an `SseIdField` right before the event its block carries), and are dropped
 * otherwise. Cold, with per-subscription state;
 * unsubscribing unsubscribes the source.
 *
 * @example
 * of('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n').pipe(decodeSse())
 * // emits { type: "RUN_STARTED", threadId: "t1", runId: "r1" }
 * of('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1","vendor":1}\n\n').pipe(decodeSse({ warnings: true }))
 * // emits DecodeWarning("unknown-property", "event 0 (RUN_STARTED): removed unknown property /vendor …"), then the event without it
 */
export function decodeSse(
  options: DecodeSseEventOptions & SseControlsOption & { readonly named: readonly string[] },
): OperatorFunction<string | Uint8Array, Event | DecodeWarning | SseControl | SseNamedFrame>;
export function decodeSse(
  options: DecodeSseEventOptions & SseControlsOption & { readonly warnings: true },
): OperatorFunction<string | Uint8Array, Event | DecodeWarning | SseControl>;
export function decodeSse(options: DecodeSseEventOptions & SseControlsOption): OperatorFunction<string | Uint8Array, Event | DecodeWarning | SseControl>;
export function decodeSse(options: DecodeSseEventOptions & { readonly warnings: true }): OperatorFunction<string | Uint8Array, Event | DecodeWarning>;
export function decodeSse(options?: DecodeSseEventOptions & { readonly warnings?: false | undefined }): OperatorFunction<string | Uint8Array, Event>;
export function decodeSse(options?: DecodeSseEventOptions): OperatorFunction<string | Uint8Array, Event | DecodeWarning>;
export function decodeSse(
  options: DecodeSseEventOptions & Partial<SseControlsOption> = {},
): OperatorFunction<string | Uint8Array, Event | DecodeWarning | SseControl | SseNamedFrame> {
  frameLimitOf(options); // a bad limit is refused here, when the operator is made
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH;
  if (!(maxDepth >= 1)) throw new RangeError(`decodeSse: expected maxDepth to be at least 1, got ${String(maxDepth)}`);
  // A value nested d levels deep takes at least 2d characters of JSON, so a frame of at most
  // 2 × maxDepth characters cannot exceed the limit: the depth walk runs only on longer frames.
  const shallow = 2 * maxDepth;
  const warnings = options.warnings === true;
  const named = options.named === undefined || options.named.length === 0 ? undefined : new Set(options.named);
  return (source) =>
    defer(() => {
      // Per subscription: the frame index (the warnings' "where") and the output the warnings go to.
      let index = 0;
      let out: Subscriber<Event | DecodeWarning | SseControl | SseNamedFrame> | undefined;
      const onStripped = warnings ? (stripped: Stripped, type: string) => out?.next(DecodeWarning.of(stripped, type, index)) : undefined;
      const deep: EventDecoding = { maxDepth, checkDepth: true, onStripped };
      const flat: EventDecoding = { maxDepth, checkDepth: false, onStripped };
      const decode = readSseFrames<Event | DecodeWarning | SseControl | SseNamedFrame>(
        options,
        (frame, subscriber) => {
          out = subscriber;
          if (named !== undefined && frame.event !== undefined && named.has(frame.event)) {
            subscriber.next(new SseNamedFrame(frame.event, frame.data));
            return;
          }
          const result = decodeFrame(frame, frame.data.length > shallow ? deep : flat);
          if (result instanceof DecodeError) subscriber.error(result);
          else if (result instanceof Dropped) {
            if (warnings) subscriber.next(DecodeWarning.of({ code: "unknown-member", path: "", reason: result.reason }, result.eventType, index));
          } else subscriber.next(result);
          index++;
        },
        (lost, subscriber) => subscriber.error(truncated(lost.data)),
        options.controls === true ? (control, subscriber) => subscriber.next(control) : undefined,
      );
      return decode(source);
    });
}

/** One frame's data to an event, or the reason it is not one. */
function decodeFrame(frame: SseFrame, decoding: EventDecoding): Event | DecodeError | Dropped {
  let json: unknown;
  try {
    json = JSON.parse(frame.data);
  } catch (cause) {
    const quoted = frame.data.length > QUOTED ? `${frame.data.slice(0, QUOTED)}…` : frame.data;
    const reason = cause instanceof Error ? ` (${cause.message})` : "";
    return new DecodeError(
      "json",
      `SSE data is not JSON${reason}: expected one JSON event object, got ${JSON.stringify(quoted)}`,
      undefined,
      "",
      "a JSON value",
      quoted,
    );
  }
  return decodeEventValue(json, decoding);
}

/** The error for a body that ended inside a frame: the frame is lost (docs/rules.md#A7). */
function truncated(data: string): DecodeError {
  const quoted = data.length > QUOTED ? `${data.slice(0, QUOTED)}…` : data;
  return new DecodeError(
    "truncated",
    `SSE body truncated mid-frame: it ended before the blank line that ends its last frame, so that frame ` +
      `(${data.length} characters of data, starting ${JSON.stringify(quoted)}) was discarded, as the SSE spec requires; ` +
      `expected every frame to end with a blank line`,
    undefined,
    "",
    "a blank line after the last frame",
    quoted,
  );
}
