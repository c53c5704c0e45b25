/**
 * The AI SDK's own spans under the run (docs/observability.md#ai-sdk), with the real OpenTelemetry
 * SDK and the AI SDK's OpenTelemetry integration (`@ai-sdk/otel`) registered as an application
 * registers it: its spans are children of the run's `invoke_agent` in the run's trace, through
 * Node's async context and through the explicit context `aiAgent` passes where no async context
 * follows promises; prompts and responses are not recorded unless the application opts in.
 */
import { context, ROOT_CONTEXT, trace, type ContextManager } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { OpenTelemetry } from "@ai-sdk/otel";
import { registerTelemetry, streamText, type Telemetry as AiTelemetryIntegration } from "ai";
import { lastValueFrom, toArray } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import { createHandler, run, type Agent } from "../../src/server";
import { serve } from "../../src/node/serve";
import { aiAgent } from "../../src/ai";
import type { TelemetryOptions } from "../../src/telemetry/TelemetryOptions";
import { finish, scriptedModel, text } from "./support";
import { StackContextManager } from "./stackContextManager";

const PROMPT = "What is the weather in Seoul?";
const ANSWER = "Sunny, 21 degrees.";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

/** The AI SDK's registered integrations (`registerTelemetry`), emptied after each test. */
const integrations = globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: AiTelemetryIntegration[] };

beforeEach(() => {
  trace.setGlobalTracerProvider(provider);
  registerTelemetry(new OpenTelemetry());
});

afterEach(() => {
  exporter.reset();
  trace.disable();
  context.disable();
  integrations.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
});

function useContextManager(manager: ContextManager): void {
  context.setGlobalContextManager(manager);
}

const agentWith = (telemetry?: TelemetryOptions) =>
  aiAgent({ model: scriptedModel([...text("t", ANSWER), finish()]), name: "weather", ...(telemetry === undefined ? {} : { telemetry }) });

/** Runs `agent` through the driver, which starts the run's span (`invoke_agent weather`) and runs the agent in its context; returns that span. */
async function runTraced(agent: Agent): Promise<ReadableSpan> {
  const input = runAgentInput("thread-1", "run-1", { messages: [{ id: "u1", role: "user", content: PROMPT }] });
  const events = await lastValueFrom(run(agent, input).pipe(toArray()));
  expect(events[events.length - 1].type).toBe("RUN_FINISHED");
  const runSpans = exporter.getFinishedSpans().filter((span) => span.name === "invoke_agent weather");
  expect(runSpans).toHaveLength(1);
  return runSpans[0];
}

/** The spans the AI SDK's integration made (its tracer is `gen_ai`; the run's own spans are `agui-rx`'s). */
function modelSpans(): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === "gen_ai");
}

/** Every attribute value of `spans`, as one string, to look for content in. */
const attributeText = (spans: readonly ReadableSpan[]): string => JSON.stringify(spans.map((span) => span.attributes));

/** Checks that the model spans form one tree under the run's span, in its trace; returns the AI SDK's root. */
function expectUnder(runSpan: ReadableSpan): ReadableSpan {
  const spans = modelSpans();
  expect(spans.map((span) => span.name).sort()).toEqual(["chat mock-model-id", "invoke_agent mock-model-id", "step 1"]);
  for (const span of spans) expect(span.spanContext().traceId).toBe(runSpan.spanContext().traceId);
  const root = spans.find((span) => span.name === "invoke_agent mock-model-id")!;
  expect(root.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
  const step = spans.find((span) => span.name === "step 1")!;
  expect(step.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  expect(spans.find((span) => span.name === "chat mock-model-id")!.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
  return root;
}

test("on Node (async context): the model call's spans are children of the run's span, in its trace, without the prompt or the answer", async () => {
  useContextManager(new AsyncLocalStorageContextManager().enable());
  const runSpan = await runTraced(agentWith());
  const root = expectUnder(runSpan);
  // The agent's name is the AI SDK's functionId; usage is recorded; content is not.
  expect(root.attributes["gen_ai.usage.input_tokens"]).toBe(10);
  const recorded = attributeText(modelSpans());
  expect(recorded).not.toContain(PROMPT);
  expect(recorded).not.toContain(ANSWER);
  expect(recorded).not.toContain("gen_ai.input.messages");
});

test("recordContent: true passes the opt-in on: the AI SDK records the prompt and the answer", async () => {
  useContextManager(new AsyncLocalStorageContextManager().enable());
  const runSpan = await runTraced(agentWith({ recordContent: true }));
  expectUnder(runSpan);
  const recorded = attributeText(modelSpans());
  expect(recorded).toContain(PROMPT);
  expect(recorded).toContain(ANSWER);
});

test("where the context does not follow promises, the run's context passed explicitly still puts the model call under the run", async () => {
  useContextManager(new StackContextManager());
  // Without it: the AI SDK opens its first span after an await, where such a manager has lost the parent.
  const parent = trace.getTracer("test").startSpan("parent");
  const bare = context.with(trace.setSpan(ROOT_CONTEXT, parent), () => streamText({ model: scriptedModel([...text("t", ANSWER), finish()]), prompt: PROMPT }));
  await bare.consumeStream();
  parent.end();
  const lost = exporter.getFinishedSpans().find((span) => span.name === "invoke_agent mock-model-id")!;
  expect(lost.spanContext().traceId).not.toBe(parent.spanContext().traceId);
  exporter.reset();

  expectUnder(await runTraced(agentWith()));
});

test("tracer: false turns the AI SDK's telemetry off for the agent: no model spans", async () => {
  useContextManager(new AsyncLocalStorageContextManager().enable());
  const runSpan = await runTraced(agentWith({ tracer: false }));
  expect(runSpan.ended).toBe(true); // the run is still traced: only the AI SDK's telemetry is off
  expect(modelSpans()).toEqual([]);
});

test("an integration that throws in every callback does not reach the run", async () => {
  useContextManager(new AsyncLocalStorageContextManager().enable());
  const failing = (): never => {
    throw new Error("broken integration");
  };
  registerTelemetry({ onStart: failing, onStepStart: failing, onStepEnd: failing, onEnd: failing, onLanguageModelCallStart: failing });
  expectUnder(await runTraced(agentWith()));
});

test("served over loopback HTTP: the model call's spans are children of the handler's run span, under the request's span", async () => {
  useContextManager(new AsyncLocalStorageContextManager().enable());
  const served = await serve(createHandler(agentWith()));
  try {
    const response = await fetch(served.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(runAgentInput("thread-1", "run-1", { messages: [{ id: "u1", role: "user", content: PROMPT }] })),
    });
    expect(await response.text()).toContain("RUN_FINISHED");
  } finally {
    await served.close();
  }
  const runSpan = exporter.getFinishedSpans().find((span) => span.name === "invoke_agent weather")!;
  const request = exporter.getFinishedSpans().find((span) => span.name === "POST {url}")!;
  expect(runSpan.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  expectUnder(runSpan);
});
