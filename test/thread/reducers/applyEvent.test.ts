/** The reducer against docs/rules.md#apply and the apply rows of docs/rules.md#edge-cases (69–85, 90). */
import { ev, withSubagentRunId } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import type { Update } from "../../../src/thread/Update";

function fresh(): ClientState<unknown> {
  return ClientState.untyped();
}

function apply(state: ClientState<unknown>, ...events: Event[]): Update[] {
  return events.flatMap((event) => [...applyEvent(state, event)]);
}

const ids = (state: ClientState<unknown>) => state.messages.snapshot().map((message) => message.id);
const roles = (state: ClientState<unknown>) => state.messages.snapshot().map((message) => `${message.role}(${message.id})`);
const at = (state: ClientState<unknown>, id: string): Message => {
  const index = state.messages.indexOf(id);
  if (index < 0) throw new Error(`no message ${id}`);
  return state.messages.at(index);
};
const toolCallsOf = (message: Message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []);

function seed(state: ClientState<unknown>, messages: Message[]): void {
  for (const message of messages) state.messages.append(message);
}

const user = (id: string, content = "hi"): Message => ({ id, role: "user", content });
const assistant = (id: string, content = "ok"): Message => ({ id, role: "assistant", content });
const activity = (id: string, content: Record<string, unknown> = {}): Message => ({ id, role: "activity", activityType: "plan", content });
const reasoning = (id: string): Message => ({ id, role: "reasoning", content: "thinking" });

