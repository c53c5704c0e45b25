/**
 * The example's chat agent over real loopback HTTP with the scripted mock model, driven by our
 * Session as the page drives it: a text reply, the server tool `get_weather` (found and not
 * found), and the client tool `get_local_time` through the Session's tool loop (shared, declined,
 * not offered). Every run's events pass our strict verifier, `@ag-ui/core`'s EventSchemas and
 * `@ag-ui/client`'s verifyEvents; usage reaches RUN_FINISHED.
 */
import { filter, firstValueFrom, lastValueFrom, tap, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Transport } from "../../../src/client/transports/Transport";
import type { Update } from "../../../src/thread/Update";
import { serve, type Served } from "../../../src/node/serve";
import type { Event } from "../../../src/protocol/events";
import type { RunAgentInput } from "../../../src/protocol/input";
import type { Message } from "../../../src/protocol/messages";
import { expectAccepted } from "../../../test/server/support";
import { SYSTEM_PROMPT } from "../agent";
import { getLocalTime, sharedTime } from "../localTime";
import { scriptedChatModel } from "../scriptedModel";
import { createChatHandler } from "../server";

const model = scriptedChatModel({ delayMs: null });
let served: Served;
beforeAll(async () => {
  served = await serve(createChatHandler({ model }));
});
afterAll(() => served.close());

/** One run as the transport saw it: the input sent and the events that came back. */
interface SeenRun {
  readonly input: RunAgentInput;
  readonly events: Event[];
}

/** HttpTransport to the example's server, recording every run. */
function recordingTransport(runs: SeenRun[]): Transport {
  const http = new HttpTransport(served.url);
  return {
    run: (input) => {
      const seen: SeenRun = { input, events: [] };
      runs.push(seen);
      return http.run(input).pipe(tap((event) => seen.events.push(event)));
    },
  };
}

let thread = 0;
function chat(tools = [getLocalTime]) {
  const runs: SeenRun[] = [];
  const session = new Session(recordingTransport(runs), { threadId: `chat-${++thread}`, tools });
  return { session, runs };
}
/** One exchange's updates (a `send`, with the follow-up runs its client tool calls need). */
type Exchange = ReturnType<Session["send"]>;
const updatesOf = (updates$: Exchange) => lastValueFrom(updates$.pipe(toArray()));

/** The messages as [role, text, tool calls] rows: what a reader of the conversation sees. */
const rows = (messages: readonly Message[]) =>
  messages.map((message) => {
    const text = typeof message.content === "string" ? message.content : "";
    if (message.role === "assistant" && message.toolCalls !== undefined)
      return [message.role, text, message.toolCalls.map((call) => `${call.function.name} ${call.function.arguments}`)];
    return [message.role, text];
  });

const errorsOf = (updates: readonly Update<unknown>[]) => updates.filter((update) => update.kind === "error");

async function expectEveryRunAccepted(runs: readonly SeenRun[]) {
  for (const seen of runs) await expectAccepted(seen.events);
}

