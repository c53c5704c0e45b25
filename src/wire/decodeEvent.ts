import * as E from "../protocol/either";
import { eventCodecLookup } from "../protocol/eventCodecLookup";
import { Event } from "../protocol/events";
import { DEFAULT_MAX_JSON_DEPTH, findTooDeep } from "../protocol/jsonDepth";
import { collectStripped, type Stripped } from "../protocol/unrecognised";
import { DecodeError, excerpt, reportInvalidEvent } from "./DecodeError";
import { DecodeWarning } from "./DecodeWarning";

/** This module's codec lookup, with its own one-entry cache (src/protocol/eventCodecLookup.ts). */
const codecOf = eventCodecLookup();

/**
 * Options of `decodeEvent`.
 *
 * @example
 * decodeEvent(json, { maxDepth: 64, onWarning: (warning) => console.warn(warning.message) });
 */
export interface DecodeEventOptions {
  /** The nesting limit (arrays and objects); deeper input is a `too-deep` error. Defaults to `DEFAULT_MAX_JSON_DEPTH` (512). */
  readonly maxDepth?: number | undefined;
  /** Called once per piece of material stripped (AG-UI 1.1 processing model), in order; by default stripping is silent. */
  readonly onWarning?: ((warning: DecodeWarning) => void) | undefined;
}

/**
 * Decodes one parsed JSON value into an event; never throws.
 *
 * Lenient the way real producers need, strict where the protocol is: an optional member sent as
 * `null` reads as absent (except `subagentRunId` and `metadata`, whose `null` both protocol
 * revisions reject), and defaults are filled (`TEXT_MESSAGE_START.role` → `"assistant"`,
 * `ACTIVITY_SNAPSHOT.replace` → `true`). Material the protocol does not describe is stripped, never
 * fatal (AG-UI 1.1; revised: unknown members used to be kept): a property the event does not
 * declare, an unrecognised union member or enum value (an outcome type, a content part type, a role,
 * a patch op) — `options.onWarning` hears of each. `metadata`, `rawEvent` and the other free-form
 * values pass through untouched. A malformed known value stays an error (`invalid-event`); so does
 * an unknown `type`, whose message quotes it (docs/seeds.md#seed-001). A value nested deeper than `maxDepth` is a
 * `too-deep` error naming the path and the limit. When unrecognised material sits in a required
 * member the whole event is dropped: `Left` with code `dropped` (not a defect; see DecodeErrorCode).
 *
 * @example
 * decodeEvent({ type: "TEXT_MESSAGE_START", messageId: "m1" })
 * // right({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" })
 * decodeEvent({ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "paused" } }, { onWarning })
 * // right({ type: "RUN_FINISHED", threadId: "t", runId: "r" }); onWarning heard "… removed /outcome …"
 */
export function decodeEvent(json: unknown, options: DecodeEventOptions = {}): E.Either<DecodeError, Event> {
  const onWarning = options.onWarning;
  const result = decodeEventValue(json, {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_JSON_DEPTH,
    checkDepth: true,
    onStripped: onWarning === undefined ? undefined : (stripped, type) => onWarning(DecodeWarning.of(stripped, type)),
  });
  if (result instanceof DecodeError) return E.left(result);
  if (result instanceof Dropped) return E.left(new DecodeError("dropped", `${result.eventType} event dropped: ${result.reason}`, result.eventType, ""));
  return E.right(result);
}

/** How `decodeEventValue` decodes: the options object is made once per stream, not per event. */
export interface EventDecoding {
  readonly maxDepth: number;
  /** `false` when the caller has proved the value shallow (an SSE frame of at most `2 × maxDepth` characters). */
  readonly checkDepth: boolean;
  /** Hears of every piece of stripped material, with the event's type. */
  readonly onStripped: ((stripped: Stripped, eventType: string) => void) | undefined;
}

/**
 * An event removed whole because a required member held unrecognised material (1.1): not an
 * error, but no event either. Internal to the wire layer.
 */
export class Dropped {
  constructor(
    readonly eventType: string,
    readonly reason: string,
  ) {}
}

/**
 * `decodeEvent` without the Either: the event, the `DecodeError` that rejects the value, or
 * `Dropped`. For the decoders' per-value loop (`decodeSse`, the replay transport), where the Either
 * would be one more allocation per event (parsed JSON is never an instance of either class, so
 * `instanceof` tells them apart). Internal to the wire layer (not re-exported from the package root).
 *
 * @example
 * const result = decodeEventValue(JSON.parse(frame.data), decoding);
 * if (result instanceof DecodeError) subscriber.error(result);
 * else if (!(result instanceof Dropped)) subscriber.next(result);
 */
export function decodeEventValue(json: unknown, decoding: EventDecoding): Event | DecodeError | Dropped {
  try {
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      return new DecodeError("not-an-event", `expected an event object, got ${excerpt(json)}`);
    }
    const type = (json as { type?: unknown }).type;
    if (typeof type !== "string") {
      return new DecodeError("not-an-event", `expected an event with a string "type", got ${excerpt(type)}`, undefined, "/type");
    }
    const codec = codecOf(type);
    if (codec === undefined) {
      return new DecodeError("unknown-type", `unknown event type "${type}"`, type, "/type", "one of the 36 AG-UI event types", type);
    }
    if (decoding.checkDepth) {
      const deep = findTooDeep(json, decoding.maxDepth);
      if (deep !== undefined) return tooDeep(type, deep.path, deep.limit);
    }
    // Most events need no change (no null to drop, no default to fill, nothing to strip): `is`
    // checks them without allocating a decoding context.
    if (codec.is(json)) return json; // `is` just proved it
    const { result, stripped, dropped } = collectStripped(Event, json);
    if (E.isLeft(result)) return reportInvalidEvent(type, result.left);
    if (dropped !== undefined) return new Dropped(type, dropped);
    const onStripped = decoding.onStripped;
    if (onStripped !== undefined) for (const piece of stripped) onStripped(piece, type);
    return result.right;
  } catch (cause) {
    // A getter or proxy in hand-made input may throw; decoding still reports instead of throwing.
    return new DecodeError("not-an-event", `could not read the event: ${String(cause)}`);
  }
}

/**
 * The `too-deep` error: where, and the limit. A pointer hundreds of segments long is shortened in
 * the message (the whole one is in `path`).
 *
 * @example
 * tooDeep("STATE_SNAPSHOT", "/snapshot/0/0", 2).message
 * // "STATE_SNAPSHOT event nests deeper than 2 levels of arrays and objects at /snapshot/0/0: …"
 */
export function tooDeep(eventType: string | undefined, path: string, limit: number): DecodeError {
  const shown = path.length > 120 ? `${path.slice(0, 120)}… (${path.split("/").length - 1} levels)` : path;
  const what = eventType === undefined ? "the value" : `${eventType} event`;
  return new DecodeError(
    "too-deep",
    `${what} nests deeper than ${limit} levels of arrays and objects at ${shown}: expected at most ${limit} levels (raise maxDepth if the producer means it)`,
    eventType,
    path,
    `at most ${limit} levels of nesting`,
    undefined,
  );
}
