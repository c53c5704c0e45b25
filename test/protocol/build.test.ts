// The `ev.*` builders: valid by our own codec, no `null` for absent members, defaults filled.
import { EventSchemas } from "@ag-ui/core/schemas";
import { eventCodecs, type Event, type EventType } from "../../src/protocol/events";
import { ev, outcome, runAgentInput, withSubagentRunId } from "../../src/protocol/build";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { BUILT, BUILT_EVENTS } from "./samples";

/** Every builder, called with its required arguments and the options passed in. */
const builders: { [K in Exclude<EventType, `THINKING_${string}`>]: (options: never) => Event } = {
  RUN_STARTED: (o) => ev.runStarted("t", "r", o),
  RUN_FINISHED: (o) => ev.runFinished("t", "r", o),
  RUN_ERROR: (o) => ev.runError("m", o),
  STEP_STARTED: (o) => ev.stepStarted("s", o),
  STEP_FINISHED: (o) => ev.stepFinished("s", o),
  TEXT_MESSAGE_START: (o) => ev.textMessageStart("m", o),
  TEXT_MESSAGE_CONTENT: (o) => ev.textMessageContent("m", "d", o),
  TEXT_MESSAGE_END: (o) => ev.textMessageEnd("m", o),
  TEXT_MESSAGE_CHUNK: (o) => ev.textMessageChunk(o),
  TOOL_CALL_START: (o) => ev.toolCallStart("tc", "n", o),
  TOOL_CALL_ARGS: (o) => ev.toolCallArgs("tc", "{", o),
  TOOL_CALL_END: (o) => ev.toolCallEnd("tc", o),
  TOOL_CALL_CHUNK: (o) => ev.toolCallChunk(o),
  TOOL_CALL_RESULT: (o) => ev.toolCallResult("tm", "tc", "ok", o),
  STATE_SNAPSHOT: (o) => ev.stateSnapshot({}, o),
  STATE_DELTA: (o) => ev.stateDelta([], o),
  MESSAGES_SNAPSHOT: (o) => ev.messagesSnapshot([], o),
  ACTIVITY_SNAPSHOT: (o) => ev.activitySnapshot("a", "PLAN", {}, o),
  ACTIVITY_DELTA: (o) => ev.activityDelta("a", "PLAN", [], o),
  RAW: (o) => ev.raw({}, o),
  CUSTOM: (o) => ev.custom("n", 1, o),
  REASONING_START: (o) => ev.reasoningStart("r", o),
  REASONING_MESSAGE_START: (o) => ev.reasoningMessageStart("r", o),
  REASONING_MESSAGE_CONTENT: (o) => ev.reasoningMessageContent("r", "d", o),
  REASONING_MESSAGE_END: (o) => ev.reasoningMessageEnd("r", o),
  REASONING_MESSAGE_CHUNK: (o) => ev.reasoningMessageChunk(o),
  REASONING_END: (o) => ev.reasoningEnd("r", o),
  REASONING_ENCRYPTED_VALUE: (o) => ev.reasoningEncryptedValue("message", "m", "e", o),
  SUBAGENT_STARTED: (o) => ev.subagentStarted("s", "n", o),
  SUBAGENT_FINISHED: (o) => ev.subagentFinished("s", o),
  SUBAGENT_ERROR: (o) => ev.subagentError("s", "m", o),
};

const builderTypes = Object.keys(builders) as (keyof typeof builders)[];

test("there is a builder for each of the 31 types this library emits", () => {
  expect(builderTypes).toHaveLength(31);
  expect(Object.keys(ev)).toHaveLength(31);
});

describe.each(builderTypes)("%s", (type) => {
  const build = builders[type];
  const optionalKeys = Object.keys(eventCodecs[type].optional);

  test("builds its own type", () => {
    expect(build(undefined as never).type).toBe(type);
  });

  test("options given as null or undefined leave no key and no null in the JSON", () => {
    for (const absent of [null, undefined]) {
      const options = Object.fromEntries(optionalKeys.map((key) => [key, absent]));
      const event = build(options as never);
      expect(JSON.stringify(event)).not.toContain("null");
      // A defaulted member takes its default, as when the options are absent (TOOL_CALL_RESULT.role: "tool").
      for (const key of optionalKeys) if (!(type === "TOOL_CALL_RESULT" && key === "role")) expect(Object.keys(event)).not.toContain(key);
      expect(EventSchemas.safeParse(event).success).toBe(true);
    }
  });

  test("every sample decodes with our own codec to exactly itself", () => {
    for (const sample of BUILT[type] as Event[]) expect(decodeEvent(sample)).toEqual({ _tag: "Right", right: sample });
  });
});

