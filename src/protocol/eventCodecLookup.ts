/** The codec of an event type by its `type` string, with the one-entry cache both the decoder and the server's egress check look codecs up through (docs/architecture.md#protocol-layer). */
import { eventCodecs, type EventType } from "./events";

/** The codec of one event type, as `eventCodecs` holds it. */
export type EventCodec = (typeof eventCodecs)[EventType];

/**
 * A lookup from a `type` string to its codec (`undefined` for a type that is not one of the 36),
 * remembering the last type it was asked for. Streams come in runs of one type (text deltas,
 * tool-call arguments, state deltas), and a `type` parsed from JSON is a fresh string that each
 * property lookup must first find in V8's string table: comparing it with the previous one is
 * cheaper than a lookup, even in a Map of the 36. Each caller makes its own, so their runs of
 * types do not evict each other.
 *
 * @example
 * const codecOf = eventCodecLookup();
 * codecOf("TEXT_MESSAGE_CONTENT")?.is(event); // the TEXT_MESSAGE_CONTENT codec's check
 * codecOf("NOT_AN_EVENT"); // undefined
 */
export function eventCodecLookup(): (type: string) => EventCodec | undefined {
  let lastType: string | undefined;
  let lastCodec: EventCodec | undefined;
  return (type) => {
    if (type === lastType) return lastCodec;
    const codec = CODECS_BY_TYPE.get(type);
    if (codec === undefined) return undefined;
    lastType = type;
    lastCodec = codec;
    return codec;
  };
}

/** `eventCodecs` as a Map: one hash lookup answers a type that changed (a mixed stream), where the object took an own-property check and a keyed read. */
const CODECS_BY_TYPE: ReadonlyMap<string, EventCodec> = /* @__PURE__ */ new Map(Object.entries(eventCodecs));
