/**
 * `streamToRun` over hand-made full streams: every part type of the AI SDK's `TextStreamPart`
 * union and what it becomes (docs/ai.md's table), through the real driver, each stream accepted
 * by our strict verifier, `@ag-ui/core`'s EventSchemas and `@ag-ui/client`'s verifyEvents.
 */
import type { LanguageModelUsage } from "ai";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { createRunContext, run, sequentialIds, type Agent, type RunContext } from "../../src/server";
import { streamToRun, type StreamToRunOptions } from "../../src/ai";
import type { StreamPart } from "../../src/ai/applyPart";
import { collect, expectAccepted } from "../server/support";

const input = runAgentInput("thread-1", "run-1");

const usage = (inputTokens: number | undefined, outputTokens: number | undefined): LanguageModelUsage => ({
  inputTokens,
  outputTokens,
  totalTokens: inputTokens !== undefined && outputTokens !== undefined ? inputTokens + outputTokens : undefined,
  inputTokenDetails: { noCacheTokens: undefined, cacheReadTokens: undefined, cacheWriteTokens: undefined },
  outputTokenDetails: { textTokens: undefined, reasoningTokens: undefined },
});

const startStep: StreamPart = { type: "start-step", request: {}, warnings: [] };
const finishStep = (used: LanguageModelUsage = usage(1, 1)): StreamPart => ({
  type: "finish-step",
  response: { id: "resp-1", timestamp: new Date(0), modelId: "model-x" },
  usage: used,
  performance: {
    stepTimeMs: 1,
    toolExecutionMs: {},
    responseTimeMs: 1,
    effectiveOutputTokensPerSecond: 1,
    outputTokensPerSecond: 1,
    inputTokensPerSecond: 1,
    effectiveTotalTokensPerSecond: 1,
    timeToFirstOutputMs: 1,
    timeBetweenOutputChunksMs: { min: 0, p10: 0, median: 0, avg: 0, p90: 0, max: 0 },
  },
  finishReason: "stop",
  rawFinishReason: "stop",
  providerMetadata: undefined,
});

async function* streamOf(parts: readonly StreamPart[]): AsyncGenerator<StreamPart> {
  for (const part of parts) yield part;
}

/** Runs an agent that maps `parts`; returns the events between RUN_STARTED and the terminal, and the terminal. */
async function mapped(parts: readonly StreamPart[], options: StreamToRunOptions = { steps: false }, before?: (ctx: RunContext) => void) {
  const agent: Agent = {
    async run(ctx) {
      before?.(ctx);
      return streamToRun(ctx, { fullStream: streamOf(parts) }, options);
    },
  };
  const events = await collect(run(agent, input, { ids: sequentialIds("id") }));
  await expectAccepted(events);
  return { body: events.slice(1, -1), end: events[events.length - 1] };
}

