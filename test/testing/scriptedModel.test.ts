/**
 * The scripted model (docs/testing.md#a-scripted-model): the AI SDK's mock playing a script of
 * beats under a real `aiAgent`, with text, reasoning, tool calls, usage, errors and a pace.
 */
import { jsonSchema, tool } from "ai";
import { lastValueFrom, toArray, VirtualTimeScheduler } from "rxjs";
import { aiAgent } from "../../src/ai/aiAgent";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import { run } from "../../src/server/run";
import { finish, parts, reasoning, rejectCall, scriptedModel, stepParts, streamError, text, toolCall } from "../../src/testing/ai";

const input = (content: string): RunAgentInput => ({ threadId: "t", runId: "r", messages: [{ id: "u", role: "user", content }], tools: [], context: [] });
const events = (agent: Parameters<typeof run>[0], content = "weather in Paris?"): Promise<Event[]> => lastValueFrom(run(agent, input(content)).pipe(toArray()));
const weather = jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
const get_weather = tool({ description: "The weather", inputSchema: weather, execute: async ({ city }) => ({ city, celsius: 21 }) });

test("a two-step script: reasoning and a tool call the agent executes, then the answer; usage from the words and deltas", async () => {
  const model = scriptedModel([[reasoning("Hm, ", "weather."), toolCall("get_weather", { city: "Paris" }, { id: "c1" })], [text("It is ", "21 °C.")]]);
  const out = await events(aiAgent({ model, tools: { get_weather } }));
  expect(out.map((event) => event.type)).toEqual([
    "RUN_STARTED",
    "STEP_STARTED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_END",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "TOOL_CALL_RESULT",
    "STEP_FINISHED",
    "STEP_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "STEP_FINISHED",
    "RUN_FINISHED",
  ]);
  expect(out.find((event) => event.type === "TOOL_CALL_RESULT")).toMatchObject({ toolCallId: "c1", content: '{"city":"Paris","celsius":21}' });
  // 3 prompt words in each of the two calls; 2 reasoning and 2 text deltas.
  expect(out.at(-1)).toMatchObject({ usage: [{ provider: "mock-provider", model: "mock-model-id", inputTokens: 6, outputTokens: 4, reasoningTokens: 2 }] });
  expect(model.doStreamCalls).toHaveLength(2);
  expect(model.doStreamCalls[1].prompt.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
});

test("a step as a function of the call, stated usage and reason, a provider name, and raw parts", async () => {
  const model = scriptedModel(
    [
      (call) => [
        text(`${call.prompt.length} message(s) in.`),
        parts({ type: "source", sourceType: "url", id: "s1", url: "https://example.com" }),
        finish({ reason: "length", usage: { input: 40, output: 7, cacheRead: 10 } }),
      ],
    ],
    { provider: "scripted", modelId: "demo" },
  );
  const out = await events(aiAgent({ model }));
  expect(out.find((event) => event.type === "TEXT_MESSAGE_CONTENT")).toMatchObject({ delta: "1 message(s) in." });
  expect(out.at(-1)).toMatchObject({
    type: "RUN_FINISHED",
    usage: [{ provider: "scripted", model: "demo", inputTokens: 40, outputTokens: 7, cachedInputTokens: 10 }],
  });
  expect(stepParts([text("a"), finish({ reason: "length" })], 1, 0).at(-1)).toMatchObject({
    type: "finish",
    finishReason: { unified: "length", raw: "length" },
  });
});

test("errors: a stream that fails mid-answer, a call that is refused, a call past the script; loop starts over", async () => {
  expect((await events(aiAgent({ model: scriptedModel([[text("Let me"), streamError(new Error("overloaded"))]]) }))).at(-1)).toMatchObject({
    type: "RUN_ERROR",
    message: "overloaded",
  });
  expect((await events(aiAgent({ model: scriptedModel([rejectCall(new Error("401 invalid key"))]) }))).at(-1)).toMatchObject({
    type: "RUN_ERROR",
    message: "401 invalid key",
  });
  const once = aiAgent({ model: scriptedModel([[text("a")]]) });
  await events(once);
  expect((await events(once)).at(-1)).toMatchObject({
    type: "RUN_ERROR",
    message: "scriptedModel: the script has 1 step(s), but the model was called 2 times",
  });
  const looping = aiAgent({ model: scriptedModel([[text("again")]], { loop: true }) });
  await events(looping);
  expect((await events(looping)).at(-1)).toMatchObject({ type: "RUN_FINISHED" });
});

test("a pace: each part waits delayMs on the scheduler (virtual time here), none before the stream is read", async () => {
  const scheduler = new VirtualTimeScheduler();
  const model = scriptedModel([[text("a", "b")]], { delayMs: 10, scheduler });
  const result = await model.doStream({ prompt: [] });
  expect(scheduler.now()).toBe(0);
  const reader = result.stream.getReader();
  const types: string[] = [];
  for (;;) {
    const read = reader.read();
    // Let the pull reach its timer, then run the timer: one part per 10 virtual ms.
    await new Promise<void>((resolve) => setImmediate(resolve));
    scheduler.flush();
    const { done, value } = await read;
    if (done) break;
    types.push(`${value.type}@${scheduler.now()}`);
  }
  expect(types).toEqual(["stream-start@10", "text-start@20", "text-delta@30", "text-delta@40", "text-end@50", "finish@60"]);
});

test("bad script settings are refused with what was wrong", () => {
  expect(() => scriptedModel([], { delayMs: -1 })).toThrow("scriptedModel: expected delayMs to be a number of milliseconds (0 or more) or null, but got -1");
  expect(() => toolCall("f", {}, { chunks: 0 })).toThrow("toolCall: expected chunks to be a whole number, 1 or more, but got 0");
});