describe("text messages (A1–A3)", () => {
  it("creates, extends and ends a message, one update per event", () => {
    const state = fresh();
    const updates = apply(
      state,
      ev.textMessageStart("m1", { name: "bot" }),
      ev.textMessageContent("m1", "Hel"),
      ev.textMessageContent("m1", "lo"),
      ev.textMessageEnd("m1"),
    );
    expect(updates.map((update) => (update.kind === "message" ? update.change.kind : update.kind))).toEqual(["started", "content", "content", "ended"]);
    expect(state.messages.snapshot()).toEqual([{ id: "m1", role: "assistant", content: "Hello", name: "bot" }]);
    const content = updates[1];
    expect(content).toMatchObject({ kind: "message", index: 0, id: "m1", change: { kind: "content", delta: "Hel" }, message: { content: "Hel" } });
  });

  it("reuses an existing message of any role unchanged (A1)", () => {
    const state = fresh();
    seed(state, [user("u1", "question")]);
    apply(state, ev.textMessageStart("u1"), ev.textMessageContent("u1", "!"));
    expect(state.messages.snapshot()).toEqual([{ id: "u1", role: "user", content: "question!" }]);
  });

  it("ignores continuations for unknown ids", () => {
    const state = fresh();
    expect(apply(state, ev.textMessageContent("ghost", "x"), ev.textMessageEnd("ghost"), ev.toolCallArgs("t", "x"), ev.toolCallEnd("t"))).toEqual([]);
    expect(state.messages.length).toBe(0);
  });

  it("keeps every other message's identity when one message changes", () => {
    const state = fresh();
    apply(state, ev.textMessageStart("a"), ev.textMessageStart("b"));
    const before = state.messages.snapshot();
    apply(state, ev.textMessageContent("b", "x"));
    const after = state.messages.snapshot();
    expect(after).not.toBe(before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(Object.isFrozen(after)).toBe(true);
    expect(state.messages.snapshot()).toBe(after); // rebuilt on change only
  });
});

describe("tool calls (A4–A7), rows 69–72, 82, 83", () => {
  it("row 69: TCS with a parent that does not exist yet creates it; TMS reuses it", () => {
    const state = fresh();
    apply(state, ev.toolCallStart("t1", "search", { parentMessageId: "m1" }), ev.textMessageStart("m1"), ev.textMessageContent("m1", "hi"));
    expect(state.messages.snapshot()).toEqual([
      { id: "m1", role: "assistant", content: "hi", toolCalls: [{ id: "t1", type: "function", function: { name: "search", arguments: "" } }] },
    ]);
  });

  it.each([
    ["no parentMessageId", undefined, [], "t1"],
    ["a parent that names nothing", "ghost", [], "ghost"],
    ["a parent that is a user message", "u1", [user("u1")], "t1"],
  ])("row 70: %s → new assistant message %s", (_label, parentMessageId, local, expectedId) => {
    const state = fresh();
    seed(state, local);
    const updates = apply(state, ev.toolCallStart("t1", "f", parentMessageId === undefined ? {} : { parentMessageId }));
    const created = at(state, expectedId);
    expect(created).toEqual({ id: expectedId, role: "assistant", toolCalls: [{ id: "t1", type: "function", function: { name: "f", arguments: "" } }] });
    expect(updates).toEqual([
      { kind: "message", index: local.length, id: expectedId, change: { kind: "toolCallStarted", toolCallId: "t1" }, message: created },
    ]);
  });

  it("attaches to an existing assistant parent", () => {
    const state = fresh();
    seed(state, [assistant("a1")]);
    apply(state, ev.toolCallStart("t1", "f", { parentMessageId: "a1" }), ev.toolCallStart("t2", "g", { parentMessageId: "a1" }));
    expect(ids(state)).toEqual(["a1"]);
    expect(toolCallsOf(at(state, "a1")).map((call) => call.id)).toEqual(["t1", "t2"]);
  });

  it("row 71: a replayed TCS adds nothing and yields nothing; a new name renames", () => {
    const state = fresh();
    apply(state, ev.toolCallStart("t1", "a"));
    expect(apply(state, ev.toolCallStart("t1", "a"))).toEqual([]);
    expect(state.messages.length).toBe(1);
    const renamed = apply(state, ev.toolCallStart("t1", "b"));
    expect(renamed).toHaveLength(1);
    expect(toolCallsOf(at(state, "t1"))).toEqual([{ id: "t1", type: "function", function: { name: "b", arguments: "" } }]);
  });

  it("A5/A6: arguments accumulate; the end reports them parsed, {} when they do not parse", () => {
    const state = fresh();
    apply(state, ev.toolCallStart("t1", "f"), ev.toolCallArgs("t1", '{"q":'), ev.toolCallArgs("t1", '"x"}'));
    expect(apply(state, ev.toolCallEnd("t1"))).toMatchObject([{ change: { kind: "toolCallEnded", toolCallId: "t1", args: { q: "x" } } }]);
    apply(state, ev.toolCallStart("t2", "f"), ev.toolCallArgs("t2", "{oops"));
    expect(apply(state, ev.toolCallEnd("t2"))).toMatchObject([{ change: { kind: "toolCallEnded", args: {} } }]);
  });

  it("row 72: a result goes right after its holder and the tool messages already there", () => {
    const state = fresh();
    apply(
      state,
      ev.toolCallStart("t1", "f"),
      ev.toolCallEnd("t1"),
      ev.textMessageStart("x"),
      ev.textMessageContent("x", "after"),
      ev.textMessageEnd("x"),
      ev.toolCallResult("r1", "t1", "done"),
    );
    expect(roles(state)).toEqual(["assistant(t1)", "tool(r1)", "assistant(x)"]);
    const second = apply(state, ev.toolCallResult("r2", "t1", "again"));
    expect(roles(state)).toEqual(["assistant(t1)", "tool(r1)", "tool(r2)", "assistant(x)"]);
    expect(second).toMatchObject([{ kind: "message", index: 2, id: "r2", change: { kind: "toolResult", toolCallId: "t1" } }]);
    expect(state.messages.indexOf("x")).toBe(3);
  });

  it("A7: a result for an unknown call is appended; a replayed result replaces the first in place (ids stay unique; revised)", () => {
    const state = fresh();
    apply(state, ev.toolCallResult("r1", "nobody", "x"), ev.toolCallResult("r2", "other", "y"));
    const updates = apply(state, ev.toolCallResult("r1", "nobody", "x2"));
    expect(roles(state)).toEqual(["tool(r1)", "tool(r2)"]);
    expect(at(state, "r1")).toMatchObject({ content: "x2" });
    expect(updates).toMatchObject([{ kind: "message", index: 0, change: { kind: "toolResult", toolCallId: "nobody" } }]);
  });

  it("row 82: TCS/TCA/TCE metadata lands on the tool call, TCR metadata on the tool message, never on the assistant", () => {
    const state = fresh();
    apply(
      state,
      ev.toolCallStart("t1", "f", { metadata: { a: 1 } }),
      ev.toolCallArgs("t1", "{}", { metadata: { b: 2 } }),
      ev.toolCallEnd("t1", { metadata: { c: 3 } }),
      ev.toolCallResult("r1", "t1", "ok", { metadata: { d: 4 } }),
    );
    const holder = at(state, "t1");
    expect(holder.metadata).toBeUndefined();
    expect(toolCallsOf(holder)[0].metadata).toEqual({ a: 1, b: 2, c: 3 });
    expect(at(state, "r1").metadata).toEqual({ d: 4 });
  });

  it("row 83: an existing parent keeps its owner; a created one takes the event's tag", () => {
    const state = fresh();
    apply(
      state,
      withSubagentRunId(ev.textMessageStart("m2"), "owner"),
      withSubagentRunId(ev.toolCallStart("tc", "f", { parentMessageId: "m2" }), "intruder"),
      withSubagentRunId(ev.toolCallStart("tc2", "f"), "maker"),
      withSubagentRunId(ev.toolCallResult("r", "tc", "x"), "executor"),
    );
    expect(at(state, "m2").subagentRunId).toBe("owner");
    expect(at(state, "tc2").subagentRunId).toBe("maker");
    expect(at(state, "r").subagentRunId).toBe("executor");
  });
});

describe("state (A8, A9), row 73", () => {
  it("replaces on snapshot, patches on delta, reports a failing delta and keeps the state", () => {
    const state = fresh();
    const updates = apply(
      state,
      ev.stateSnapshot({ count: 1 }),
      ev.stateDelta([{ op: "replace", path: "/missing/deeply", value: 2 }]),
      ev.stateDelta([{ op: "replace", path: "/count", value: 2 }]),
    );
    expect(updates.map((update) => update.kind)).toEqual(["state", "error", "state"]);
    const error = updates[1];
    if (error.kind !== "error") throw new Error("expected an error");
    expect(error.error.kind).toBe("patch");
    expect(error.error.message).toContain("state patch failed");
    expect(state.rawState).toEqual({ count: 2 });
  });

  it("is atomic: a patch whose second operation fails changes nothing", () => {
    const state = fresh();
    apply(state, ev.stateSnapshot({ a: 1 }));
    const before = state.rawState;
    apply(
      state,
      ev.stateDelta([
        { op: "replace", path: "/a", value: 5 },
        { op: "remove", path: "/nope" },
      ]),
    );
    expect(state.rawState).toBe(before);
    expect(state.rawState).toEqual({ a: 1 });
  });

  it("shares structure: after a delta on /a/b, /c is the same object and /a a new one", () => {
    const state = fresh();
    apply(state, ev.stateSnapshot({ a: { b: 1, keep: { deep: true } }, c: { d: [1, 2, 3] } }));
    const before = state.rawState as { a: { keep: object }; c: object }; // test-side view of the JSON just applied
    apply(state, ev.stateDelta([{ op: "replace", path: "/a/b", value: 2 }]));
    const after = state.rawState as typeof before & { a: { b: number } };
    expect(after).not.toBe(before);
    expect(after.c).toBe(before.c);
    expect(after.a).not.toBe(before.a);
    expect(after.a.keep).toBe(before.a.keep);
    expect(after.a.b).toBe(2);
  });

  it.each(["__proto__", "constructor", "prototype"])("rejects a %s segment in a state patch", (segment) => {
    const state = fresh();
    apply(state, ev.stateSnapshot({ a: {} }));
    const updates = apply(state, ev.stateDelta([{ op: "add", path: `/a/${segment}/polluted`, value: true }]));
    expect(updates.map((update) => update.kind)).toEqual(["error"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(state.rawState).toEqual({ a: {} });
  });

  it("does not alias the snapshot event", () => {
    const state = fresh();
    const snapshot = { list: [1] };
    apply(state, ev.stateSnapshot(snapshot));
    snapshot.list.push(2);
    expect(state.rawState).toEqual({ list: [1] });
  });
});

describe("MESSAGES_SNAPSHOT (A10), rows 74–76", () => {
  it("row 74: keeps local activity when the snapshot has none; drops what it lacks", () => {
    const state = fresh();
    seed(state, [user("m1"), activity("act"), assistant("m2")]);
    const updates = apply(state, ev.messagesSnapshot([user("m1"), assistant("m2")]));
    expect(ids(state)).toEqual(["m1", "act", "m2"]);
    expect(updates).toEqual([{ kind: "messages", messages: state.messages.snapshot() }]);

    const other = fresh();
    seed(other, [user("m1"), activity("act"), assistant("m2")]);
    apply(other, ev.messagesSnapshot([assistant("m2")]));
    expect(ids(other)).toEqual(["act", "m2"]);
  });

  it("row 75: survivors keep local order, renamed ids land at the end", () => {
    const state = fresh();
    seed(state, [user("m1"), assistant("asst-1"), { id: "tool-stream", role: "tool", toolCallId: "c", content: "s" }, activity("act"), assistant("asst-2")]);
    apply(
      state,
      ev.messagesSnapshot([user("m1"), assistant("asst-1"), { id: "tool-canon", role: "tool", toolCallId: "c", content: "s" }, assistant("asst-2")]),
    );
    expect(ids(state)).toEqual(["m1", "asst-1", "act", "asst-2", "tool-canon"]);
  });

  it("row 76: a snapshot with reasoning (or activity) replaces the local ones of that role", () => {
    const state = fresh();
    seed(state, [user("u"), reasoning("uuid-a"), activity("act-a")]);
    apply(state, ev.messagesSnapshot([user("u"), reasoning("rs-1"), activity("act-1")]));
    expect(ids(state)).toEqual(["u", "rs-1", "act-1"]);
  });

  it("replaces a local message by the snapshot's version and rebuilds the tool-call index", () => {
    const state = fresh();
    apply(state, ev.toolCallStart("t1", "f"));
    apply(state, ev.messagesSnapshot([{ id: "a", role: "assistant", toolCalls: [{ id: "t9", type: "function", function: { name: "g", arguments: "" } }] }]));
    expect(ids(state)).toEqual(["a"]);
    apply(state, ev.toolCallArgs("t9", "{}"));
    expect(toolCallsOf(at(state, "a"))[0].function.arguments).toBe("{}");
    expect(apply(state, ev.toolCallArgs("t1", "x"))).toEqual([]);
  });
});

describe("activity (A11, A12), rows 77–79, 84", () => {
  it("row 77: replace=false leaves an activity's content; replace=true turns a user message into an activity in place", () => {
    const state = fresh();
    apply(state, ev.activitySnapshot("a", "plan", { step: 1 }));
    apply(state, ev.activitySnapshot("a", "other", { step: 2 }, { replace: false }));
    expect(at(state, "a")).toEqual({ id: "a", role: "activity", activityType: "plan", content: { step: 1 } });

    seed(state, [user("u")]);
    apply(state, ev.activitySnapshot("u", "plan", { x: 1 }));
    expect(roles(state)).toEqual(["activity(a)", "activity(u)"]);
    apply(state, ev.activitySnapshot("u2", "plan", {}, { replace: false }));
    expect(ids(state)).toEqual(["a", "u", "u2"]);
  });

  it("leaves a non-activity message alone when replace=false", () => {
    const state = fresh();
    seed(state, [user("u")]);
    expect(apply(state, ev.activitySnapshot("u", "plan", {}, { replace: false }))).toEqual([]);
    expect(at(state, "u").role).toBe("user");
  });

  it("row 78: deltas patch the content in order", () => {
    const state = fresh();
    apply(state, ev.activitySnapshot("a", "plan", { ops: [] }), ev.activityDelta("a", "plan", [{ op: "add", path: "/ops/-", value: "x" }]));
    const updates = apply(state, ev.activityDelta("a", "plan", [{ op: "add", path: "/ops/-", value: "y" }]));
    expect(at(state, "a")).toMatchObject({ content: { ops: ["x", "y"] } });
    expect(updates).toMatchObject([{ kind: "message", change: { kind: "activity" } }]);
  });

  it("row 79: a failing delta still merges its metadata; the content stays; a patch error is reported", () => {
    const state = fresh();
    apply(state, ev.activitySnapshot("a", "plan", { n: 1 }));
    const updates = apply(state, ev.activityDelta("a", "plan", [{ op: "remove", path: "/missing" }], { metadata: { k: 1 } }));
    expect(at(state, "a")).toEqual({ id: "a", role: "activity", activityType: "plan", content: { n: 1 }, metadata: { k: 1 } });
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ kind: "error", error: { kind: "patch" } });
  });

  it("rejects prototype segments in activity patches", () => {
    const state = fresh();
    apply(state, ev.activitySnapshot("a", "plan", { n: 1 }));
    const updates = apply(state, ev.activityDelta("a", "plan", [{ op: "add", path: "/__proto__/x", value: 1 }]));
    expect(updates).toMatchObject([{ kind: "error", error: { kind: "patch" } }]);
    expect(at(state, "a")).toMatchObject({ content: { n: 1 } });
  });

  it("ignores a delta for a missing or non-activity message", () => {
    const state = fresh();
    seed(state, [user("u")]);
    expect(apply(state, ev.activityDelta("u", "plan", []), ev.activityDelta("nope", "plan", []))).toEqual([]);
  });

  it("row 84: a replacing snapshot removes attribution; a non-replacing one keeps it", () => {
    const state = fresh();
    apply(state, withSubagentRunId(ev.activitySnapshot("a", "plan", {}, { metadata: { kept: true } }), "s1"), ev.activitySnapshot("a", "plan", { v: 2 }));
    expect(at(state, "a")).toEqual({ id: "a", role: "activity", activityType: "plan", content: { v: 2 }, metadata: { kept: true } });
    const other = fresh();
    apply(
      other,
      withSubagentRunId(ev.activitySnapshot("a", "plan", {}), "s1"),
      withSubagentRunId(ev.activitySnapshot("a", "plan", {}, { replace: false }), "s2"),
    );
    expect(at(other, "a").subagentRunId).toBe("s1");
  });

  it("clones the snapshot's content", () => {
    const state = fresh();
    const content = { items: ["a"] };
    apply(state, ev.activitySnapshot("a", "plan", content));
    content.items.push("b");
    expect(at(state, "a")).toMatchObject({ content: { items: ["a"] } });
  });
});

describe("metadata (A20), rows 80, 81", () => {
  it("row 80: per key, last write wins, across the events that built the message", () => {
    const state = fresh();
    apply(
      state,
      ev.textMessageStart("m", { metadata: { source: "llm", stage: "start" } }),
      ev.textMessageContent("m", "x", { metadata: { stage: "content" } }),
      ev.textMessageEnd("m", { metadata: { stage: "end", usage: { out: 3 } } }),
    );
    expect(at(state, "m").metadata).toEqual({ source: "llm", stage: "end", usage: { out: 3 } });
  });

  it("row 81: arrays and nested objects are replaced whole; null is kept; {} changes nothing", () => {
    const state = fresh();
    apply(
      state,
      ev.textMessageStart("m", { metadata: { tags: ["a", "b", "c"], "ag-ui": { usage: { in: 1 } } } }),
      ev.textMessageContent("m", "", { metadata: { tags: ["z"], "ag-ui": { usage: { out: 2 } } } }),
    );
    expect(at(state, "m").metadata).toEqual({ tags: ["z"], "ag-ui": { usage: { out: 2 } } });
    const before = at(state, "m");
    apply(state, ev.textMessageEnd("m", { metadata: {} }));
    expect(at(state, "m")).toBe(before);
    apply(state, ev.textMessageEnd("m", { metadata: { tags: null } }));
    expect(at(state, "m").metadata).toEqual({ tags: null, "ag-ui": { usage: { out: 2 } } });
  });

  it("clones values, so mutating the event later does not reach the message", () => {
    const state = fresh();
    const metadata = { usage: { tokens: 1 } };
    apply(state, ev.textMessageStart("m", { metadata }));
    metadata.usage.tokens = 99;
    expect(at(state, "m").metadata).toEqual({ usage: { tokens: 1 } });
  });

  it.each(["__proto__", "constructor", "prototype"])("refuses the metadata key %s with a protocol error and keeps the rest", (key) => {
    const state = fresh();
    const metadata: Record<string, unknown> = JSON.parse(`{"${key}": {"polluted": true}, "ok": 1}`);
    const updates = apply(state, ev.textMessageStart("m", { metadata }));
    expect(updates.map((update) => update.kind)).toEqual(["error", "message"]);
    expect(updates[0]).toMatchObject({ kind: "error", error: { kind: "protocol" } });
    const stored = at(state, "m").metadata ?? {};
    expect(Object.keys(stored)).toEqual(["ok"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("reasoning and encrypted values (A13, A14), row 90", () => {
  it("reasoning messages are in the list and surface as reasoning updates", () => {
    const state = fresh();
    const updates = apply(
      state,
      ev.reasoningStart("r1"),
      withSubagentRunId(ev.reasoningMessageStart("r1"), "s1"),
      ev.reasoningMessageContent("r1", "Let me think"),
      ev.reasoningMessageEnd("r1", { metadata: { tokens: 4 } }),
      ev.reasoningEnd("r1"),
    );
    expect(updates.map((update) => (update.kind === "reasoning" ? `${update.change.kind}:${update.text}` : update.kind))).toEqual([
      "started:",
      "content:Let me think",
      "ended:",
    ]);
    expect(state.messages.snapshot()).toEqual([{ id: "r1", role: "reasoning", content: "Let me think", subagentRunId: "s1", metadata: { tokens: 4 } }]);
  });

  it("sets encrypted values on tool calls and messages, never merging the event's metadata", () => {
    const state = fresh();
    apply(state, ev.toolCallStart("c", "f"), ev.reasoningMessageStart("r"));
    const onCall = apply(state, ev.reasoningEncryptedValue("tool-call", "c", "enc-1", { metadata: { m: 1 } }));
    const onMessage = apply(state, ev.reasoningEncryptedValue("message", "r", "enc-2", { metadata: { m: 1 } }));
    expect(onCall).toMatchObject([{ kind: "message", id: "c", change: { kind: "encryptedValue", subtype: "tool-call", entityId: "c" } }]);
    expect(onMessage).toMatchObject([{ kind: "message", id: "r", change: { kind: "encryptedValue", subtype: "message" } }]);
    expect(toolCallsOf(at(state, "c"))[0]).toEqual({ id: "c", type: "function", function: { name: "f", arguments: "" }, encryptedValue: "enc-1" });
    expect(at(state, "r")).toEqual({ id: "r", role: "reasoning", content: "", encryptedValue: "enc-2" });
  });

  it("row 90: an unknown tool call or an activity target changes nothing and yields nothing", () => {
    const state = fresh();
    apply(state, ev.activitySnapshot("act", "plan", {}));
    const before = state.messages.snapshot();
    expect(apply(state, ev.reasoningEncryptedValue("tool-call", "unknown", "x"), ev.reasoningEncryptedValue("message", "act", "x"))).toEqual([]);
    expect(state.messages.snapshot()).toBe(before);
  });
});

describe("RUN_STARTED echo (A15), row 85; no-op events (A18)", () => {
  it("appends input messages it lacks, without duplicates, before what the run streams", () => {
    const state = fresh();
    seed(state, [user("m1")]);
    apply(
      state,
      ev.runStarted("t", "r", { input: { threadId: "t", runId: "r", messages: [user("m1"), user("u")], tools: [], context: [] } }),
      ev.textMessageStart("a"),
    );
    expect(ids(state)).toEqual(["m1", "u", "a"]);
  });

  it("steps, custom, raw and reasoning start/end change nothing", () => {
    const state = fresh();
    expect(apply(state, ev.stepStarted("s"), ev.stepFinished("s"), ev.custom("c", 1), ev.raw({}), ev.reasoningStart("x"), ev.reasoningEnd("x"))).toEqual([]);
    expect(state.messages.length).toBe(0);
  });
});

describe("subagent registry (A18, I12, I13)", () => {
  it("started, suspended, resumed (same entry), finished; failed; a reused finished id starts again", () => {
    const state = fresh();
    const changes = apply(
      state,
      ev.subagentStarted("s1", "researcher", { description: "digs", parentToolCallId: "tc" }),
      ev.subagentFinished("s1", { outcome: { type: "suspended", interruptIds: ["i1"] } }),
      ev.subagentStarted("s1", "researcher"),
      ev.subagentFinished("s1", { result: "r" }),
      ev.subagentStarted("s2", "writer"),
      ev.subagentError("s2", "boom", { code: "E" }),
      ev.subagentStarted("s1", "researcher-2"),
      ev.subagentFinished("ghost"),
    ).map((update) => (update.kind === "subagent" ? `${update.change}:${update.subagent.id}:${update.subagent.status.kind}` : update.kind));
    expect(changes).toEqual([
      "started:s1:running",
      "suspended:s1:suspended",
      "resumed:s1:running",
      "finished:s1:finished",
      "started:s2:running",
      "failed:s2:failed",
      "started:s1:running",
    ]);
    expect(state.subagentList().map((entry) => entry.id)).toEqual(["s1", "s2"]);
    expect(state.subagents.get("s2")?.status).toEqual({ kind: "failed", message: "boom", code: "E" });
    expect(state.subagents.get("s1")?.name).toBe("researcher-2");
  });
});

describe("terminal events (A16, A17)", () => {
  it("RUN_FINISHED success ends with the result and clears interrupts; interrupt outcome records them", () => {
    const state = fresh();
    const interrupt = { id: "i1", reason: "confirmation" };
    const interrupted = apply(state, ev.runFinished("t", "r", { outcome: { type: "interrupt", interrupts: [interrupt] } }));
    expect(interrupted).toEqual([
      { kind: "interrupt", interrupt },
      { kind: "done", end: { kind: "interrupted", interrupts: [interrupt] } },
    ]);
    expect(state.interrupts).toEqual([interrupt]);
    expect(apply(state, ev.runFinished("t", "r", { result: { answer: 42 } }))).toEqual([{ kind: "done", end: { kind: "success", result: { answer: 42 } } }]);
    expect(state.interrupts).toEqual([]);
  });

  it("RUN_ERROR is a run error then a failed end with the message and code; nothing else changes", () => {
    const state = fresh();
    const interrupt = { id: "i1", reason: "confirmation" };
    apply(state, ev.runFinished("t", "r", { outcome: { type: "interrupt", interrupts: [interrupt] } }));
    const updates = apply(state, ev.runError("agent broke", { code: "BOOM" }));
    expect(updates).toMatchObject([
      { kind: "error", error: { kind: "run", message: "agent broke", code: "BOOM" } },
      { kind: "done", end: { kind: "failed", message: "agent broke", code: "BOOM" } },
    ]);
    expect(state.interrupts).toEqual([interrupt]);
  });

  it("a cancelled outcome ends cancelled, with no error: a stopped run is not a failed one (E2, revised)", () => {
    const updates = apply(fresh(), ev.runFinished("t", "r", { outcome: { type: "cancelled" } }));
    expect(updates).toEqual([{ kind: "done", end: { kind: "cancelled" } }]);
  });
});
