/**
 * `aiAgent` against the AI SDK's own mock model, one scripted stream per scenario of the issue:
 * text only; reasoning then text; two parallel tool calls with streamed args; a server tool then a
 * second step; a client tool ending the run; a provider error mid-stream. Every stream passes our
 * strict verifier, `@ag-ui/core`'s EventSchemas and `@ag-ui/client`'s verifyEvents.
 */
import { APICallError, jsonSchema, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { runAgentInput } from "../../src/protocol/build";
import type { Message } from "../../src/protocol/messages";
import type { Tool } from "../../src/protocol/input";
import { run, sequentialIds, type Agent } from "../../src/server";
import { aiAgent, INVALID_MESSAGES_CODE, MODEL_ERROR_CODE } from "../../src/ai";
import { collect, expectAccepted, types } from "../server/support";
import { finish, scripted, scriptedModel, streamedCall, text, USAGE, WIRE_USAGE } from "./support";

const USER: Message = { id: "u1", role: "user", content: "What is the weather in Seoul?" };
const PICK_COLOR: Tool = {
  name: "pick_color",
  description: "Lets the user pick a color",
  parameters: { type: "object", properties: { hint: { type: "string" } } },
};

const inputWith = (fields: { tools?: Tool[]; messages?: Message[] } = {}) =>
  runAgentInput("thread-1", "run-1", { messages: fields.messages ?? [USER], tools: fields.tools ?? [] });

async function runOnce(agent: Agent, input = inputWith()) {
  const events = await collect(run(agent, input, { ids: sequentialIds("id") }));
  await expectAccepted(events);
  return events;
}

const weatherTool = (temperature = 21) =>
  tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
    execute: async ({ city }) => ({ city, temperature }),
  });

