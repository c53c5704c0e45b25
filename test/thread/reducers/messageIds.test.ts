/**
 * The differential-fuzzing finds of issue #14 (B1–B5) and the metadata-key rule on every path (C6),
 * each as the sequence that showed it. Ids are unique only within a kind (docs/rules.md#words), so a tool
 * call may share its id with a message; message ids stay unique in the list (decision).
 */
import { from, lastValueFrom, toArray } from "rxjs";
import { applyEvents } from "../../../src/client/applyEvents";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import type { Update } from "../../../src/thread/Update";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { collect, errorsOf, replaySession, sse } from "../../client/support";

const RS = ev.runStarted("thread-1", "run-1");
const RF = ev.runFinished("thread-1", "run-1");

function applied(...events: Event[]): { state: ClientState<unknown>; updates: Update[] } {
  const state = ClientState.untyped();
  const updates = events.flatMap((event) => [...applyEvent(state, event)]);
  return { state, updates };
}
const ids = (messages: readonly Message[]) => messages.map((message) => `${message.role}:${message.id}`);
const unique = (messages: readonly Message[]) => new Set(messages.map((message) => message.id)).size === messages.length;

describe("B1/B2: a tool call sharing its id with a text message", () => {
  const sequence = [
    RS,
    ev.textMessageStart("x"),
    ev.textMessageContent("x", "Let me check."),
    ev.textMessageEnd("x"),
    ev.toolCallStart("x", "lookup"),
    ev.toolCallArgs("x", "{}"),
    ev.toolCallEnd("x"),
  ];

  test('B1: the call\'s arguments are built ("{}", as 1.0.0 has them), in the assistant message with that id', () => {
    const { state, updates } = applied(...sequence, RF);
    const messages = state.messages.snapshot();
    expect(messages).toEqual([
      { id: "x", role: "assistant", content: "Let me check.", toolCalls: [{ id: "x", type: "function", function: { name: "lookup", arguments: "{}" } }] },
    ]);
    expect(updates.filter((u) => u.kind === "message").map((u) => u.kind === "message" && u.change.kind)).toEqual([
      "started",
      "content",
      "ended",
      "toolCallStarted",
      "toolCallArgs",
      "toolCallEnded",
    ]);
    expect(updates.find((u) => u.kind === "message" && u.change.kind === "toolCallEnded")).toMatchObject({ change: { args: {} } });
  });

  test("B2: its result lands right after the assistant message that holds the call (A7)", () => {
    const { state } = applied(
      ...sequence,
      ev.textMessageStart("later", { role: "assistant" }),
      ev.textMessageEnd("later"),
      ev.toolCallResult("res", "x", "42"),
      RF,
    );
    expect(ids(state.messages.snapshot())).toEqual(["assistant:x", "tool:res", "assistant:later"]);
  });

  test("a call whose only possible holder id names a message of another role is refused in-band; ids stay unique", () => {
    const { state, updates } = applied(
      RS,
      ev.textMessageStart("x", { role: "user" }),
      ev.textMessageEnd("x"),
      ev.toolCallStart("x", "f"),
      ev.toolCallArgs("x", "{}"),
    );
    expect(ids(state.messages.snapshot())).toEqual(["user:x"]);
    const [error] = updates.flatMap((u) => (u.kind === "error" ? [u.error] : []));
    expect([error.kind, error.code]).toEqual(["protocol", "message-id-taken"]);
    expect(error.message).toContain("user message");
  });
});

describe("B3: a snapshot's id wins over a local activity (A10)", () => {
  test("RS, ACTIVITY_SNAPSHOT(x), MESSAGES_SNAPSHOT([{x, user}]), RF: the snapshot's message replaces the activity", () => {
    const { state } = applied(
      RS,
      ev.activitySnapshot("x", "PLAN", { steps: [] }),
      ev.messagesSnapshot([{ id: "x", role: "user", content: "from the server" }]),
      RF,
    );
    expect(state.messages.snapshot()).toEqual([{ id: "x", role: "user", content: "from the server" }]);
  });

  test("the same for a local reasoning message; other local activity and reasoning are still kept (A10)", () => {
    const { state } = applied(
      RS,
      ev.reasoningStart("r"),
      ev.reasoningMessageStart("r"),
      ev.reasoningMessageEnd("r"),
      ev.reasoningEnd("r"),
      ev.activitySnapshot("a", "PLAN", { steps: [] }),
      ev.messagesSnapshot([{ id: "r", role: "assistant", content: "answer" }]),
    );
    expect(ids(state.messages.snapshot())).toEqual(["assistant:r", "activity:a"]);
  });
});

