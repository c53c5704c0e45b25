/** Why bytes or JSON did not become an event. Kept apart from decoding, as io-ts keeps its reporters apart. */
import type * as t from "io-ts";

/**
 * Why decoding failed:
 * - `unknown-type`: a well-formed event whose `type` this library does not know (the message quotes it);
 * - `invalid-event`: a known type with a missing or ill-typed member;
 * - `not-an-event`: JSON that is not an object with a string `type`;
 * - `json`: a payload that is not JSON;
 * - `frame-too-large`: an SSE frame over the configured limit.
 *
 * @example
 * if (error.code === "unknown-type") console.log(error.eventType);
 */
export type DecodeErrorCode = "unknown-type" | "invalid-event" | "not-an-event" | "json" | "frame-too-large";

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
 * A short, single-line rendering of a value for error messages; never throws.
 *
 * @example
 * excerpt({ a: 1 }) // '{"a":1}'
 */
export function excerpt(value: unknown, max = 80): string {
  let text: string;
  if (value === undefined) return "nothing (the member is missing)";
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
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
  // Of several failures (a union tries each member) the deepest one is the most specific.
  let first = errors[0];
  for (const error of errors) if (error.context.length > (first?.context.length ?? 0)) first = error;
  const segments: string[] = [];
  const entries = first?.context ?? [];
  for (let i = 1; i < entries.length; i++) {
    if (isInternal(entries[i - 1].type, entries[i].type)) continue;
    segments.push(entries[i].key.replace(/~/g, "~0").replace(/\//g, "~1"));
  }
  const path = segments.length ? `/${segments.join("/")}` : "";
  const expected = first?.message ?? `expected ${entries[entries.length - 1]?.type.name ?? "a valid event"}`;
  const where = path ? ` at ${path}` : "";
  const message = `invalid ${eventType} event${where}: ${expected}, got ${excerpt(first?.value)}`;
  return new DecodeError("invalid-event", message, eventType, path, expected, first?.value);
}

/**
 * Context entries that are codec plumbing, not JSON members: a union's member index, and the two
 * halves of a struct's intersection (their codecs are the only bare `t.type`/`t.partial` here).
 */
function isInternal(parent: t.Decoder<unknown, unknown>, own: t.Decoder<unknown, unknown>): boolean {
  const parentTag = (parent as { _tag?: string })._tag;
  const ownTag = (own as { _tag?: string })._tag;
  return parentTag === "UnionType" || ownTag === "InterfaceType" || ownTag === "PartialType";
}