test("text only: one step, one assistant message, usage on RUN_FINISHED", async () => {
  const model = scriptedModel([...text("txt-0", "It is ", "sunny."), finish()]);
  const events = await runOnce(aiAgent({ model, system: "Be brief." }));
  expect(events).toEqual([
    { type: "RUN_STARTED", threadId: "thread-1", runId: "run-1", protocolVersion: "1.0" },
    { type: "STEP_STARTED", stepName: "step-1" },
    { type: "TEXT_MESSAGE_START", messageId: "id-1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "id-1", delta: "It is " },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "id-1", delta: "sunny." },
    { type: "TEXT_MESSAGE_END", messageId: "id-1" },
    { type: "STEP_FINISHED", stepName: "step-1" },
    { type: "RUN_FINISHED", threadId: "thread-1", runId: "run-1", outcome: { type: "success" }, usage: [WIRE_USAGE] },
  ]);
  expect(model.doStreamCalls).toHaveLength(1);
  expect(model.doStreamCalls[0].prompt).toEqual([
    { role: "system", content: "Be brief." },
    { role: "user", content: [{ type: "text", text: "What is the weather in Seoul?" }] },
  ]);
});

test("steps: false leaves the model steps out of the stream", async () => {
  const model = scriptedModel([...text("txt-0", "Hi."), finish()]);
  const events = await runOnce(aiAgent({ model, steps: false }));
  expect(types(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
});

test("reasoning then text: a reasoning message carrying the provider's signature, then the answer", async () => {
  const model = scriptedModel([
    { type: "reasoning-start", id: "rs-0" },
    { type: "reasoning-delta", id: "rs-0", delta: "The user wants " },
    { type: "reasoning-delta", id: "rs-0", delta: "the weather." },
    { type: "reasoning-end", id: "rs-0", providerMetadata: { anthropic: { signature: "sig-123" } } },
    ...text("txt-0", "Sunny."),
    finish(),
  ]);
  const events = await runOnce(aiAgent({ model }));
  expect(events.slice(1, -1)).toEqual([
    { type: "STEP_STARTED", stepName: "step-1" },
    { type: "REASONING_START", messageId: "id-1" },
    { type: "REASONING_MESSAGE_START", messageId: "id-1", role: "reasoning" },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "id-1", delta: "The user wants " },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "id-1", delta: "the weather." },
    { type: "REASONING_ENCRYPTED_VALUE", subtype: "message", entityId: "id-1", encryptedValue: '{"anthropic":{"signature":"sig-123"}}' },
    { type: "REASONING_MESSAGE_END", messageId: "id-1" },
    { type: "REASONING_END", messageId: "id-1" },
    { type: "TEXT_MESSAGE_START", messageId: "id-2", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "id-2", delta: "Sunny." },
    { type: "TEXT_MESSAGE_END", messageId: "id-2" },
    { type: "STEP_FINISHED", stepName: "step-1" },
  ]);
});

test("two parallel tool calls with interleaved streamed args, both executed, then the answer", async () => {
  const model = scriptedModel(
    [
      { type: "tool-input-start", id: "call-a", toolName: "get_weather" },
      { type: "tool-input-start", id: "call-b", toolName: "get_weather" },
      { type: "tool-input-delta", id: "call-a", delta: '{"city":' },
      { type: "tool-input-delta", id: "call-b", delta: '{"city":"Busan"}' },
      { type: "tool-input-delta", id: "call-a", delta: '"Seoul"}' },
      { type: "tool-input-end", id: "call-b" },
      { type: "tool-input-end", id: "call-a" },
      { type: "tool-call", toolCallId: "call-a", toolName: "get_weather", input: '{"city":"Seoul"}' },
      { type: "tool-call", toolCallId: "call-b", toolName: "get_weather", input: '{"city":"Busan"}' },
      finish("tool-calls"),
    ],
    [...text("txt-0", "Both sunny."), finish()],
  );
  const events = await runOnce(aiAgent({ model, tools: { get_weather: weatherTool() } }));
  const step1 = events.slice(
    2,
    events.findIndex((e) => e.type === "STEP_FINISHED"),
  );
  expect(step1.slice(0, 9)).toEqual([
    { type: "TOOL_CALL_START", toolCallId: "call-a", toolCallName: "get_weather", parentMessageId: "id-1" },
    { type: "TOOL_CALL_START", toolCallId: "call-b", toolCallName: "get_weather", parentMessageId: "id-1" },
    { type: "TOOL_CALL_ARGS", toolCallId: "call-a", delta: '{"city":' },
    { type: "TOOL_CALL_ARGS", toolCallId: "call-b", delta: '{"city":"Busan"}' },
    { type: "TOOL_CALL_ARGS", toolCallId: "call-a", delta: '"Seoul"}' },
    { type: "TOOL_CALL_END", toolCallId: "call-a" },
    { type: "TOOL_CALL_END", toolCallId: "call-b" },
    // the SDK runs the two tools concurrently: their results come in either order
    expect.objectContaining({ type: "TOOL_CALL_RESULT" }),
    expect.objectContaining({ type: "TOOL_CALL_RESULT" }),
  ]);
  expect(
    step1
      .slice(7)
      .map((e) => (e.type === "TOOL_CALL_RESULT" ? [e.toolCallId, e.content] : e.type))
      .sort(),
  ).toEqual([
    ["call-a", '{"city":"Seoul","temperature":21}'],
    ["call-b", '{"city":"Busan","temperature":21}'],
  ]);
  expect(events.at(-1)).toMatchObject({ outcome: { type: "success" } });
  expect(model.doStreamCalls).toHaveLength(2);
});

test("a server tool runs inside the run, its result goes back to the model, and the second step is a new message", async () => {
  const model = scriptedModel(
    [...text("txt-0", "Let me check."), ...streamedCall("call-1", "get_weather", '{"city":"Seoul"}'), finish("tool-calls")],
    [...text("txt-0", "It is 21 degrees."), finish()],
  );
  const events = await runOnce(aiAgent({ model, tools: { get_weather: weatherTool() } }));
  expect(events).toEqual([
    { type: "RUN_STARTED", threadId: "thread-1", runId: "run-1", protocolVersion: "1.0" },
    { type: "STEP_STARTED", stepName: "step-1" },
    { type: "TEXT_MESSAGE_START", messageId: "id-1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "id-1", delta: "Let me check." },
    { type: "TEXT_MESSAGE_END", messageId: "id-1" },
    { type: "TOOL_CALL_START", toolCallId: "call-1", toolCallName: "get_weather", parentMessageId: "id-1" },
    { type: "TOOL_CALL_ARGS", toolCallId: "call-1", delta: '{"city":"Seoul"}' },
    { type: "TOOL_CALL_END", toolCallId: "call-1" },
    { type: "TOOL_CALL_RESULT", messageId: "id-2", toolCallId: "call-1", content: '{"city":"Seoul","temperature":21}', role: "tool" },
    { type: "STEP_FINISHED", stepName: "step-1" },
    { type: "STEP_STARTED", stepName: "step-2" },
    { type: "TEXT_MESSAGE_START", messageId: "id-3", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "id-3", delta: "It is 21 degrees." },
    { type: "TEXT_MESSAGE_END", messageId: "id-3" },
    { type: "STEP_FINISHED", stepName: "step-2" },
    {
      type: "RUN_FINISHED",
      threadId: "thread-1",
      runId: "run-1",
      outcome: { type: "success" },
      usage: [{ ...WIRE_USAGE, inputTokens: 20, outputTokens: 10, totalTokens: 30, reasoningTokens: 4, cachedInputTokens: 6 }],
    },
  ]);
  expect(model.doStreamCalls[1].prompt.slice(1)).toEqual([
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool-call", toolCallId: "call-1", toolName: "get_weather", input: { city: "Seoul" } },
      ],
    },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "call-1", toolName: "get_weather", output: { type: "json", value: { city: "Seoul", temperature: 21 } } }],
    },
  ]);
});