test("builder output has no null except inside free-form payloads the caller passed", () => {
  // The samples put `null` only inside metadata values, state, patches, RAW.event and CUSTOM.value.
  const freeForm = new Set(["metadata", "snapshot", "delta", "event", "value", "state", "result", "content"]);
  const nullOutside = (value: unknown, key: string): boolean => {
    if (freeForm.has(key)) return false;
    if (value === null) return true;
    if (typeof value !== "object") return false;
    return Object.entries(value).some(([k, v]) => nullOutside(v, Array.isArray(value) ? key : k));
  };
  for (const event of BUILT_EVENTS) expect(nullOutside(event, "")).toBe(false);
});

test("defaults: TEXT_MESSAGE_START.role is assistant, ACTIVITY_SNAPSHOT.replace is true, TOOL_CALL_RESULT.role is tool", () => {
  expect(ev.textMessageStart("m")).toEqual({ type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" });
  expect(ev.textMessageStart("m", { role: "user" })).toEqual({ type: "TEXT_MESSAGE_START", messageId: "m", role: "user" });
  expect(ev.activitySnapshot("a", "T", {})).toEqual({ type: "ACTIVITY_SNAPSHOT", messageId: "a", activityType: "T", content: {}, replace: true });
  expect(ev.activitySnapshot("a", "T", {}, { replace: false }).replace).toBe(false);
  expect(ev.toolCallResult("tm", "tc", "x")).toEqual({ type: "TOOL_CALL_RESULT", messageId: "tm", toolCallId: "tc", content: "x", role: "tool" });
  expect(ev.toolCallResult("tm", "tc", "x", { role: undefined })).toEqual({
    type: "TOOL_CALL_RESULT",
    messageId: "tm",
    toolCallId: "tc",
    content: "x",
    role: "tool",
  });
  expect(ev.reasoningMessageStart("r")).toEqual({ type: "REASONING_MESSAGE_START", messageId: "r", role: "reasoning" });
});

test("a free-form member given as undefined is sent as null, so the event stays valid after JSON", () => {
  for (const event of [ev.stateSnapshot(undefined), ev.raw(undefined), ev.custom("n", undefined)]) {
    const wire = JSON.parse(JSON.stringify(event));
    expect(decodeEvent(wire)._tag).toBe("Right");
    expect(EventSchemas.safeParse(wire).success).toBe(true);
  }
  expect(ev.custom("n", undefined)).toEqual({ type: "CUSTOM", name: "n", value: null });
  expect(ev.custom("n", 0)).toEqual({ type: "CUSTOM", name: "n", value: 0 });
});

test("withSubagentRunId returns an attributed copy and leaves the original alone", () => {
  const original = ev.textMessageContent("m", "hi");
  const attributed = withSubagentRunId(original, "sub-1");
  expect(attributed).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi", subagentRunId: "sub-1" });
  expect(original).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "hi" });
  expect(EventSchemas.safeParse(attributed).success).toBe(true);
});

test("outcome helpers and runAgentInput build valid values", () => {
  expect(outcome.success()).toEqual({ type: "success" });
  expect(outcome.interrupt([{ id: "i", reason: "r" }])).toEqual({ type: "interrupt", interrupts: [{ id: "i", reason: "r" }] });
  expect(outcome.subagentSuccess()).toEqual({ type: "success" });
  expect(outcome.suspended()).toEqual({ type: "suspended" });
  expect(outcome.suspended(["i"])).toEqual({ type: "suspended", interruptIds: ["i"] });
  expect(runAgentInput("t", "r")).toEqual({ threadId: "t", runId: "r", messages: [], tools: [], context: [], forwardedProps: {} });
  expect(runAgentInput("t", "r", { state: null, parentRunId: undefined })).toEqual(runAgentInput("t", "r"));
  expect(EventSchemas.safeParse(ev.runStarted("t", "r", { input: runAgentInput("t", "r", { state: { a: 1 } }) })).success).toBe(true);
});
