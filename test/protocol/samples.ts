// Sample events for every one of the 36 types, shared by the protocol, wire and interop tests.
// Built with the `ev.*` builders (optional members and subagent attribution included where the type
// allows them) plus hand-written objects for the five deprecated THINKING_* types.
import { ev, outcome, runAgentInput, withSubagentRunId } from "../../src/protocol/build";
import type { EventOf, EventType } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";

/** Text that stresses encoders: multi-byte UTF-8, an astral emoji, line breaks JSON must escape. */
export const AWKWARD_TEXT = '18°C, 한국어, 😀 — line\nbreak\r\ncarriage\rreturn \u2028 \u2029 tab\t "quoted" \\ end';

const metadata = { "ag-ui": { finishReason: "stop" }, app: { nested: [1, null, "x"] }, empty: null };

/** Messages of all seven roles with their optional members (1.0.0 content parts only, no legacy `binary`). */
export const SAMPLE_MESSAGES: Message[] = [
  { id: "dev-1", role: "developer", content: "be terse", name: "ops" },
  { id: "sys-1", role: "system", content: "you are helpful", metadata: { source: "config" } },
  {
    id: "user-1",
    role: "user",
    content: [
      { type: "text", text: AWKWARD_TEXT },
      { type: "image", source: { type: "url", value: "https://example.com/a.png", mimeType: "image/png" } },
      { type: "document", source: { type: "data", value: "aGVsbG8=", mimeType: "application/pdf" }, metadata: { pages: 1 } },
    ],
    name: "kim",
  },
  {
    id: "asst-1",
    role: "assistant",
    content: "calling a tool",
    subagentRunId: "sub-1",
    toolCalls: [{ id: "tc-1", type: "function", function: { name: "search", arguments: '{"q":"weather"}' }, encryptedValue: "enc" }],
  },
  { id: "tool-1", role: "tool", toolCallId: "tc-1", content: "sunny", error: "partial", subagentRunId: "sub-2" },
  { id: "act-1", role: "activity", activityType: "PLAN", content: { steps: ["a", "b"] } },
  { id: "reason-1", role: "reasoning", content: "thinking…", encryptedValue: "blob" },
];

const interrupt = {
  id: "int-1",
  reason: "approval",
  message: "Approve the purchase?",
  toolCallId: "tc-1",
  responseSchema: { type: "object" },
  expiresAt: "2030-01-01T00:00:00Z",
  metadata: { cost: 12 },
  subagentRunId: "sub-1",
};

const usage = [
  {
    provider: "openai",
    model: "gpt-x",
    inputTokens: 10,
    outputTokens: 20,
    totalTokens: 30,
    reasoningTokens: 5,
    cachedInputTokens: 2,
    cacheWriteInputTokens: 1,
  },
  { provider: "anthropic" },
];