describe("text", () => {
  test("two text blocks of one step write into the one assistant message of that step (reopened)", async () => {
    const { body } = await mapped([
      startStep,
      { type: "text-start", id: "a" },
      { type: "text-delta", id: "a", text: "First." },
      { type: "text-end", id: "a" },
      { type: "text-start", id: "b" },
      { type: "text-delta", id: "b", text: " Second." },
      { type: "text-end", id: "b" },
      finishStep(),
    ]);
    expect(body).toEqual([
      { type: "TEXT_MESSAGE_START", messageId: "id-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "id-1", delta: "First." },
      { type: "TEXT_MESSAGE_END", messageId: "id-1" },
      { type: "TEXT_MESSAGE_START", messageId: "id-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "id-1", delta: " Second." },
      { type: "TEXT_MESSAGE_END", messageId: "id-1" },
    ]);
  });

  test("overlapping text blocks share the open message; it ends with the last of them", async () => {
    const { body } = await mapped([
      { type: "text-start", id: "a" },
      { type: "text-start", id: "b" },
      { type: "text-delta", id: "a", text: "x" },
      { type: "text-end", id: "a" },
      { type: "text-delta", id: "b", text: "y" },
      { type: "text-end", id: "b" },
    ]);
    expect(body.map((e) => e.type)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]);
  });

  test("a delta whose start was missed opens the message; one left open is ended with the stream", async () => {
    const { body } = await mapped([{ type: "text-delta", id: "a", text: "orphan" }]);
    expect(body).toEqual([
      { type: "TEXT_MESSAGE_START", messageId: "id-1", role: "assistant" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "id-1", delta: "orphan" },
      { type: "TEXT_MESSAGE_END", messageId: "id-1" },
    ]);
  });
});

describe("reasoning", () => {
  test("metadata from the start and the end of a block is merged per provider into its encrypted value", async () => {
    const { body } = await mapped([
      { type: "reasoning-start", id: "r", providerMetadata: { openai: { itemId: "rs_1" } } },
      { type: "reasoning-delta", id: "r", text: "Thinking." },
      { type: "reasoning-end", id: "r", providerMetadata: { openai: { reasoningEncryptedContent: "gAAA" } } },
    ]);
    expect(body).toEqual([
      { type: "REASONING_START", messageId: "id-1" },
      { type: "REASONING_MESSAGE_START", messageId: "id-1", role: "reasoning" },
      { type: "REASONING_MESSAGE_CONTENT", messageId: "id-1", delta: "Thinking." },
      {
        type: "REASONING_ENCRYPTED_VALUE",
        subtype: "message",
        entityId: "id-1",
        encryptedValue: '{"openai":{"itemId":"rs_1","reasoningEncryptedContent":"gAAA"}}',
      },
      { type: "REASONING_MESSAGE_END", messageId: "id-1" },
      { type: "REASONING_END", messageId: "id-1" },
    ]);
  });

  test("without metadata there is no encrypted value; a block left open is ended at finish-step", async () => {
    const { body } = await mapped([startStep, { type: "reasoning-delta", id: "r", text: "hmm" }, finishStep()]);
    expect(body.map((e) => e.type)).toEqual([
      "REASONING_START",
      "REASONING_MESSAGE_START",
      "REASONING_MESSAGE_CONTENT",
      "REASONING_MESSAGE_END",
      "REASONING_END",
    ]);
  });
});

describe("tool calls", () => {
  test("a call that arrives whole is opened, given its arguments and ended; its provider metadata becomes a tool-call encrypted value", async () => {
    const { body, end } = await mapped([
      { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: { q: "x" }, providerMetadata: { google: { thoughtSignature: "ts" } } },
    ]);
    expect(body).toEqual([
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "lookup", parentMessageId: "id-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '{"q":"x"}' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "REASONING_ENCRYPTED_VALUE", subtype: "tool-call", entityId: "c1", encryptedValue: '{"google":{"thoughtSignature":"ts"}}' },
    ]);
    expect(end).toMatchObject({ outcome: { type: "success", pendingToolCallIds: ["c1"] } });
  });

  test("raw-text input deltas are withheld and the final input is sent as JSON", async () => {
    const { body } = await mapped([
      { type: "tool-input-start", id: "c1", toolName: "shell", inputEncoding: "text" },
      { type: "tool-input-delta", id: "c1", delta: "ls -la" },
      { type: "tool-input-end", id: "c1" },
      { type: "tool-call", toolCallId: "c1", toolName: "shell", input: "ls -la" },
    ]);
    expect(body).toEqual([
      { type: "TOOL_CALL_START", toolCallId: "c1", toolCallName: "shell", parentMessageId: "id-1" },
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: '"ls -la"' },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
    ]);
  });

  test("an invalid call keeps the model's raw arguments, and the SDK's refusal is its result", async () => {
    const { body, end } = await mapped([
      { type: "tool-call", toolCallId: "c1", toolName: "nosuch", input: "{not json", dynamic: true, invalid: true, error: new Error("no such tool") },
      { type: "tool-error", toolCallId: "c1", toolName: "nosuch", input: "{not json", error: "AI_NoSuchToolError: no such tool", dynamic: true },
    ]);
    expect(body.slice(1)).toEqual([
      { type: "TOOL_CALL_ARGS", toolCallId: "c1", delta: "{not json" },
      { type: "TOOL_CALL_END", toolCallId: "c1" },
      { type: "TOOL_CALL_RESULT", messageId: "id-2", toolCallId: "c1", content: '{"error":"AI_NoSuchToolError: no such tool"}', role: "tool" },
    ]);
    expect(end).toMatchObject({ outcome: { type: "success" } });
    expect(end).not.toHaveProperty("outcome.pendingToolCallIds");
  });

  test("a provider-executed call is not pending; preliminary results are skipped, the final one sent", async () => {
    const { body, end } = await mapped([
      { type: "tool-call", toolCallId: "c1", toolName: "web_search", input: {}, providerExecuted: true },
      { type: "tool-result", toolCallId: "c1", toolName: "web_search", input: {}, output: "searching…", preliminary: true, dynamic: true },
      {
        type: "tool-result",
        toolCallId: "c1",
        toolName: "web_search",
        input: {},
        output: [{ url: "https://example.com" }],
        providerExecuted: true,
        dynamic: true,
      },
    ]);
    expect(body.filter((e) => e.type === "TOOL_CALL_RESULT")).toEqual([
      { type: "TOOL_CALL_RESULT", messageId: "id-2", toolCallId: "c1", content: '[{"url":"https://example.com"}]', role: "tool" },
    ]);
    expect(end).not.toHaveProperty("outcome.pendingToolCallIds");
  });

  test("string results are sent as they are, undefined ones as empty content", async () => {
    const { body } = await mapped([
      { type: "tool-result", toolCallId: "c1", toolName: "t", input: {}, output: "plain text", dynamic: true },
      { type: "tool-result", toolCallId: "c2", toolName: "t", input: {}, output: undefined, dynamic: true },
    ]);
    expect(body.map((e) => (e.type === "TOOL_CALL_RESULT" ? e.content : e.type))).toEqual(["plain text", ""]);
  });

  test("a denied call gets an error result; an approval request leaves it out of the pending calls and is a CUSTOM event", async () => {
    const call = { type: "tool-call" as const, toolCallId: "c1", toolName: "transfer", input: { amount: 5 }, dynamic: true as const };
    const { body, end } = await mapped([
      call,
      { type: "tool-approval-request", approvalId: "ap-1", toolCall: call, reason: "money moves" },
      { type: "tool-approval-response", approvalId: "ap-1", toolCall: call, approved: false },
      { type: "tool-output-denied", toolCallId: "c1", toolName: "transfer" },
    ]);
    expect(body.slice(3)).toEqual([
      { type: "CUSTOM", name: "ai.tool-approval-request", value: { approvalId: "ap-1", toolCallId: "c1", toolName: "transfer", reason: "money moves" } },
      { type: "CUSTOM", name: "ai.tool-approval-response", value: { approvalId: "ap-1", toolCallId: "c1", approved: false } },
      { type: "TOOL_CALL_RESULT", messageId: "id-2", toolCallId: "c1", content: '{"error":"the call of \\"transfer\\" was denied"}', role: "tool" },
    ]);
    expect(end).not.toHaveProperty("outcome.pendingToolCallIds");
  });

  test("several calls without results are all pending, in the order the model made them", async () => {
    const { end } = await mapped([
      { type: "tool-call", toolCallId: "b", toolName: "t", input: {}, dynamic: true },
      { type: "tool-call", toolCallId: "a", toolName: "t", input: {}, dynamic: true },
    ]);
    expect(end).toMatchObject({ outcome: { type: "success", pendingToolCallIds: ["b", "a"] } });
  });
});