describe("B4: a TOOL_CALL_RESULT whose messageId is taken", () => {
  test.each([
    ["an activity", ev.activitySnapshot("m1", "PLAN", { steps: [] }), "activity"],
    ["a text message", ev.textMessageStart("m1"), "assistant"],
  ])("after %s m1: refused in-band, the message kept, ids unique", (_what, first, role) => {
    const { state, updates } = applied(RS, first, ev.toolCallStart("t1", "f"), ev.toolCallEnd("t1"), ev.toolCallResult("m1", "t1", "done"));
    const messages = state.messages.snapshot();
    expect(unique(messages)).toBe(true);
    expect(messages.find((message) => message.id === "m1")?.role).toBe(role);
    const errors = updates.flatMap((u) => (u.kind === "error" ? [u.error] : []));
    expect(errors.map((error) => [error.kind, error.code])).toEqual([["protocol", "message-id-taken"]]);
    expect(errors[0].message).toContain('messageId "m1"');
  });

  test("a replayed result (same messageId, same call) replaces the first, in place", () => {
    const { state } = applied(
      RS,
      ev.toolCallStart("t1", "f"),
      ev.toolCallEnd("t1"),
      ev.toolCallResult("r1", "t1", "first"),
      ev.toolCallResult("r1", "t1", "second"),
    );
    expect(state.messages.snapshot().filter((message) => message.id === "r1")).toEqual([{ id: "r1", role: "tool", toolCallId: "t1", content: "second" }]);
  });

  test("a result reusing the messageId of another call's result is refused", () => {
    const { state, updates } = applied(RS, ev.toolCallResult("r1", "t1", "a"), ev.toolCallResult("r1", "t2", "b"));
    expect(state.messages.snapshot()).toEqual([{ id: "r1", role: "tool", toolCallId: "t1", content: "a" }]);
    expect(updates.some((u) => u.kind === "error" && u.error.message.includes("the result of tool call t1"))).toBe(true);
  });
});

describe("issue #20: an ACTIVITY_SNAPSHOT on an assistant message that holds tool calls (A11 exception)", () => {
  const merged = [RS, ev.textMessageStart("a"), ev.textMessageEnd("a"), ev.toolCallStart("c", "f", { parentMessageId: "a" }), ev.toolCallEnd("c")];
  const call = { id: "c", type: "function", function: { name: "f", arguments: "" } };

  test("replace (the default): refused in-band, nothing of the event applied, the message and its call kept", () => {
    const { state, updates } = applied(...merged, ev.activitySnapshot("a", "PLAN", { steps: [] }, { metadata: { k: 1 } }));
    expect(state.messages.snapshot()).toEqual([{ id: "a", role: "assistant", content: "", toolCalls: [call] }]);
    const last = updates[updates.length - 1];
    expect(last.kind === "error" && [last.error.kind, last.error.code, last.error.event]).toEqual([
      "protocol",
      "message-id-taken",
      expect.objectContaining({ type: "ACTIVITY_SNAPSHOT" }),
    ]);
    expect(updates.filter((u) => u.kind === "message" && u.change.kind === "activity")).toEqual([]);
  });

  test("replace: false leaves it untouched as before, with no error", () => {
    const { state, updates } = applied(...merged, ev.activitySnapshot("a", "PLAN", {}, { replace: false }));
    expect(state.messages.snapshot()).toEqual([{ id: "a", role: "assistant", content: "", toolCalls: [call] }]);
    expect(updates.some((u) => u.kind === "error")).toBe(false);
  });
});

