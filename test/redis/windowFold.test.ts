/** `outsideWindow`: which ids a live run's entries must prove absent before the window, and which entries need the whole thread. */
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import type { LoggedEntry } from "../../src/redis/entries";
import { outsideWindow } from "../../src/redis/windowFold";

const held = { id: "call1", type: "function" as const, function: { name: "look", arguments: "{}" } };
const window: Message[] = [
  { id: "a1", role: "assistant", toolCalls: [held] },
  { id: "u2", role: "user", content: "Hi" },
];
const logged = (events: Event[]): LoggedEntry[] => events.map((event, i) => ({ cursor: `${i + 1}-0`, seq: i + 1, event }));

test("a tool call the entries start is proven absent with its parent and id; later events on it need nothing more", () => {
  const events = [ev.toolCallStart("call9", "look", { parentMessageId: "a9" }), ev.toolCallArgs("call9", "{}"), ev.toolCallEnd("call9")];
  expect(outsideWindow(window, logged([...events, ev.toolCallResult("t9", "call9", "found")]))).toEqual({ messages: ["a9", "call9", "t9"], calls: ["call9"] });
});

test("a tool call the window holds is found there: its parent is not looked up", () => {
  expect(outsideWindow(window, logged([ev.toolCallStart("call1", "look", { parentMessageId: "old" }), ev.toolCallArgs("call1", "x")]))).toEqual({
    messages: [],
    calls: [],
  });
});

test("an event on a tool call neither held in the window nor started by the entries needs the whole thread", () => {
  expect(outsideWindow(window, logged([ev.toolCallResult("t0", "call0", "done")]))).toBeUndefined();
  expect(outsideWindow(window, logged([ev.toolCallArgs("call9", "{}"), ev.toolCallStart("call9", "look")]))).toBeUndefined();
});