describe("everything else", () => {
  const file = { base64: "aGk=", uint8Array: new Uint8Array([104, 105]), mediaType: "image/png" };

  test("sources, files, custom content and raw chunks are CUSTOM and RAW events; ping, start and finish send nothing", async () => {
    const { body } = await mapped(
      [
        { type: "start" },
        { type: "ping" },
        { type: "source", sourceType: "url", id: "src-1", url: "https://example.com", title: "Example" },
        { type: "file", file },
        { type: "reasoning-file", file },
        { type: "custom", kind: "openai.compaction", providerMetadata: { openai: { id: "x" } } },
        { type: "raw", rawValue: { choices: [] } },
        { type: "finish", finishReason: "stop", rawFinishReason: "stop", totalUsage: usage(1, 1) },
      ],
      { steps: false, provider: "openai" },
    );
    expect(body).toEqual([
      { type: "CUSTOM", name: "ai.source", value: { sourceType: "url", id: "src-1", url: "https://example.com", title: "Example" } },
      { type: "CUSTOM", name: "ai.file", value: { mediaType: "image/png", base64: "aGk=" } },
      { type: "CUSTOM", name: "ai.reasoning-file", value: { mediaType: "image/png", base64: "aGk=" } },
      { type: "CUSTOM", name: "ai.custom", value: { kind: "openai.compaction", providerMetadata: { openai: { id: "x" } } } },
      { type: "RAW", event: { choices: [] }, source: "openai" },
    ]);
  });

  test("a steering message is a user text message", async () => {
    const { body } = await mapped([
      {
        type: "steering-message",
        id: "steer-1",
        stepNumber: 1,
        message: {
          role: "user",
          content: [
            { type: "text", text: "Shorter, " },
            { type: "text", text: "please." },
          ],
        },
      },
    ]);
    expect(body).toEqual([
      { type: "TEXT_MESSAGE_START", messageId: "steer-1", role: "user" },
      { type: "TEXT_MESSAGE_CONTENT", messageId: "steer-1", delta: "Shorter, please." },
      { type: "TEXT_MESSAGE_END", messageId: "steer-1" },
    ]);
  });

  test("a part type this mapping does not know (a later ai release) is skipped", async () => {
    const future = { type: "hologram", payload: 1 } as unknown as StreamPart; // test-only: a member the union does not have yet
    const { body, end } = await mapped([future, { type: "text-delta", id: "a", text: "still here" }]);
    expect(body.map((e) => e.type)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]);
    expect(end.type).toBe("RUN_FINISHED");
  });
});

