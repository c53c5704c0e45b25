/**
 * `outsideWindow`: which ids a live run's entries must prove absent before the window, and which
 * entries need the whole thread; `windowGroups`: the branch groups of a window fold at whole-path positions.
 */
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import type { LoggedEntry } from "../../src/redis/entries";
import { outsideWindow, windowGroups } from "../../src/redis/windowFold";
import { forkMetadata } from "../../src/protocol/branchMeta";
import { ThreadFold } from "../../src/thread/ThreadFold";
import { runAgentInput } from "../../src/protocol/build";

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

test("a RUN_STARTED needs the whole thread: a fork marker cuts the path, and its checkpoint counts positions from the thread's start", () => {
  expect(outsideWindow(window, logged([ev.runStarted("t", "r2", { metadata: forkMetadata({ after: "u2", siblingIds: ["a2"] }) })]))).toBeUndefined();
  expect(outsideWindow(window, logged([ev.runStarted("t", "r2")]))).toBeUndefined();
});

test("windowGroups: a group's shown sibling at or past the window is read there, one before it is as the kept snapshot named it", () => {
  // the whole thread: u1 a1 (regenerated: a1b) u2 a2 u3 (regenerated, live: a3b); the window holds the last three kept messages
  const say = (id: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, id), ev.textMessageEnd(id)];
  const whole = new ThreadFold("t");
  let at = 0;
  const apply = (events: Event[]) => events.forEach((event) => whole.apply(event, `${++at}-0`));
  const user = (id: string): Message => ({ id, role: "user", content: id });
  apply([{ ...ev.runStarted("t", "r1"), input: runAgentInput("t", "r1", { messages: [user("u1")] }) }, ...say("a1"), ev.runFinished("t", "r1")]);
  apply([ev.runStarted("t", "r2", { metadata: forkMetadata({ after: "u1", siblingIds: ["a1"] }) }), ...say("a1b"), ev.runFinished("t", "r2")]);
  apply([{ ...ev.runStarted("t", "r3"), input: runAgentInput("t", "r3", { messages: [user("u2")] }) }, ...say("a2"), ev.runFinished("t", "r3")]);
  apply([{ ...ev.runStarted("t", "r4"), input: runAgentInput("t", "r4", { messages: [user("u3")] }) }, ...say("a3"), ev.runFinished("t", "r4")]);
  apply([ev.runStarted("t", "r5", { metadata: forkMetadata({ after: "u3", siblingIds: ["a3"] }) })]);
  const kept = whole.snapshot();
  if (kept === undefined) throw new Error("expected a snapshot");
  const before = kept.messages.length - 3;
  const windowed = ThreadFold.restore({ ...kept, messages: kept.messages.slice(before) });
  const entries = say("a3b");
  entries.forEach((event, i) => windowed.apply(event, `${at + 1 + i}-0`));
  apply(entries);
  const folded = windowed.snapshot();
  if (folded === undefined) throw new Error("expected a snapshot");
  const expected = [
    { after: "u1", selected: 1, siblingIds: ["a1", "a1b"] },
    { after: "u3", selected: 1, siblingIds: ["a3", "a3b"] },
  ];
  expect(whole.groups()).toEqual(expected);
  expect(folded.branches?.groups).not.toEqual(expected); // the window fold alone reads positions in the window
  expect(windowGroups(folded, { ...kept, messages: kept.messages.slice(before) }, before).branches?.groups).toEqual(expected);
  expect(windowGroups(folded, kept, 0)).toBe(folded);
});
