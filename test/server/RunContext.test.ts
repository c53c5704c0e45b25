/** RunContext readers and writers, through the createRunContext harness (no driver). */
import * as t from "io-ts";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Message } from "../../src/protocol/messages";
import { stateSpec } from "../../src/protocol/stateSpec";
import { ProtocolError } from "../../src/operators/ProtocolError";
import { createRunContext, sequentialIds } from "../../src/server";
import { types } from "./support";

const harness = (fields: Parameters<typeof runAgentInput>[2] = {}) => createRunContext(undefined, runAgentInput("t", "r", fields), { ids: sequentialIds() });

describe("readers", () => {
  const user = (id: string, content: Extract<Message, { role: "user" }>["content"]): Message => ({ id, role: "user", content });

  test.each<[string, Message[], string | undefined]>([
    ["no messages at all", [], undefined],
    ["no user message", [{ id: "a", role: "assistant", content: "hi" }], undefined],
    ["an empty user message", [user("u", "")], ""],
    ["the last of several user messages", [user("u1", "first"), { id: "a", role: "assistant", content: "ok" }, user("u2", "second")], "second"],
    [
      "multimodal: only the text parts, in order",
      [
        user("u", [
          { type: "text", text: "What is " },
          { type: "image", source: { type: "url", value: "https://example.com/cat.png" } },
          { type: "text", text: "this?" },
        ]),
      ],
      "What is this?",
    ],
    ["multimodal with no text part", [user("u", [{ type: "image", source: { type: "url", value: "x" } }])], ""],
  ])("lastUserText: %s", (_, messages, expected) => {
    expect(harness({ messages }).ctx.lastUserText()).toBe(expected);
  });

  test("request fields pass through", () => {
    const resume = [
      { interruptId: "i1", status: "resolved" as const, payload: { approved: true } },
      { interruptId: "i2", status: "cancelled" as const },
    ];
    const { ctx } = harness({
      parentRunId: "p",
      context: [{ description: "locale", value: "ko-KR" }],
      forwardedProps: { plan: "pro" },
      resume,
    });
    expect(ctx.parentRunId).toBe("p");
    expect(ctx.context).toEqual([{ description: "locale", value: "ko-KR" }]);
    expect(ctx.forwardedProps).toEqual({ plan: "pro" });
    expect(ctx.isResume).toBe(true);
    expect(ctx.resume).toEqual(resume);
    expect(ctx.resumeFor("i2")).toEqual({ interruptId: "i2", status: "cancelled" });
    expect(ctx.resumeFor("i3")).toBeUndefined();
    expect(ctx.input.threadId).toBe("t");
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.subagentRunId).toBeUndefined();
  });
});