describe("steps and usage", () => {
  test("each finish-step reports its usage with the provider option and the response's model; unreported counts stay absent", async () => {
    const { end } = await mapped([startStep, finishStep(usage(3, undefined)), startStep, finishStep(usage(4, 2))], { provider: "acme" });
    expect(end).toMatchObject({ usage: [{ provider: "acme", model: "model-x", inputTokens: 7, outputTokens: 2, totalTokens: 6 }] });
  });

  test("a step's tool calls name its message; the next step mints a new one", async () => {
    const { body } = await mapped(
      [
        startStep,
        { type: "tool-call", toolCallId: "c1", toolName: "t", input: {}, dynamic: true },
        { type: "tool-result", toolCallId: "c1", toolName: "t", input: {}, output: 1, dynamic: true },
        finishStep(),
        startStep,
        { type: "text-delta", id: "a", text: "done" },
        finishStep(),
      ],
      {},
    );
    expect(body.map((e) => [e.type, "messageId" in e ? e.messageId : "parentMessageId" in e ? e.parentMessageId : "stepName" in e ? e.stepName : ""])).toEqual([
      ["STEP_STARTED", "step-1"],
      ["TOOL_CALL_START", "id-1"],
      ["TOOL_CALL_ARGS", ""],
      ["TOOL_CALL_END", ""],
      ["TOOL_CALL_RESULT", "id-2"],
      ["STEP_FINISHED", "step-1"],
      ["STEP_STARTED", "step-2"],
      ["TEXT_MESSAGE_START", "id-3"],
      ["TEXT_MESSAGE_CONTENT", "id-3"],
      ["TEXT_MESSAGE_END", "id-3"],
      ["STEP_FINISHED", "step-2"],
    ]);
  });

  test("usage is readable from the context after the stream (createRunContext)", async () => {
    const { ctx, events } = createRunContext(undefined, input, { ids: sequentialIds("id") });
    const outcome = await streamToRun(ctx, { fullStream: streamOf([startStep, finishStep(usage(2, 3))]) }, { provider: "acme" });
    expect(outcome).toEqual({ type: "success" });
    expect(ctx.usage).toEqual([{ provider: "acme", model: "model-x", inputTokens: 2, outputTokens: 3, totalTokens: 5 }]);
    expect(events.map((e) => e.type)).toEqual(["STEP_STARTED", "STEP_FINISHED"]);
  });
});

