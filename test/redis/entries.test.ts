/** One event as one stream entry, both ways (pure): XADD fields out, XRANGE/XREAD entries in. */
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { decodeEntries, decodeEntry, encodeEvent } from "../../src/redis/entries";
import { StoreError } from "../../src/server/store/StoreError";

const events: Event[] = [
  ev.runStarted("t1", "r1", { parentRunId: "r0" }),
  ev.textMessageStart("m1"),
  ev.textMessageContent("m1", 'quotes " and \\ and \n and ünïcödé'),
  ev.toolCallStart("tc1", "search", { parentMessageId: "m1" }),
  ev.toolCallArgs("tc1", '{"q":"x"}'),
  ev.stateDelta([{ op: "add", path: "/a", value: [1, { b: null }] }]),
  ev.custom("n", { deep: { list: [1, 2, 3] } }),
  ev.runFinished("t1", "r1", { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approve" }] } }),
];

/** An entry as Redis returns it for what a script wrote from `encodeEvent` (fields t, n, e). */
function entry(id: string, seq: number, event: Event): unknown {
  const { type, json } = encodeEvent(event, 0, "t1");
  return [id, ["t", type, "n", String(seq), "e", json]];
}

test("every event survives encodeEvent → stream entry → decodeEntry, with its cursor and sequence number", () => {
  const raw = events.map((event, i) => entry(`1718000000000-${i}`, i + 10, event));
  expect(decodeEntries(raw, "t1")).toEqual(events.map((event, i) => ({ cursor: `1718000000000-${i}`, seq: i + 10, event, json: JSON.stringify(event) })));
});

test("an entry's text goes with its event only where it is the event's JSON text: not when decoding filled a default, nor with a line break in it", () => {
  const filled = decodeEntry(["1-0", ["n", "4", "e", '{"type":"TEXT_MESSAGE_START","messageId":"m1"}']], "t1");
  expect(filled.event).toEqual({ type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" });
  expect(filled.json).toBeUndefined();
  const pretty = decodeEntry(["1-1", ["n", "5", "e", '{\n  "type": "STEP_STARTED",\r\n  "stepName": "a"\n}']], "t1");
  expect(pretty.event).toEqual({ type: "STEP_STARTED", stepName: "a" });
  expect(pretty.json).toBeUndefined();
});

test("an encoded event keeps the event's type beside its JSON", () => {
  expect(events.map((event) => encodeEvent(event, 0, "t1").type)).toEqual(events.map((event) => event.type));
});

test("an entry decodes alike in either format: t, n, e (RUN_STARTED, and every entry before #28) and n, e (appended events since)", () => {
  const json = '{"type":"STEP_STARTED","stepName":"a"}';
  const old = decodeEntry(["1-0", ["t", "STEP_STARTED", "n", "4", "e", json]], "t1");
  const now = decodeEntry(["1-0", ["n", "4", "e", json]], "t1");
  expect(now).toEqual(old);
  expect(now).toEqual({ cursor: "1-0", seq: 4, event: { type: "STEP_STARTED", stepName: "a" }, json });
});

test("an event JSON cannot spell is refused before anything is sent, naming its index", () => {
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  const thrown = (() => {
    try {
      encodeEvent(ev.custom("loop", cyclic), 3, "t1");
    } catch (error) {
      return error;
    }
    return undefined;
  })();
  expect(StoreError.isInstance(thrown) && thrown.code).toBe("invalid-append");
  expect(String(thrown)).toMatch(/expected JSON events, but the CUSTOM at index 3 does not serialize/);
});

test.each<[string, unknown, RegExp]>([
  ["no fields", ["1-0", []], /no sequence number \(n\) and event \(e\) fields/],
  ["no sequence number", ["1-0", ["e", "{}"]], /no sequence number/],
  ["a sequence number that is not one", ["1-0", ["n", "-1", "e", '{"type":"STEP_STARTED","stepName":"a"}']], /no sequence number/],
  ["JSON that does not parse", ["1-0", ["n", "0", "e", "{"]], /JSON that does not parse/],
  ["JSON that is no event", ["1-0", ["n", "0", "e", '{"type":"NOPE"}']], /an event that does not decode \(unknown event type "NOPE"\)/],
  ["no fields array", ["1-0", "x"], /expected an array as the reply of the fields of stream entry 1-0/],
  ["no id", [7, []], /expected a string as a stream entry's id, but Redis answered 7/],
])("an entry this store did not write (%s) is unavailable, never a crash", (_name, raw, message) => {
  let error: unknown;
  try {
    decodeEntry(raw, "t1");
  } catch (caught) {
    error = caught;
  }
  expect(StoreError.isInstance(error) && error.code).toBe("unavailable");
  expect(String(error)).toMatch(message);
});