describe("B5: the same input gives the same result as SSE and as objects (defaults in one place)", () => {
  // What a peer sends, without the members that have defaults (as JSON, where they may be omitted).
  const wire = [
    { type: "RUN_STARTED", threadId: "thread-1", runId: "run-1" },
    { type: "TEXT_MESSAGE_START", messageId: "m1" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "hi" },
    { type: "TEXT_MESSAGE_END", messageId: "m1" },
    { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "PLAN", content: { steps: [1] } },
    { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "PLAN", content: { steps: [2] } },
    { type: "TOOL_CALL_START", toolCallId: "t1", toolCallName: "f", parentMessageId: null },
    { type: "TOOL_CALL_END", toolCallId: "t1" },
    { type: "RUN_FINISHED", threadId: "thread-1", runId: "run-1" },
  ];
  const objects = wire as unknown as Event[]; // as an untyped producer (a JSON recording) hands them over
  const expected = [
    { id: "id-1", role: "user", content: "go" },
    { id: "m1", role: "assistant", content: "hi" },
    { id: "a1", role: "activity", activityType: "PLAN", content: { steps: [2] } }, // replace defaults to true
    { id: "t1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "f", arguments: "" } }] },
  ];

  test("as an SSE body", async () => {
    const session = replaySession(wire.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""));
    await collect(session.send("go"));
    expect(session.messages).toEqual(expected);
  });

  test("as objects through ReplayTransport", async () => {
    const session = replaySession(objects);
    await collect(session.send("go"));
    expect(session.messages).toEqual(expected);
  });

  test("as objects straight into applyEvents(): the reducer reads the same defaults", async () => {
    const state = ClientState.untyped();
    state.messages.append({ id: "id-1", role: "user", content: "go" });
    const defaulted = objects.filter((event) => event.type !== "TOOL_CALL_START"); // a null member is the decoder's to drop
    await lastValueFrom(from(defaulted).pipe(applyEvents({ state }), toArray()));
    expect(state.messages.snapshot()).toEqual(expected.filter((message) => message.id !== "t1"));
  });
});

describe("C6: __proto__, constructor and prototype metadata keys are refused on every path", () => {
  const unsafe = () => JSON.parse('{"__proto__":{"polluted":true},"constructor":1,"ok":2}') as Record<string, unknown>;
  const refusals = (updates: readonly Update[]) =>
    updates.flatMap((u) => (u.kind === "error" && u.error.code === "unsafe-metadata-key" ? [u.error.message] : []));

  test("TEXT_MESSAGE_START (an event), MESSAGES_SNAPSHOT (message and tool call) and the RUN_STARTED echo alike", () => {
    const viaEvent = applied(ev.textMessageStart("m1", { metadata: unsafe() }));
    const viaSnapshot = applied(
      ev.messagesSnapshot([
        { id: "u1", role: "user", content: "hi", metadata: unsafe() },
        { id: "a1", role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "f", arguments: "{}" }, metadata: unsafe() }] },
      ]),
    );
    const viaEcho = applied(
      ev.runStarted("t", "r", {
        input: { threadId: "t", runId: "r", messages: [{ id: "u9", role: "user", content: "x", metadata: unsafe() }], tools: [], context: [] },
      }),
    );
    for (const { updates } of [viaEvent, viaSnapshot, viaEcho]) {
      expect(refusals(updates).length).toBeGreaterThanOrEqual(2);
      expect(refusals(updates).every((message) => /metadata key "(__proto__|constructor)" refused/.test(message))).toBe(true);
    }
    const metadataOf = (state: ClientState<unknown>) =>
      state.messages
        .snapshot()
        .flatMap((message) => [message.metadata, ...(message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.metadata) : [])])
        .filter(Boolean);
    for (const { state } of [viaEvent, viaSnapshot, viaEcho]) {
      for (const metadata of metadataOf(state)) {
        expect(Object.keys(metadata as object)).toEqual(["ok"]);
        expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("through a whole Session over SSE the refusals are protocol errors and the run succeeds", async () => {
    const snapshot = `data: {"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u1","role":"user","content":"hi","metadata":{"__proto__":{"x":1}}}]}\n\n`;
    const session = replaySession(sse([RS]) + snapshot + sse([RF]));
    const updates = await collect(session.send("go"));
    expect(errorsOf(updates).map((error) => [error.kind, error.code])).toEqual([["protocol", "unsafe-metadata-key"]]);
    expect(session.messages[0].metadata).toEqual({});
  });
});