test("a text reply: the model's reasoning, then its answer, streamed in deltas, with usage on RUN_FINISHED", async () => {
  const { session, runs } = chat();
  const updates = await updatesOf(session.send("Hello!"));
  expect(errorsOf(updates)).toEqual([]);
  expect(updates.at(-1)).toEqual({ kind: "done", end: { kind: "success" } });
  expect(rows(session.messages)).toEqual([
    ["user", "Hello!"],
    ["reasoning", "A greeting: greet back and say what I can do."],
    ["assistant", 'Hello! Ask me about the weather in a city ("weather in Seoul") or what time it is where you are.'],
  ]);
  expect(runs).toHaveLength(1);
  const deltas = runs[0].events.filter((event) => event.type === "TEXT_MESSAGE_CONTENT");
  expect(deltas).toHaveLength(20); // a word per delta, not the whole answer at once
  const thoughts = runs[0].events.filter((event) => event.type === "REASONING_MESSAGE_CONTENT");
  expect(thoughts).toHaveLength(10);
  // The mock counts a token per word (in: the system prompt and "Hello!"); its one step's usage reaches the terminal event.
  const inputTokens = SYSTEM_PROMPT.split(" ").length + 1;
  expect(runs[0].events.at(-1)).toEqual({
    type: "RUN_FINISHED",
    threadId: session.threadId,
    runId: runs[0].input.runId,
    outcome: { type: "success" },
    usage: [{ provider: "scripted", model: "scripted-chat", inputTokens, outputTokens: 30, totalTokens: inputTokens + 30, reasoningTokens: 10 }],
  });
  await expectEveryRunAccepted(runs);
  // What the model was given: the system prompt, then the thread.
  const prompt = model.doStreamCalls.at(-1)?.prompt;
  expect(prompt?.[0]).toEqual({ role: "system", content: SYSTEM_PROMPT });
  expect(prompt?.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Hello!" }] });
});

describe("the server tool get_weather", () => {
  test("runs inside the run: its call and result stream to the client, and the model answers from the result in a second step", async () => {
    const { session, runs } = chat();
    const updates = await updatesOf(session.send("What's the weather in Seoul?"));
    expect(errorsOf(updates)).toEqual([]);
    expect(updates.at(-1)).toEqual({ kind: "done", end: { kind: "success" } });
    expect(updates.some((update) => update.kind === "run")).toBe(false); // one run: nothing for the client to execute
    expect(rows(session.messages)).toEqual([
      ["user", "What's the weather in Seoul?"],
      ["reasoning", "The user wants the weather in Seoul. The get_weather tool looks it up on the server."],
      ["assistant", "Let me look up the weather in Seoul.", ['get_weather {"city":"Seoul"}']],
      ["tool", '{"city":"Seoul","celsius":21,"sky":"sunny"}'],
      ["reasoning", "get_weather answered; now I can reply."],
      ["assistant", "It is 21 °C and sunny in Seoul today."],
    ]);
    const steps = runs[0].events.filter((event) => event.type === "STEP_STARTED").map((event) => event.stepName);
    expect(steps).toEqual(["step-1", "step-2"]);
    expect(runs[0].events.filter((event) => event.type === "TOOL_CALL_ARGS")).toHaveLength(2); // the arguments streamed
    await expectEveryRunAccepted(runs);
  });

  test("a city the table does not have: the tool's error goes back to the model, which says so", async () => {
    const { session, runs } = chat();
    await updatesOf(session.send("weather in Gotham"));
    const [tool, , answer] = session.messages.slice(-3);
    expect(tool).toMatchObject({
      role: "tool",
      content: JSON.stringify({ error: 'expected one of the cities Seoul, Busan, Tokyo, Auckland, Paris, London, New York, but got "Gotham"' }),
    });
    expect(answer).toMatchObject({
      role: "assistant",
      content: 'I could not get the weather: expected one of the cities Seoul, Busan, Tokyo, Auckland, Paris, London, New York, but got "Gotham".',
    });
    await expectEveryRunAccepted(runs);
  });

  test("a question without a city is answered with a question, no tool called", async () => {
    const { session } = chat();
    await updatesOf(session.send("What's the weather like?"));
    expect(rows(session.messages).at(-1)).toEqual(["assistant", 'Which city should I look up? Say, for example, "weather in Seoul".']);
  });
});

describe("the client tool get_local_time", () => {
  const NOW = new Date("2025-06-03T02:05:00Z");
  const whenAsked = (session: Session) => firstValueFrom(session.runningToolCalls$.pipe(filter((calls) => calls.length > 0)));

  test("the model's call ends the run; the user's answer goes back in the follow-up run the Session starts itself", async () => {
    const { session, runs } = chat();
    const exchange = updatesOf(session.send("What time is it?"));
    const [call] = await whenAsked(session);
    // The first run is over, with the call pending for the client.
    expect(runs).toHaveLength(1);
    expect(runs[0].input.tools.map((tool) => tool.name)).toEqual(["get_local_time"]);
    expect(runs[0].events.at(-1)).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "success", pendingToolCallIds: [call.toolCallId] } });
    expect(call).toMatchObject({ toolName: "get_local_time", args: {} });

    call.respond(sharedTime(NOW, { locale: "en-NZ", timeZone: "Pacific/Auckland" }));
    const updates = await exchange;
    expect(errorsOf(updates)).toEqual([]);
    expect(updates.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
    expect(updates.filter((update) => update.kind === "run")).toEqual([expect.objectContaining({ kind: "run", roundtrip: 1, toolCallIds: [call.toolCallId] })]);
    expect(runs).toHaveLength(2);
    expect(runs[1].input.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: call.toolCallId });
    expect(rows(session.messages)).toEqual([
      ["user", "What time is it?"],
      [
        "reasoning",
        "The time depends on where the user is, and only their browser knows it. I will ask with get_local_time; the user decides whether to share it.",
      ],
      ["assistant", "I will ask your browser for the time; you decide whether to share it.", ["get_local_time {}"]],
      ["tool", '{"shared":true,"date":"Tuesday, 3 June 2025","time":"2:05 pm","timeZone":"Pacific/Auckland","locale":"en-NZ"}'],
      ["reasoning", "get_local_time answered; now I can reply."],
      ["assistant", "It is 2:05 pm on Tuesday, 3 June 2025 where you are (Pacific/Auckland)."],
    ]);
    await expectEveryRunAccepted(runs);
  });

  test("declined: the follow-up run says the clock stays private", async () => {
    const { session } = chat();
    const exchange = updatesOf(session.send("what's the date?"));
    const [call] = await whenAsked(session);
    call.respond({ shared: false });
    expect((await exchange).at(-1)).toEqual({ kind: "done", end: { kind: "success" } });
    expect(rows(session.messages).slice(-3)).toEqual([
      ["tool", '{"shared":false}'],
      ["reasoning", "get_local_time answered; now I can reply."],
      ["assistant", "All right, your clock stays private, so I cannot tell what time it is where you are."],
    ]);
  });

  test("a client that does not offer the tool gets an answer in one run", async () => {
    const { session, runs } = chat([]);
    await updatesOf(session.send("What time is it?"));
    expect(runs).toHaveLength(1);
    expect(rows(session.messages).at(-1)).toEqual(["assistant", "I cannot see your clock from here, so I cannot tell what time it is where you are."]);
  });

  test("the conversation goes on: a later question sees the whole thread, with distinct tool call ids", async () => {
    const { session } = chat();
    await updatesOf(session.send("weather in Tokyo"));
    const exchange = updatesOf(session.send("What time is it?"));
    (await whenAsked(session))[0].respond({ shared: false });
    await exchange;
    await updatesOf(session.send("weather in Busan"));
    const ids = session.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : []));
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(rows(session.messages).at(-1)).toEqual(["assistant", "It is 23 °C and windy in Busan today."]);
    expect(model.doStreamCalls.length).toBeLessThanOrEqual(20); // the mock's record of calls stays bounded
  });
});