describe("failures", () => {
  test("a stream that throws while being read is a model failure: RUN_ERROR with its message and MODEL_ERROR", async () => {
    async function* failing(): AsyncGenerator<StreamPart> {
      yield { type: "text-delta", id: "a", text: "partial" };
      throw new Error("connection reset by the provider");
    }
    const agent: Agent = { run: (ctx) => streamToRun(ctx, { fullStream: failing() }) };
    const events = await collect(run(agent, input));
    expect(events.at(-1)).toEqual({ type: "RUN_ERROR", message: "connection reset by the provider", code: "MODEL_ERROR" });
    await expectAccepted(events);
  });

  test("a write the ordering rules refuse stays a protocol error, not a model error", async () => {
    const { end } = await mapped([{ type: "tool-input-start", id: "mine", toolName: "t" }], { steps: false }, (ctx) => {
      ctx.toolCall("t", { id: "mine" }); // the agent already holds a call with this id open
    });
    expect(end).toMatchObject({ type: "RUN_ERROR", code: "PROTOCOL" });
  });

  test("an error part stops reading: the parts after it are never pulled", async () => {
    let pulled = 0;
    async function* stream(): AsyncGenerator<StreamPart> {
      const parts: StreamPart[] = [
        { type: "error", error: "boom" },
        { type: "text-delta", id: "a", text: "late" },
      ];
      for (const part of parts) {
        pulled += 1;
        yield part;
      }
    }
    const events = await collect(run({ run: (ctx) => streamToRun(ctx, { fullStream: stream() }) }, input));
    expect(events.map((e) => e.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(pulled).toBe(1);
  });
});

test("a subagent context attributes every mapped event to the subagent", async () => {
  const agent: Agent = {
    async run(ctx) {
      const sub = ctx.subagent("writer");
      const outcome = await streamToRun(sub, { fullStream: streamOf([startStep, { type: "text-delta", id: "a", text: "hi" }, finishStep()]) });
      sub.finish();
      return outcome;
    },
  };
  const events = await collect(run(agent, input, { ids: sequentialIds("id") }));
  await expectAccepted(events);
  const attributed = events.filter((e: Event) => e.type.startsWith("TEXT_") || e.type.startsWith("STEP_"));
  expect(attributed).toHaveLength(5);
  for (const event of attributed) expect(event).toMatchObject({ subagentRunId: "id-1" });
});

test("parts are read at the consumer's pace: the next part is pulled only after ctx.ready() resolves", async () => {
  let pulled = 0;
  async function* stream(): AsyncGenerator<StreamPart> {
    for (const text of ["a", "b", "c"]) {
      pulled += 1;
      yield { type: "text-delta", id: "t", text };
    }
  }
  const gates: (() => void)[] = [];
  const ready = () => new Promise<void>((resolve) => gates.push(resolve));
  const seen: string[] = [];
  const done = new Promise<void>((resolve) => {
    run({ run: (ctx) => streamToRun(ctx, { fullStream: stream() }) }, input, { ready }).subscribe({ next: (e) => seen.push(e.type), complete: resolve });
  });
  /** Waits until the agent waits in ready(), checks how many parts it pulled by then, and lets it go on. */
  const atGate = async (expectedPulls: number) => {
    // Microtasks only: the agent reaches ready() without any timer. Bounded, so a bug fails instead of spinning.
    for (let turn = 0; gates.length === 0; turn++) {
      if (turn > 10_000) throw new Error(`expected the agent to wait in ready() after ${expectedPulls} part(s), but it never did`);
      await Promise.resolve();
    }
    expect(pulled).toBe(expectedPulls);
    gates.shift()?.();
  };
  await atGate(1);
  await atGate(2);
  await atGate(3);
  await done;
  expect(pulled).toBe(3);
  expect(seen.filter((type) => type === "TEXT_MESSAGE_CONTENT")).toHaveLength(3);
});