test("a client tool is offered to the model without execute; the model calling it ends the run with the call pending", async () => {
  const model = scriptedModel([
    ...text("txt-0", "Pick one:"),
    { type: "tool-call", toolCallId: "call-7", toolName: "pick_color", input: '{"hint":"warm"}' },
    finish("tool-calls"),
  ]);
  const events = await runOnce(aiAgent({ model, tools: { get_weather: weatherTool() } }), inputWith({ tools: [PICK_COLOR] }));
  expect(events.slice(5, -1)).toEqual([
    { type: "TOOL_CALL_START", toolCallId: "call-7", toolCallName: "pick_color", parentMessageId: "id-1" },
    { type: "TOOL_CALL_ARGS", toolCallId: "call-7", delta: '{"hint":"warm"}' },
    { type: "TOOL_CALL_END", toolCallId: "call-7" },
    { type: "STEP_FINISHED", stepName: "step-1" },
  ]);
  expect(events.at(-1)).toEqual({
    type: "RUN_FINISHED",
    threadId: "thread-1",
    runId: "run-1",
    outcome: { type: "success", pendingToolCallIds: ["call-7"] },
    usage: [WIRE_USAGE],
  });
  expect(model.doStreamCalls).toHaveLength(1); // the SDK's loop stopped: nothing could answer the call
  const offered = [...(model.doStreamCalls[0].tools ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  expect(offered).toEqual([
    {
      type: "function",
      name: "get_weather",
      description: "The weather in a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
    { type: "function", name: "pick_color", description: "Lets the user pick a color", inputSchema: PICK_COLOR.parameters },
  ]);
});

test("a server tool that throws becomes a tool result with the error, and the model goes on", async () => {
  const failing = tool({
    inputSchema: jsonSchema<{ city: string }>({ type: "object" }),
    execute: async (): Promise<{ temperature: number }> => {
      throw new Error("the weather service is down");
    },
  });
  const model = scriptedModel([...streamedCall("call-1", "get_weather", '{"city":"Seoul"}'), finish("tool-calls")], [...text("txt-0", "Sorry."), finish()]);
  const events = await runOnce(aiAgent({ model, tools: { get_weather: failing } }));
  expect(events.find((e) => e.type === "TOOL_CALL_RESULT")).toEqual({
    type: "TOOL_CALL_RESULT",
    messageId: "id-2",
    toolCallId: "call-1",
    content: '{"error":"the weather service is down"}',
    role: "tool",
  });
  expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
});

describe("a provider error", () => {
  test("mid-stream: RUN_ERROR with the provider's message and MODEL_ERROR, usage of the finished steps kept", async () => {
    const printed = jest.spyOn(console, "error").mockImplementation(() => undefined);
    const model = scriptedModel(
      [...streamedCall("call-1", "get_weather", '{"city":"Seoul"}'), finish("tool-calls")],
      [
        { type: "text-start", id: "txt-0" },
        { type: "text-delta", id: "txt-0", delta: "It is" },
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
        finish(),
      ],
    );
    const events = await runOnce(aiAgent({ model, tools: { get_weather: weatherTool() } }));
    expect(events.slice(-4)).toEqual([
      { type: "STEP_STARTED", stepName: "step-2" },
      { type: "TEXT_MESSAGE_START", messageId: "id-3", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "id-3", delta: "It is" },
      { type: "RUN_ERROR", message: "Overloaded", code: MODEL_ERROR_CODE, usage: [WIRE_USAGE] },
    ]);
    expect(printed).not.toHaveBeenCalled(); // the SDK's default onError would print it; the run reports it instead
    printed.mockRestore();
  });

  test("from the HTTP call: the client gets the message, never the request body, headers or response body", async () => {
    const failure = new APICallError({
      message: "Incorrect API key provided",
      url: "https://api.example.com/v1/chat",
      requestBodyValues: { secret_prompt: "SECRET-PROMPT" },
      statusCode: 401,
      responseHeaders: { "x-request-id": "SECRET-HEADER" },
      responseBody: '{"error":"SECRET-BODY"}',
      isRetryable: false,
    });
    const model = new MockLanguageModelV4({ doStream: async () => Promise.reject(failure) });
    const events = await runOnce(aiAgent({ model }));
    expect(events.at(-1)).toEqual({ type: "RUN_ERROR", message: "Incorrect API key provided", code: MODEL_ERROR_CODE });
    expect(JSON.stringify(events)).not.toMatch(/SECRET|api\.example\.com|stack/);
  });

  test("onError decides what the client sees instead", async () => {
    const model = scriptedModel([{ type: "error", error: new Error("rate limited: retry after 20s") }]);
    const agent = aiAgent({
      model,
      onError: (error, source) => ({
        message: `${source.kind} unavailable`,
        code: error instanceof Error && /rate/.test(error.message) ? "RATE_LIMITED" : "X",
      }),
    });
    const events = await runOnce(agent);
    expect(events.at(-1)).toEqual({ type: "RUN_ERROR", message: "model unavailable", code: "RATE_LIMITED" });
  });
});

test("a thread the model cannot be given ends with RUN_ERROR INVALID_MESSAGES before any model call", async () => {
  const model = scriptedModel();
  const events = await runOnce(aiAgent({ model }), inputWith({ messages: [USER, { id: "t9", role: "tool", toolCallId: "ghost", content: "x" }] }));
  expect(events.at(-1)).toEqual({
    type: "RUN_ERROR",
    code: INVALID_MESSAGES_CODE,
    message: 'message "t9": expected a tool result for a tool call of an earlier assistant message, but no assistant message has the tool call "ghost"',
  });
  expect(model.doStreamCalls).toHaveLength(0);
});

describe("the call", () => {
  test("prepare receives the run and the built call, and what it returns is what the model gets", async () => {
    const model = scriptedModel([...text("txt-0", "ok"), finish()]);
    const agent = aiAgent({
      model,
      providerOptions: { mock: { mode: "fast" } },
      prepare: (ctx, call) => ({ ...call, temperature: 0.25, instructions: `Answer in the thread ${ctx.threadId}.` }),
    });
    await runOnce(agent);
    expect(model.doStreamCalls[0]).toMatchObject({ temperature: 0.25, providerOptions: { mock: { mode: "fast" } } });
    expect(model.doStreamCalls[0].prompt[0]).toEqual({ role: "system", content: "Answer in the thread thread-1." });
  });

  test("the request's context entries reach the model as one system message after the system prompt", async () => {
    const model = scriptedModel([...text("txt-0", "ok"), finish()]);
    const input = {
      ...inputWith(),
      context: [
        { description: "The user's city", value: "Seoul" },
        { description: "Units", value: "metric" },
      ],
    };
    await runOnce(aiAgent({ model, system: "Be brief." }), input);
    expect(model.doStreamCalls[0].prompt.slice(0, 2)).toEqual([
      { role: "system", content: "Be brief." },
      { role: "system", content: "Context from the application:\n\nThe user's city:\nSeoul\n\nUnits:\nmetric" },
    ]);
  });

  test("maxSteps bounds the tool loop", async () => {
    const model = scriptedModel(
      [...streamedCall("call-x", "get_weather", '{"city":"Seoul"}'), finish("tool-calls")],
      [...streamedCall("call-y", "get_weather", '{"city":"Busan"}'), finish("tool-calls")],
    );
    const events = await runOnce(aiAgent({ model, tools: { get_weather: weatherTool() }, maxSteps: 2 }));
    expect(model.doStreamCalls).toHaveLength(2); // a third call would fail the scripted model
    expect(events.filter((e) => e.type === "STEP_STARTED")).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" }, usage: [{ inputTokens: 20 }] });
  });

  test("a maxSteps that is not a positive integer is refused when the agent is made", () => {
    const model = scriptedModel();
    expect(() => aiAgent({ model, maxSteps: 0 })).toThrow(new TypeError("expected maxSteps to be a positive integer, but got 0"));
    expect(() => aiAgent({ model, maxSteps: 1.5 })).toThrow(/but got 1\.5/);
  });

  test("each subscription is its own run: the model is called again", async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => scripted([...text("txt-0", "again"), { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: USAGE }]),
    });
    const events$ = run(aiAgent({ model }), inputWith());
    await collect(events$);
    await collect(events$);
    expect(model.doStreamCalls).toHaveLength(2);
  });
});