describe("writers", () => {
  test("assistantMessage with an id and a name; say returns the id", () => {
    const { ctx, events } = harness();
    const message = ctx.assistantMessage({ id: "m1", name: "Ada" });
    message.delta("Hel").delta("lo");
    message.end();
    expect(ctx.say("Bye")).toBe("id-1");
    expect(events.slice(0, 4)).toEqual([
      { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant", name: "Ada" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hel" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "lo" },
      { type: "TEXT_MESSAGE_END", messageId: "m1" },
    ]);
  });

  test("a bad write throws a ProtocolError and sends nothing", () => {
    const { ctx, events } = harness();
    const message = ctx.assistantMessage();
    message.end();
    const before = events.length;
    expect(() => message.delta("late")).toThrow(ProtocolError);
    let second: unknown;
    try {
      message.end();
    } catch (error) {
      second = error;
    }
    expect(second).toMatchObject({ name: "ProtocolError", rule: "R15" });
    expect(() => ctx.assistantMessage({ id: "x" }) && ctx.assistantMessage({ id: "x" })).toThrow(ProtocolError);
    expect(events.length).toBe(before + 1); // only the first "x" start
  });

  test("handles support `using`: a message ends when its block exits", () => {
    const { ctx, events } = harness();
    {
      using message = ctx.assistantMessage({ id: "m" });
      message.delta("scoped");
    }
    expect(types(events)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]);
  });

  test("tool call: args, argsJson, a parent message, result with its own message id", () => {
    const { ctx, events } = harness();
    const call = ctx.toolCall("search", { id: "c1", parentMessageId: "m0" });
    call.args('{"q":').args('"cats"}');
    expect(call.result("3 hits", { messageId: "r1" })).toBe("r1");
    expect(call.isOpen).toBe(false);
    expect(events).toEqual([
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "search", parentMessageId: "m0" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":' },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"cats"}' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "r1", toolCallId: "c1", content: "3 hits", role: "tool" },
    ]);
    expect(() => call.args("more")).toThrow(ProtocolError);
  });

  test("argsJson refuses a value JSON cannot encode", () => {
    const { ctx } = harness();
    expect(() => ctx.toolCall("f").argsJson(undefined)).toThrow(/JSON value/);
  });

  test("reasoning: starts, content, encrypted value, both ends", () => {
    const { ctx, events } = harness();
    const thinking = ctx.reasoning({ id: "r" });
    thinking.delta("hmm").encryptedValue("opaque");
    thinking.end();
    thinking.end(); // a second end does nothing
    expect(events).toEqual([
      { type: "REASONING_START", messageId: "r" },
      { type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "r", delta: "hmm" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "r", encryptedValue: "opaque" },
      { type: "REASONING_MESSAGE_END", messageId: "r" },
      { type: "REASONING_END", messageId: "r" },
    ]);
  });

  test("reasoning refused (its message id is open): the block it sent is ended, nothing is left open (R22)", () => {
    const { ctx, events } = harness();
    ctx.emit(ev.reasoningStart("b"));
    ctx.emit(ev.reasoningMessageStart("x"));
    expect(() => ctx.reasoning({ id: "x" })).toThrow(ProtocolError);
    expect(events.slice(2)).toEqual([
      { type: "REASONING_START", messageId: "x" },
      { type: "REASONING_END", messageId: "x" },
    ]);
  });

  test("activity: snapshot and delta under one id, nothing before the first write", () => {
    const { ctx, events } = harness();
    const progress = ctx.activity("progress", { id: "a1" });
    expect(events).toEqual([]);
    progress.snapshot({ done: 0 }).delta([{ op: "replace", path: "/done", value: 1 }]);
    expect(events).toEqual([
      { type: "ACTIVITY_SNAPSHOT", messageId: "a1", activityType: "progress", content: { done: 0 }, replace: true },
      { type: "ACTIVITY_DELTA", messageId: "a1", activityType: "progress", patch: [{ op: "replace", path: "/done", value: 1 }] },
    ]);
  });

  test("a step guard ends once, however often it is ended or disposed", () => {
    const { ctx, events } = harness();
    const step = ctx.step("plan");
    step.end();
    step[Symbol.dispose]();
    expect(types(events)).toEqual(["STEP_STARTED", "STEP_FINISHED"]);
    expect(() => ctx.step("x") && ctx.step("x")).toThrow(ProtocolError); // R25
  });

  test("emit: anything else, attributed inside a subagent unless it already names one", () => {
    const { ctx, events } = harness();
    ctx.emit(ev.custom("ping", 1));
    const sub = ctx.subagent("s", { id: "s1" });
    sub.emit(ev.custom("pong", 2));
    sub.emit(ev.custom("relayed", 3, { subagentRunId: "other" }));
    sub.emit(ev.messagesSnapshot([]));
    expect(events.filter((event) => event.type !== "SUBAGENT_STARTED")).toEqual([
      { type: "CUSTOM", name: "ping", value: 1 },
      { type: "CUSTOM", name: "pong", value: 2, subagentRunId: "s1" },
      { type: "CUSTOM", name: "relayed", value: 3, subagentRunId: "other" },
      { type: "MESSAGES_SNAPSHOT", messages: [] },
    ]);
  });

  test.each([ev.runStarted("t", "r"), ev.runFinished("t", "r"), ev.runError("boom")])("emit refuses the driver's own %p", (event) => {
    const { ctx, events } = harness();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- jest types its asymmetric matchers as `any`
    expect(() => ctx.emit(event)).toThrow(expect.objectContaining({ name: "ProtocolError", rule: "S1" }));
    expect(events).toEqual([]);
  });

  test("emit: chunk events are expanded by the normalizer", () => {
    const { ctx, events } = harness();
    ctx.emit(ev.textMessageChunk({ messageId: "m", delta: "Hi" }));
    ctx.emit(ev.custom("after", null));
    expect(types(events).slice(0, 2)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
    expect(types(events)).not.toContain("TEXT_MESSAGE_CHUNK");
  });

  test("after abort every write throws the abort reason", () => {
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the harness's abort is an arrow over its own controller
    const { ctx, events, abort } = harness();
    abort();
    expect(ctx.signal.aborted).toBe(true);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- jest types its asymmetric matchers as `any`
    expect(() => ctx.say("x")).toThrow(expect.objectContaining({ name: "AbortError" }));
    expect(events).toEqual([]);
  });
});

