// encodeSse writes exactly `data: <compact JSON>\n\n` (docs/wire.md#6.3).
import { ev } from "../../src/protocol/build";
import { encodeSse } from "../../src/wire/encodeSse";
import { ALL_EVENTS, AWKWARD_TEXT } from "../protocol/samples";

test("the exact bytes of a simple event", () => {
  expect(encodeSse(ev.runStarted("t1", "r1"))).toBe('data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n');
});

test("keys keep insertion order and undefined members are dropped", () => {
  expect(encodeSse({ type: "TEXT_MESSAGE_END", messageId: "m", subagentRunId: undefined })).toBe('data: {"type":"TEXT_MESSAGE_END","messageId":"m"}\n\n');
});

test("non-ASCII is written raw; line breaks inside strings are escaped", () => {
  const frame = encodeSse(ev.textMessageContent("m", AWKWARD_TEXT));
  expect(frame).toContain("18°C, 한국어, 😀");
  expect(frame).toContain("line\\nbreak\\r\\ncarriage\\rreturn");
  expect(frame).not.toMatch(/\\u00b0|\\ud83d/i);
});

test.each(ALL_EVENTS.map((event, i) => [i, event.type, event] as const))("sample %i (%s): one data line, compact, LF LF", (_i, _type, event) => {
  const frame = encodeSse(event);
  expect(frame.startsWith("data: ")).toBe(true);
  expect(frame.endsWith("\n\n")).toBe(true);
  const json = frame.slice("data: ".length, -2);
  expect(json).not.toMatch(/[\r\n]/);
  expect(json).toBe(JSON.stringify(JSON.parse(json))); // compact: no indentation or spaces between tokens
  expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(event)));
});
