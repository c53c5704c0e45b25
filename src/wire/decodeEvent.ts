import * as E from "fp-ts/Either";
import { Event, eventCodecs, type EventType } from "../protocol/events";
import { DecodeError, excerpt, reportInvalidEvent } from "./DecodeError";

/**
 * Decodes one parsed JSON value into an event; never throws.
 *
 * Lenient the way real producers need: an optional member sent as `null` reads as absent
 * (except `subagentRunId` and `metadata`, whose `null` both protocol revisions reject),
 * unknown members are kept, and defaults are filled (`TEXT_MESSAGE_START.role` → `"assistant"`,
 * `ACTIVITY_SNAPSHOT.replace` → `true`). An unknown `type` is an error whose message quotes it.
 *
 * @example
 * decodeEvent({ type: "TEXT_MESSAGE_START", messageId: "m1" })
 * // right({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" })
 */
export function decodeEvent(json: unknown): E.Either<DecodeError, Event> {
  return decodeWith<E.Either<DecodeError, Event>>(json, E.right, E.left);
}

/**
 * `decodeEvent` without the Either: the event, or the `DecodeError` that rejects the value. For the
 * decoders' per-frame loop (`decodeSse`), where the Either would be one more allocation per event
 * (parsed JSON is never a DecodeError instance, so `instanceof` tells the two apart there).
 * Internal to the wire layer (not re-exported from the package root).
 *
 * @example
 * const result = decodeEventValue(JSON.parse(frame.data));
 * if (result instanceof DecodeError) subscriber.error(result);
 * else subscriber.next(result);
 */
export function decodeEventValue(json: unknown): Event | DecodeError {
  return decodeWith<Event | DecodeError>(json, same, same);
}

const same = <T>(value: T): T => value;

type EventCodec = (typeof eventCodecs)[EventType];

/**
 * The last type looked up and its codec. Streams come in runs of one type (text deltas, tool-call
 * arguments, state deltas), and a `type` parsed from JSON is a fresh string that each property
 * lookup must first find in V8's string table: comparing it with the previous one is cheaper than
 * the own-property check and keyed read, which cost about as much as `is` itself.
 */
let lastType: string | undefined;
let lastCodec: EventCodec | undefined;

/** The codec of an event type, or `undefined` for a type that is not one of the 36. */
function codecOf(type: string): EventCodec | undefined {
  if (type === lastType) return lastCodec;
  if (!Object.prototype.hasOwnProperty.call(eventCodecs, type)) return undefined;
  const codec = eventCodecs[type as EventType]; // the own-property check just proved it is an EventType
  lastType = type;
  lastCodec = codec;
  return codec;
}

/** The decoder itself, handing its result to `accept` or `reject` (module-level functions: nothing is allocated per call). */
function decodeWith<R>(json: unknown, accept: (event: Event) => R, reject: (error: DecodeError) => R): R {
  try {
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return reject(new DecodeError("not-an-event", `expected an event object, got ${excerpt(json)}`));
    }
    const type = (json as { type?: unknown }).type;
    if (typeof type !== "string") {
      return reject(new DecodeError("not-an-event", `expected an event with a string "type", got ${excerpt(type)}`, undefined, "/type"));
    }
    const codec = codecOf(type);
    if (codec === undefined) {
      return reject(new DecodeError("unknown-type", `unknown event type "${type}"`, type, "/type", "one of the 36 AG-UI event types", type));
    }
    // Most events need no change (no null to drop, no default to fill): `is` checks them without
    // allocating a decoding context.
    if (codec.is(json)) return accept(json as Event); // `is` just proved it
    const result = Event.validate(json, [{ key: "", type: Event, actual: json }]);
    return E.isRight(result) ? accept(result.right) : reject(reportInvalidEvent(type, result.left));
  } catch (cause) {
    // A getter or proxy in hand-made input may throw; decoding still reports instead of throwing.
    return reject(new DecodeError("not-an-event", `could not read the event: ${String(cause)}`));
  }
}
