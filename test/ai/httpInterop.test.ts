/**
 * The official `HttpAgent` (`@ag-ui/client` 1.0.0) against `createHandler(aiAgent(...))` over
 * real loopback HTTP, with the AI SDK's mock model behind it: a tool-using run ends with the
 * same messages in the official client as in our Session, every event passes the official
 * schemas, a provider error reaches the official client as its RUN_ERROR, and the official
 * client aborting mid-stream aborts the model's stream.
 */
import { HttpAgent, type AgentSubscriber } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { jsonSchema, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Update } from "../../src/thread/Update";
import { serve, type Served } from "../../src/node/serve";
import type { Tool } from "../../src/protocol/input";
import { createHandler, type Agent } from "../../src/server";
import { aiAgent } from "../../src/ai";
import { within } from "../http/loopback";
import { finish, scriptedModel, streamedCall, text, type ModelPart } from "./support";

const USER = { id: "user-1", role: "user" as const, content: "What is the weather in Seoul? Then let me pick a color." };
const PICK_COLOR: Tool = { name: "pick_color", description: "The user picks a color", parameters: { type: "object", properties: {} } };

const get_weather = tool({
  description: "The weather in a city",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } } }),
  execute: async ({ city }) => ({ city, temperature: 21 }),
});

/** The weather scenario's model: reasoning, text and a server tool call; then text and a client tool call. */
const weatherModel = () =>
  scriptedModel(
    [
      { type: "reasoning-start", id: "rs" },
      { type: "reasoning-delta", id: "rs", delta: "Look it up." },
      { type: "reasoning-end", id: "rs", providerMetadata: { anthropic: { signature: "sig" } } },
      ...text("txt", "Checking."),
      ...streamedCall("call-1", "get_weather", '{"city":', '"Seoul"}'),
      finish("tool-calls"),
    ],
    [...text("txt", "It is 21°C."), { type: "tool-call", toolCallId: "call-2", toolName: "pick_color", input: "{}" }, finish("tool-calls")],
  );

let served: Served[] = [];
afterEach(async () => {
  await Promise.all(served.map((server) => server.close()));
  served = [];
});

async function endpoint(agent: Agent): Promise<string> {
  const server = await serve(createHandler(agent));
  served.push(server);
  return server.url;
}

/** Runs the official client once; collects schema problems, failures, the terminal event and its messages. */
async function officialRun(url: string, hooks: AgentSubscriber = {}) {
  const agent = new HttpAgent({ url, threadId: "thread-1", initialMessages: [USER] });
  const problems: string[] = [];
  const terminal: unknown[] = [];
  const subscriber: AgentSubscriber = {
    ...hooks,
    onEvent: ({ event }) => {
      const parsed = EventSchemas.safeParse(event);
      if (!parsed.success) problems.push(`${event.type}: ${parsed.error.message}`);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- the official EventType enum's members are these strings
      if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") terminal.push(event);
    },
  };
  let failure: unknown;
  try {
    await agent.runAgent({ runId: "run-1", tools: [PICK_COLOR] }, subscriber);
  } catch (error) {
    failure = error;
  }
  return { agent, problems, terminal, failure };
}

test("a tool-using run: the official HttpAgent ends with the messages our Session ends with", async () => {
  const official = await officialRun(await endpoint(aiAgent({ model: weatherModel(), tools: { get_weather } })));
  expect(official.problems).toEqual([]);
  expect(official.failure).toBeUndefined();
  expect(official.terminal).toEqual([
    expect.objectContaining({
      type: "RUN_FINISHED",
      outcome: { type: "success", pendingToolCallIds: ["call-2"] },
      usage: [expect.objectContaining({ inputTokens: 20, outputTokens: 10 })],
    }),
  ]);

  const session = new Session(new HttpTransport(await endpoint(aiAgent({ model: weatherModel(), tools: { get_weather } }))), {
    threadId: "thread-1",
    tools: [PICK_COLOR],
  });
  const updates: Update[] = await lastValueFrom(session.send(USER).pipe(toArray()));
  expect(updates.filter((update) => update.kind === "error")).toEqual([]);
  // The client tool's call is left for the application (a plain Tool): the end names it (docs/wire.md#4.10).
  expect(updates.at(-1)).toEqual({ kind: "done", end: { kind: "success", pendingToolCallIds: ["call-2"] } });

  // Ids minted by the server are random per run; compare the shapes with the ids mapped in order.
  const canonical = (messages: readonly unknown[]) => {
    const ids = new Map<string, string>();
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- a JSON copy of the messages has their type
    return JSON.parse(JSON.stringify(messages), (key, value: unknown) => {
      if (key === "id" && typeof value === "string" && !value.startsWith("call-") && value !== USER.id) {
        if (!ids.has(value)) ids.set(value, `m${ids.size + 1}`);
        return ids.get(value);
      }
      return value;
    });
  };
  expect(canonical(session.messages)).toEqual(canonical(official.agent.messages));
  expect(canonical(official.agent.messages)).toEqual([
    USER,
    { id: "m1", role: "reasoning", content: "Look it up.", encryptedValue: '{"anthropic":{"signature":"sig"}}' },
    {
      id: "m2",
      role: "assistant",
      content: "Checking.",
      toolCalls: [{ id: "call-1", type: "function", function: { name: "get_weather", arguments: '{"city":"Seoul"}' } }],
    },
    { id: "m3", role: "tool", toolCallId: "call-1", content: '{"city":"Seoul","temperature":21}' },
    { id: "m4", role: "assistant", content: "It is 21°C.", toolCalls: [{ id: "call-2", type: "function", function: { name: "pick_color", arguments: "{}" } }] },
  ]);
});

test("a provider error reaches the official client as RUN_ERROR with the provider's message", async () => {
  const model = scriptedModel([...text("txt", "Hmm"), { type: "error", error: { message: "Overloaded" } }]);
  const official = await officialRun(await endpoint(aiAgent({ model })));
  expect(official.problems).toEqual([]);
  expect(official.terminal).toEqual([{ type: "RUN_ERROR", message: "Overloaded", code: "MODEL_ERROR" }]);
});

test("the official client aborting mid-stream aborts the model's stream on the server", async () => {
  let sawAbort: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    sawAbort = resolve;
  });
  const model = new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<ModelPart>({
        start(controller) {
          controller.enqueue({ type: "text-start", id: "txt" });
          controller.enqueue({ type: "text-delta", id: "txt", delta: "Once upon" });
          abortSignal?.addEventListener("abort", () => {
            sawAbort();
            controller.error(abortSignal.reason);
          });
        },
      }),
    }),
  });
  const url = await endpoint(aiAgent({ model }));
  const agent = new HttpAgent({ url, threadId: "thread-1", initialMessages: [USER] });
  const running = agent.runAgent({ runId: "run-1" }, { onTextMessageContentEvent: () => agent.abortRun() });
  await within(5_000, aborted, "the model's stream to see the abort");
  await within(
    5_000,
    running.then(
      () => undefined,
      () => undefined,
    ),
    "the official client to settle after its abort",
  );
  expect(model.doStreamCalls[0].abortSignal?.aborted).toBe(true);
  expect(agent.messages.at(-1)).toMatchObject({ role: "assistant", content: "Once upon" });
});
