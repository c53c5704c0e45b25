/** Why bytes or JSON did not become an event. Kept apart from decoding, as io-ts keeps its reporters apart. */
import type * as t from "io-ts";
import { Brand } from "../protocol/Brand";
import { describeFailure, excerpt } from "../protocol/describeFailure";

export { excerpt };

/**
 * Why decoding failed:
 * - `unknown-type`: a well-formed event whose `type` this library does not know (the message quotes it);
 * - `invalid-event`: a known type with a missing or ill-typed member;
 * - `not-an-event`: JSON that is not an object with a string `type`;
 * - `json`: a payload that is not JSON;
 * - `frame-too-large`: an SSE frame over the configured limit;
 * - `too-deep`: a value nested deeper than the configured limit (`path` names where, the message
 *   the limit); refused before anything recursive sees it;
 * - `truncated`: an SSE body that ended inside a frame (before the blank line that ends it); the
 *   frame is lost, as the SSE spec says;
 * - `dropped`: not a defect of the bytes: a known event type whose required member holds
 *   unrecognised material, which AG-UI 1.1 removes together with the event. `decodeEvent` reports
 *   it so the caller knows there is no event; `decodeSse` skips such an event (with a
 *   `DecodeWarning` when asked) and goes on.
 *
 * @example
 * if (error.code === "unknown-type") console.log(error.eventType);
 */
export type DecodeErrorCode = "unknown-type" | "invalid-event" | "not-an-event" | "json" | "frame-too-large" | "too-deep" | "truncated" | "dropped";

/** The cross-copy brand (docs/packaging.md): every copy of the package marks its DecodeErrors with the same key. */
const DECODE_ERROR = new Brand<DecodeError>("agui-rx/DecodeError");

/**
 * A decode failure that names the event type, the member path, what was expected and what arrived.
 *
 * @example
 * const result = decodeEvent({ type: "TEXT_MESSAGE_CONTENT", messageId: "m1" });
 * // left(DecodeError { code: "invalid-event", eventType: "TEXT_MESSAGE_CONTENT", path: "/delta",
 * //   message: "invalid TEXT_MESSAGE_CONTENT event at /delta: expected string, got nothing (the member is missing)" })
 */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  static {
    DECODE_ERROR.mark(this);
  }

  /**
   * Whether `value` is a DecodeError from any copy of this package (ESM and CJS builds are two
   * copies; `instanceof` sees only its own): it checks a `Symbol.for` brand, not the prototype.
   *
   * @example
   * if (DecodeError.isInstance(error)) console.log(error.code);
   */
  static isInstance(value: unknown): value is DecodeError {
    return DECODE_ERROR.is(value);
  }

  constructor(
    readonly code: DecodeErrorCode,
    message: string,
    /** The event's `type`, when the input had a string one. */
    readonly eventType?: string,
    /** JSON Pointer of the offending member inside the event (`""` for the event itself). */
    readonly path: string = "",
    /** What the codec expected there. */
    readonly expected?: string,
    /** What arrived there. */
    readonly actual?: unknown,
  ) {
    super(message);
  }
}

/**
 * Turns io-ts errors into one DecodeError about the most specific failure: the JSON Pointer of the
 * member (intersection and union indices are internal and left out), the expected codec and the value.
 *
 * @example
 * const result = Event.validate(json, t.getDefaultContext(Event));
 * if (isLeft(result)) throw reportInvalidEvent("RUN_STARTED", result.left);
 */
export function reportInvalidEvent(eventType: string, errors: t.Errors): DecodeError {
  const { path, expected, actual } = describeFailure(errors);
  const where = path ? ` at ${path}` : "";
  const message = `invalid ${eventType} event${where}: ${expected}, got ${excerpt(actual)}`;
  return new DecodeError("invalid-event", message, eventType, path, expected, actual);
}