/** Every type this library emits, built with `ev.*`: several per type, minimal and with every optional member. */
export const BUILT: { [K in Exclude<EventType, `THINKING_${string}`>]: EventOf<K>[] } = {
  RUN_STARTED: [
    ev.runStarted("t1", "r1"),
    ev.runStarted("t1", "r2", {
      parentRunId: "r1",
      input: runAgentInput("t1", "r2", {
        messages: SAMPLE_MESSAGES,
        tools: [{ name: "search", description: "web search", parameters: { type: "object" }, metadata: { v: 1 } }],
        context: [{ description: "locale", value: "ko-KR" }],
        state: { count: 1 },
        resume: [{ interruptId: "int-1", status: "resolved", payload: { ok: true }, metadata: { by: "me" } }],
      }),
      protocolVersion: "1.0",
      timestamp: 1_700_000_000_000,
      rawEvent: { upstream: true },
      metadata,
    }),
  ],
  RUN_FINISHED: [
    ev.runFinished("t1", "r1"),
    ev.runFinished("t1", "r1", { result: { answer: 42 }, outcome: outcome.success(), usage }),
    ev.runFinished("t1", "r1", { outcome: outcome.interrupt([interrupt]), timestamp: 1 }),
    ev.runFinished("t1", "r1", { outcome: { type: "success", pendingToolCallIds: ["tc-1"] } }),
    ev.runFinished("t1", "r1", { outcome: { type: "cancelled" }, result: 0 }),
  ],
  RUN_ERROR: [ev.runError("boom"), ev.runError("rate limited", { code: "RATE_LIMIT", usage, metadata })],
  STEP_STARTED: [ev.stepStarted("plan"), ev.stepStarted("research", { subagentRunId: "sub-1", timestamp: 5 })],
  STEP_FINISHED: [ev.stepFinished("plan"), withSubagentRunId(ev.stepFinished("research"), "sub-1")],
  TEXT_MESSAGE_START: [
    ev.textMessageStart("m1"),
    ev.textMessageStart("m2", { role: "user", name: "kim", subagentRunId: "sub-1", metadata }),
    ev.textMessageStart("m3", { role: "developer" }),
    ev.textMessageStart("m4", { role: "system" }),
  ],
  TEXT_MESSAGE_CONTENT: [
    ev.textMessageContent("m1", AWKWARD_TEXT),
    ev.textMessageContent("m1", ""),
    ev.textMessageContent("m2", "hi", { subagentRunId: "sub-1", rawEvent: [1, 2] }),
  ],
  TEXT_MESSAGE_END: [ev.textMessageEnd("m1"), ev.textMessageEnd("m2", { subagentRunId: "sub-1", metadata: { tokens: 3 } })],
  TEXT_MESSAGE_CHUNK: [
    ev.textMessageChunk({}),
    ev.textMessageChunk({ messageId: "m5", role: "assistant", delta: "chunk", name: "bot", subagentRunId: "sub-1" }),
  ],
  TOOL_CALL_START: [ev.toolCallStart("tc-1", "search"), ev.toolCallStart("tc-2", "fetch", { parentMessageId: "asst-1", subagentRunId: "sub-1" })],
  TOOL_CALL_ARGS: [ev.toolCallArgs("tc-1", '{"q":'), ev.toolCallArgs("tc-1", '"한"}', { subagentRunId: "sub-1" })],
  TOOL_CALL_END: [ev.toolCallEnd("tc-1"), ev.toolCallEnd("tc-2", { subagentRunId: "sub-1" })],
  TOOL_CALL_CHUNK: [
    ev.toolCallChunk({}),
    ev.toolCallChunk({ toolCallId: "tc-3", toolCallName: "calc", parentMessageId: "asst-1", delta: "{}", subagentRunId: "sub-1" }),
  ],
  TOOL_CALL_RESULT: [ev.toolCallResult("tool-1", "tc-1", "sunny"), ev.toolCallResult("tool-2", "tc-2", AWKWARD_TEXT, { subagentRunId: "sub-2", metadata })],
  STATE_SNAPSHOT: [
    ev.stateSnapshot({ count: 1, items: ["a", { deep: null }] }),
    ev.stateSnapshot(null),
    ev.stateSnapshot([1, "two"], { subagentRunId: "sub-1" }),
  ],
  STATE_DELTA: [
    ev.stateDelta([]),
    ev.stateDelta(
      [
        { op: "add", path: "/items/-", value: { name: "x" } },
        { op: "remove", path: "/old" },
        { op: "replace", path: "/count", value: null },
        { op: "move", from: "/a", path: "/b" },
        { op: "copy", from: "/b", path: "/c~1d" },
        { op: "test", path: "/count", value: 2 },
      ],
      { subagentRunId: "sub-1" },
    ),
  ],
  MESSAGES_SNAPSHOT: [ev.messagesSnapshot([]), ev.messagesSnapshot(SAMPLE_MESSAGES, { timestamp: 9, metadata })],
  ACTIVITY_SNAPSHOT: [
    ev.activitySnapshot("act-1", "PLAN", { steps: [] }),
    ev.activitySnapshot("act-1", "PLAN", { steps: ["a"] }, { replace: false, subagentRunId: "sub-1" }),
  ],
  ACTIVITY_DELTA: [
    ev.activityDelta("act-1", "PLAN", [{ op: "add", path: "/steps/-", value: "b" }]),
    ev.activityDelta("act-1", "PLAN", [], { subagentRunId: "sub-1" }),
  ],
  RAW: [ev.raw({ provider: "x", chunk: [1] }), ev.raw(null, { source: "openai", subagentRunId: "sub-1" }), ev.raw("text")],
  CUSTOM: [ev.custom("progress", 0.5), ev.custom("nothing", null, { subagentRunId: "sub-1" }), ev.custom("obj", { a: [true] })],
  REASONING_START: [ev.reasoningStart("rs-1"), ev.reasoningStart("rs-2", { subagentRunId: "sub-1" })],
  REASONING_MESSAGE_START: [ev.reasoningMessageStart("rm-1"), ev.reasoningMessageStart("rm-2", { subagentRunId: "sub-1" })],
  REASONING_MESSAGE_CONTENT: [ev.reasoningMessageContent("rm-1", AWKWARD_TEXT), ev.reasoningMessageContent("rm-2", "", { subagentRunId: "sub-1" })],
  REASONING_MESSAGE_END: [ev.reasoningMessageEnd("rm-1"), ev.reasoningMessageEnd("rm-2", { subagentRunId: "sub-1" })],
  REASONING_MESSAGE_CHUNK: [ev.reasoningMessageChunk({}), ev.reasoningMessageChunk({ messageId: "rm-3", delta: "hmm", subagentRunId: "sub-1" })],
  REASONING_END: [ev.reasoningEnd("rs-1"), ev.reasoningEnd("rs-2", { subagentRunId: "sub-1" })],
  REASONING_ENCRYPTED_VALUE: [
    ev.reasoningEncryptedValue("message", "asst-1", "opaque"),
    ev.reasoningEncryptedValue("tool-call", "tc-1", "opaque2", { subagentRunId: "sub-1" }),
  ],
  SUBAGENT_STARTED: [
    ev.subagentStarted("sub-1", "researcher"),
    ev.subagentStarted("sub-2", "writer", {
      description: "writes",
      parentSubagentRunId: "sub-1",
      parentToolCallId: "tc-1",
      parentMessageId: "asst-1",
      metadata,
    }),
  ],
  SUBAGENT_FINISHED: [
    ev.subagentFinished("sub-1"),
    ev.subagentFinished("sub-1", { result: { pages: 3 }, outcome: outcome.subagentSuccess() }),
    ev.subagentFinished("sub-2", { outcome: outcome.suspended(["int-1"]) }),
    ev.subagentFinished("sub-3", { outcome: outcome.suspended() }),
  ],
  SUBAGENT_ERROR: [ev.subagentError("sub-1", "failed"), ev.subagentError("sub-2", "timeout", { code: "TIMEOUT", timestamp: 3 })],
};

/** The deprecated types, hand-written (nothing in this library builds them). */
export const THINKING: { [K in Extract<EventType, `THINKING_${string}`>]: EventOf<K>[] } = {
  THINKING_START: [{ type: "THINKING_START" }, { type: "THINKING_START", title: "Planning", timestamp: 4, metadata }],
  THINKING_END: [{ type: "THINKING_END" }],
  THINKING_TEXT_MESSAGE_START: [{ type: "THINKING_TEXT_MESSAGE_START", rawEvent: { legacy: true } }],
  THINKING_TEXT_MESSAGE_CONTENT: [{ type: "THINKING_TEXT_MESSAGE_CONTENT", delta: AWKWARD_TEXT }],
  THINKING_TEXT_MESSAGE_END: [{ type: "THINKING_TEXT_MESSAGE_END", metadata: {} }],
};

/** All built samples in one list. */
export const BUILT_EVENTS = Object.values(BUILT).flat();
/** All samples of all 36 types in one list. */
export const ALL_EVENTS = [...BUILT_EVENTS, ...Object.values(THINKING).flat()];
