// The legacy THINKING_* → REASONING_* mapper (docs/wire.md#7), one row per case, plus a whole sequence.
import type { Event, ThinkingEvent } from "../../src/protocol/events";
import { isThinkingEvent, mapThinkingEvent, type ThinkingIds } from "../../src/protocol/thinking";
import { ev } from "../../src/protocol/build";
import { THINKING, ALL_EVENTS } from "./samples";

/** A fresh id source: "new-1", "new-2", … */
const ids = () => {
  let n = 0;
  return () => `new-${++n}`;
};

const rows: [string, ThinkingEvent, ThinkingIds, unknown, ThinkingIds][] = [
  [
    "START mints the span id and drops title",
    { type: "THINKING_START", title: "Plan" },
    {},
    { type: "REASONING_START", messageId: "new-1" },
    { spanId: "new-1" },
  ],
  [
    "START keeps an open message id",
    { type: "THINKING_START" },
    { messageId: "m" },
    { type: "REASONING_START", messageId: "new-1" },
    { spanId: "new-1", messageId: "m" },
  ],
  [
    "TEXT_MESSAGE_START mints the message id, role reasoning",
    { type: "THINKING_TEXT_MESSAGE_START" },
    { spanId: "s" },
    { type: "REASONING_MESSAGE_START", messageId: "new-1", role: "reasoning" },
    { spanId: "s", messageId: "new-1" },
  ],
  [
    "TEXT_MESSAGE_CONTENT uses the open message",
    { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "hm" },
    { spanId: "s", messageId: "m" },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "m", delta: "hm" },
    { spanId: "s", messageId: "m" },
  ],
  [
    "TEXT_MESSAGE_CONTENT with no open message mints one and keeps it",
    { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "x" },
    {},
    { type: "REASONING_MESSAGE_CONTENT", messageId: "new-1", delta: "x" },
    { messageId: "new-1" },
  ],
  [
    "TEXT_MESSAGE_END uses and clears the message id",
    { type: "THINKING_TEXT_MESSAGE_END" },
    { spanId: "s", messageId: "m" },
    { type: "REASONING_MESSAGE_END", messageId: "m" },
    { spanId: "s" },
  ],
  ["TEXT_MESSAGE_END with no open message mints an id", { type: "THINKING_TEXT_MESSAGE_END" }, {}, { type: "REASONING_MESSAGE_END", messageId: "new-1" }, {}],
  ["END uses and clears the span id", { type: "THINKING_END" }, { spanId: "s" }, { type: "REASONING_END", messageId: "s" }, {}],
  ["END with no open span mints an id", { type: "THINKING_END" }, {}, { type: "REASONING_END", messageId: "new-1" }, {}],
  [
    "timestamp and metadata carry over",
    { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "d", timestamp: 7, metadata: { k: 1 } },
    { messageId: "m" },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "m", delta: "d", timestamp: 7, metadata: { k: 1 } },
    { messageId: "m" },
  ],
];

test.each(rows)("%s", (_name, event, before, expected, after) => {
  const step = mapThinkingEvent(event, before, ids());
  expect(step.event).toEqual(expected);
  expect(step.ids).toEqual(after);
});

test("a whole thinking block becomes one reasoning span with one message", () => {
  const newId = ids();
  let state: ThinkingIds = {};
  const out = (
    [
      { type: "THINKING_START" },
      { type: "THINKING_TEXT_MESSAGE_START" },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "a" },
      { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "b" },
      { type: "THINKING_TEXT_MESSAGE_END" },
      { type: "THINKING_END" },
    ] satisfies ThinkingEvent[]
  ).map((event) => {
    const step = mapThinkingEvent(event, state, newId);
    state = step.ids;
    return step.event;
  });
  expect(out).toEqual([
    { type: "REASONING_START", messageId: "new-1" },
    { type: "REASONING_MESSAGE_START", messageId: "new-2", role: "reasoning" },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "new-2", delta: "a" },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "new-2", delta: "b" },
    { type: "REASONING_MESSAGE_END", messageId: "new-2" },
    { type: "REASONING_END", messageId: "new-1" },
  ]);
  expect(state).toEqual({});
});

test("THINKING_END with its message still open ends the message first (closing), so the reasoning form stays valid (R22, R7)", () => {
  const step = mapThinkingEvent({ type: "THINKING_END", timestamp: 9 }, { spanId: "s", messageId: "m" }, ids());
  expect(step).toEqual({
    closing: { type: "REASONING_MESSAGE_END", messageId: "m", timestamp: 9 },
    event: { type: "REASONING_END", messageId: "s", timestamp: 9 },
    ids: {},
  });
  expect(mapThinkingEvent({ type: "THINKING_END" }, { spanId: "s" }, ids())).not.toHaveProperty("closing");
});

test("only THINKING_END ever has a closing event", () => {
  const events: ThinkingEvent[] = [
    { type: "THINKING_START" },
    { type: "THINKING_TEXT_MESSAGE_START" },
    { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "x" },
    { type: "THINKING_TEXT_MESSAGE_END" },
  ];
  for (const event of events) expect(mapThinkingEvent(event, { spanId: "s", messageId: "m" }, ids()).closing).toBeUndefined();
});

test("isThinkingEvent is true for exactly the five deprecated types", () => {
  const thinking = new Set<Event>(Object.values(THINKING).flat());
  for (const event of thinking) expect(isThinkingEvent(event)).toBe(true);
  for (const event of ALL_EVENTS.filter((e) => !thinking.has(e))) expect(isThinkingEvent(event)).toBe(false);
  expect(isThinkingEvent(ev.reasoningStart("r"))).toBe(false);
});