describe("shared state", () => {
  const Board = t.type({ tasks: t.array(t.string) });
  const board = () => createRunContext(stateSpec(Board, { tasks: [] }), runAgentInput("t", "r"));

  test("state is the last published value; stateMut is the working copy", () => {
    const { ctx } = board();
    ctx.stateMut.tasks.push("draft");
    expect(ctx.state.tasks).toEqual([]);
    ctx.publishState();
    expect(ctx.state.tasks).toEqual(["draft"]);
    expect(ctx.state).not.toBe(ctx.stateMut);
  });

  test("an event already sent does not change when the state is edited afterwards", () => {
    const { ctx, events } = board();
    ctx.updateState((s) => {
      s.tasks.push("one");
    });
    ctx.stateMut.tasks.push("two");
    expect(events[0]).toEqual({ type: "STATE_SNAPSHOT", snapshot: { tasks: ["one"] } });
  });

  test("updateState may return a new value; setState replaces; no change sends nothing", () => {
    const { ctx, events } = board();
    ctx.updateState(() => ({ tasks: ["a"] }));
    ctx.setState({ tasks: ["a"] });
    ctx.updateState(() => undefined);
    expect(types(events)).toEqual(["STATE_SNAPSHOT"]);
    expect(ctx.state).toEqual({ tasks: ["a"] });
  });

  test("the codec's encoding is what goes on the wire", () => {
    const DateFromIso = new t.Type<Date, string, unknown>(
      "DateFromIso",
      (u): u is Date => u instanceof Date,
      (u, c) => (typeof u === "string" && !Number.isNaN(Date.parse(u)) ? t.success(new Date(u)) : t.failure(u, c)),
      (d) => d.toISOString(),
    );
    const Due = t.type({ due: DateFromIso });
    const { ctx, events } = createRunContext(stateSpec(Due, { due: new Date(0) }), runAgentInput("t", "r", { state: { due: "2030-01-01T00:00:00.000Z" } }));
    expect(ctx.state.due).toBeInstanceOf(Date);
    ctx.updateState((s) => {
      s.due = new Date("2031-01-01T00:00:00.000Z");
    });
    expect(events).toEqual([{ type: "STATE_SNAPSHOT", snapshot: { due: "2031-01-01T00:00:00.000Z" } }]);
  });

  test("without a spec the state is the raw input value, and {} when there is none", () => {
    expect(createRunContext(undefined, runAgentInput("t", "r", { state: [1, 2] })).ctx.state).toEqual([1, 2]);
    expect(createRunContext(undefined, runAgentInput("t", "r")).ctx.state).toEqual({});
  });
});
