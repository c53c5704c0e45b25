/**
 * `aiAgent` with steered messages (docs/ai.md#steering, docs/queue.md#steer): the run's offers go
 * to the AI SDK's own steering; a message is taken (recorded) when a model step receives it, before
 * that step's output, and one the generation never delivers is not recorded. Against the SDK's own
 * mock model; every log passes both verifiers.
 */
import { jsonSchema, tool } from "ai";
import { Subject } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message, UserMessage } from "../../src/protocol/messages";
import { run, sequentialIds, type Agent } from "../../src/server";
import { aiAgent } from "../../src/ai";
import { collect, expectAccepted } from "../server/support";
import { finish, scriptedModel, streamedCall, text } from "./support";

const USER: Message = { id: "u1", role: "user", content: "What is the weather in Seoul?" };
const STEER: UserMessage = { id: "s1", role: "user", content: "Actually, Busan." };
const input = runAgentInput("thread-1", "run-1", { messages: [USER] });

async function runSteered(agent: Agent, incoming: Subject<UserMessage>): Promise<Event[]> {
  const events = await collect(run(agent, input, { ids: sequentialIds("id"), incoming }));
  await expectAccepted(events);
  return events;
}

const recordedSteer: Event[] = [
  { type: "TEXT_MESSAGE_START", messageId: "s1", role: "user" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: "s1", delta: "Actually, Busan." },
  { type: "TEXT_MESSAGE_END", messageId: "s1" },
];

/** A server tool whose execution is the moment the user sends the steer: during step 1. */
const weatherSteeredDuring = (incoming: Subject<UserMessage>) =>
  tool({
    description: "The weather in a city",
    inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
    execute: async ({ city }) => {
      incoming.next(STEER);
      return { city, temperature: 21 };
    },
  });

const userTexts = (prompt: readonly { role: string; content: unknown }[]): string[] =>
  prompt.flatMap((message) =>
    message.role !== "user" || !Array.isArray(message.content)
      ? []
      : (message.content as { type: string; text?: string }[]).flatMap((part) => (part.type === "text" && part.text !== undefined ? [part.text] : [])),
  );

test("a steer sent during step 1 reaches step 2's prompt and is recorded before step 2's output", async () => {
  const incoming = new Subject<UserMessage>();
  const model = scriptedModel(
    [...streamedCall("call-1", "get_weather", '{"city":"Seoul"}'), finish("tool-calls")],
    [...text("txt-0", "In Busan it is 19 degrees."), finish()],
  );
  const events = await runSteered(aiAgent({ model, tools: { get_weather: weatherSteeredDuring(incoming) } }), incoming);

  expect(model.doStreamCalls).toHaveLength(2);
  expect(userTexts(model.doStreamCalls[0].prompt)).toEqual(["What is the weather in Seoul?"]);
  expect(userTexts(model.doStreamCalls[1].prompt)).toEqual(["What is the weather in Seoul?", "Actually, Busan."]);
  expect(model.doStreamCalls[1].prompt.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Actually, Busan." }] });

  const at = events.findIndex((event) => event.type === "TEXT_MESSAGE_START" && event.messageId === "s1");
  expect(events.slice(at, at + 3)).toEqual(recordedSteer);
  expect(events.filter((event) => "messageId" in event && event.messageId === "s1")).toHaveLength(3); // recorded once
  const stepOneEnd = events.findIndex((event) => event.type === "STEP_FINISHED" && event.stepName === "step-1");
  const stepTwoStart = events.findIndex((event) => event.type === "STEP_STARTED" && event.stepName === "step-2");
  const stepTwoText = events.findIndex((event) => event.type === "TEXT_MESSAGE_START" && event.role === "assistant");
  expect(stepOneEnd).toBeLessThan(at); // not before step 1 is over: the result of its tool came first
  expect(at).toBeLessThan(stepTwoStart); // before step 2's output
  expect(at).toBeLessThan(stepTwoText);
  expect(events.at(-1)?.type).toBe("RUN_FINISHED");
});

test("a steer sent before the generation starts reaches the first step and is recorded before its output", async () => {
  const incoming = new Subject<UserMessage>();
  const model = scriptedModel([...text("txt-0", "Busan: 19 degrees."), finish()]);
  const agent = aiAgent({
    model,
    prepare: (_ctx, call) => {
      incoming.next(STEER); // the agent is running; the model is not called yet
      return call;
    },
  });
  const events = await runSteered(agent, incoming);
  expect(model.doStreamCalls).toHaveLength(1);
  expect(userTexts(model.doStreamCalls[0].prompt)).toEqual(["What is the weather in Seoul?", "Actually, Busan."]);
  const at = events.findIndex((event) => event.type === "TEXT_MESSAGE_START" && event.messageId === "s1");
  expect(events.slice(at, at + 3)).toEqual(recordedSteer);
  expect(at).toBeLessThan(events.findIndex((event) => event.type === "TEXT_MESSAGE_START" && event.role === "assistant"));
});

test("a steer the generation never delivers (a single-step answer, the stop condition reached) is not recorded", async () => {
  const incoming = new Subject<UserMessage>();
  let call = 0;
  const model = scriptedModel([...text("txt-0", "It is 21 degrees in Seoul."), finish()]);
  const original = model.doStream.bind(model);
  // The steer arrives while the only step streams: the SDK would add a step for it, but maxSteps is 1.
  model.doStream = async (options) => {
    if (call++ === 0) incoming.next(STEER);
    return original(options);
  };
  const inner = aiAgent({ model, maxSteps: 1 });
  const leftOver: string[] = [];
  // After the generation, the run still offers the steer: aiAgent left it untaken (the store keeps it for a queued run).
  const agent: Agent = {
    async run(ctx) {
      const outcome = await inner.run(ctx);
      ctx.offers$.subscribe((offer) => leftOver.push(offer.message.id)).unsubscribe();
      return outcome;
    },
  };
  const events = await runSteered(agent, incoming);
  expect(leftOver).toEqual(["s1"]);
  expect(model.doStreamCalls).toHaveLength(1);
  expect(userTexts(model.doStreamCalls[0].prompt)).toEqual(["What is the weather in Seoul?"]);
  expect(events.some((event) => "messageId" in event && event.messageId === "s1")).toBe(false);
  expect(events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success" } });
});

test("a run whose model answers while a steer waits continues for another step with it", async () => {
  const incoming = new Subject<UserMessage>();
  let call = 0;
  const model = scriptedModel([...text("txt-0", "It is 21 degrees in Seoul."), finish()], [...text("txt-0", "And 19 in Busan."), finish()]);
  const original = model.doStream.bind(model);
  model.doStream = async (options) => {
    if (call++ === 0) incoming.next(STEER);
    return original(options);
  };
  const events = await runSteered(aiAgent({ model }), incoming);
  expect(model.doStreamCalls).toHaveLength(2);
  const at = events.findIndex((event) => event.type === "TEXT_MESSAGE_START" && event.messageId === "s1");
  const secondAnswer = events.findIndex((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta === "And 19 in Busan.");
  expect(at).toBeGreaterThan(events.findIndex((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta === "It is 21 degrees in Seoul."));
  expect(at).toBeLessThan(secondAnswer);
});
