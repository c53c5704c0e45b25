/** eventCodecLookup: the one cached lookup from an event's `type` to its codec (src/protocol/eventCodecLookup.ts). */
import { eventCodecLookup } from "../../src/protocol/eventCodecLookup";
import { EVENT_TYPES, eventCodecs } from "../../src/protocol/events";

describe("eventCodecLookup", () => {
  test("finds the codec of each of the event types, in runs and alternating, and nothing for other strings", () => {
    const codecOf = eventCodecLookup();
    for (const type of EVENT_TYPES) {
      expect(codecOf(type)).toBe(eventCodecs[type]);
      expect(codecOf(type)).toBe(eventCodecs[type]); // the cached answer is the same codec
    }
    for (const type of ["", "toString", "__proto__", "hasOwnProperty", "text_message_content", "NOT_AN_EVENT"]) expect(codecOf(type)).toBeUndefined();
    // An unknown type between two lookups of one type does not disturb the cache.
    expect(codecOf("RUN_STARTED")).toBe(eventCodecs.RUN_STARTED);
    expect(codecOf("constructor")).toBeUndefined();
    expect(codecOf("RUN_STARTED")).toBe(eventCodecs.RUN_STARTED);
  });

  test("two lookups keep their own last entry", () => {
    const decoding = eventCodecLookup();
    const egress = eventCodecLookup();
    expect(decoding("TEXT_MESSAGE_CONTENT")).toBe(eventCodecs.TEXT_MESSAGE_CONTENT);
    expect(egress("STATE_DELTA")).toBe(eventCodecs.STATE_DELTA);
    expect(decoding("TEXT_MESSAGE_CONTENT")).toBe(eventCodecs.TEXT_MESSAGE_CONTENT);
  });
});
