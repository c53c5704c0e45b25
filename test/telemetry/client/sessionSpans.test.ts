/**
 * A Session's spans with the real OpenTelemetry SDK, over real loopback HTTP
 * (docs/observability.md#client): the run as the user saw it (thread, run id, time to first event,
 * outcome), a reconnect counted with its events, a client tool execution and the follow-up run as
 * children, a failure with the code the client shows; the requests carry the run's `traceparent`.
 * With no SDK registered, or a tracer that throws, the run is untouched and nothing is sent.
 */
import * as t from "io-ts";
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { clientTool } from "../../../src/client/tools/clientTool";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { clientTelemetry } from "../../../src/client/telemetry/clientTelemetry";
import type { Agent } from "../../../src/server/Agent";
import { AgentError } from "../../../src/server/AgentError";
import type { Served } from "../../../src/node/serve";
import type { Update } from "../../../src/thread/Update";
import { startCutProxy, type CutProxy } from "../../support/cutProxy";
import { counter, errorsOf } from "../../client/support";
import { parentOf, registerSdk, serveNoting, traceparentOf } from "./support";

let sdk: ReturnType<typeof registerSdk> | undefined;
const servers: Served[] = [];
let proxy: CutProxy | undefined;
afterEach(async () => {
  sdk?.unregister();
  sdk = undefined;
  await proxy?.close();
  proxy = undefined;
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

const greeter: Agent = {
  async run(ctx) {
    ctx.say("Hello there, this is a longer answer so that the stream has a few frames to cut.");
  },
};

async function server(agent: Agent, options: Parameters<typeof serveNoting>[1] = {}) {
  const started = await serveNoting(agent, options);
  servers.push(started.served);
  return started;
}

const exchange = (session: Session<unknown>, text: string): Promise<Update<unknown>[]> => lastValueFrom(session.send(text).pipe(toArray()));

test("a run is one invoke_agent span of kind client: the thread, the run id, the time to first event, the outcome; its POST carries the span as traceparent", async () => {
  sdk = registerSdk();
  const { url, seen } = await server(greeter);
  const session = new Session(new HttpTransport(url), { threadId: "t1", newId: counter("c"), telemetry: clientTelemetry() });
  const updates = await exchange(session, "hi");
  expect(errorsOf(updates)).toEqual([]);

  const spans = sdk.exporter.getFinishedSpans();
  expect(spans.map((span) => [span.name, span.kind])).toEqual([["invoke_agent", 2]]);
  const [run] = spans;
  expect(run.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.conversation.id": "t1",
    "agui_rx.run.id": "c-2", // the user message took c-1
    "agui_rx.run.outcome": "success",
    "agui_rx.client.joined": false,
  });
  expect(run.attributes["agui_rx.client.time_to_first_event_ms"]).toEqual(expect.any(Number));
  expect(run.events.map((event) => event.name)).toEqual(["agui_rx.first_event"]);
  expect(run.status.code).toBe(0);
  const post = seen.filter((request) => request.method === "POST" && request.path === "/agent");
  expect(post.map((request) => request.traceparent)).toEqual([traceparentOf(run)]);
});

test("a stream cut mid-run: the reconnect is counted on the run's span with an event each way, and the /connect carries the same traceparent", async () => {
  sdk = registerSdk();
  const { seen, served } = await server(greeter, { headers: { Connection: "close" } });
  proxy = await startCutProxy(served.port);
  const transport = new HttpTransport(proxy.url("/agent"), { reconnect: { delay: 0 } });
  await exchange(new Session(transport, { threadId: "reference", newId: counter("r") }), "hi"); // untraced: no telemetry
  const answerLength = proxy.served[proxy.served.length - 1];
  proxy.cutNext(Math.floor(answerLength * 0.8));

  const session = new Session(transport, { threadId: "t2", newId: counter("c"), telemetry: clientTelemetry() });
  const updates = await exchange(session, "hi");
  expect(errorsOf(updates)).toEqual([]);
  expect(updates.filter((update) => update.kind === "connection")).toEqual([
    { kind: "connection", status: "reconnecting", attempt: 1 },
    { kind: "connection", status: "connected", attempt: 1 },
  ]);
  const [run] = sdk.exporter.getFinishedSpans();
  expect(run.attributes).toMatchObject({ "agui_rx.client.reconnects": 1, "agui_rx.run.outcome": "success" });
  expect(run.events.map((event) => [event.name, event.attributes?.["agui_rx.attempt"]])).toEqual([
    ["agui_rx.first_event", undefined],
    ["agui_rx.reconnecting", 1],
    ["agui_rx.reconnected", 1],
  ]);
  const traced = seen.filter((request) => request.traceparent !== null);
  expect(traced.map((request) => [request.path, request.traceparent])).toEqual([
    ["/agent", traceparentOf(run)],
    ["/agent/connect", traceparentOf(run)],
  ]);
  // the untraced reference run carried nothing
  expect(seen.filter((request) => request.traceparent === null).map((request) => request.path)).toEqual(["/agent"]);
});

const lookup = clientTool({
  name: "lookup_weather",
  description: "The weather in a city, from the page",
  parameters: t.type({ city: t.string }),
  execute: async ({ city }) => ({ city, celsius: 21 }),
});

/** Calls lookup_weather first, answers with the result once it comes back. */
const forecaster: Agent = {
  async run(ctx) {
    const last = ctx.messages[ctx.messages.length - 1];
    if (last?.role !== "tool") {
      ctx.toolCall("lookup_weather").argsJson({ city: "Paris" }).end();
      return;
    }
    ctx.say(`It is ${typeof last.content === "string" ? last.content : "unknown"}.`);
  },
};

test("a client tool call and the follow-up run: execute_tool is a child of the run that asked, the follow-up an invoke_agent child linked to it; each POST carries its own run's span", async () => {
  sdk = registerSdk();
  const { url, seen } = await server(forecaster);
  const session = new Session(new HttpTransport(url), { threadId: "t3", newId: counter("c"), tools: [lookup], telemetry: clientTelemetry() });
  const updates = await exchange(session, "weather in Paris?");
  expect(errorsOf(updates)).toEqual([]);
  expect(updates.filter((update) => update.kind === "run")).toHaveLength(1);

  const spans = sdk.exporter.getFinishedSpans();
  const byName = (name: string) => spans.filter((span) => span.name === name);
  const [first, followUp] = byName("invoke_agent").sort((a, b) => (parentOf(a) === undefined ? -1 : parentOf(b) === undefined ? 1 : 0));
  const [tool] = byName("execute_tool lookup_weather");
  expect(spans).toHaveLength(3);
  expect(parentOf(first)).toBeUndefined();
  expect(parentOf(tool)).toBe(first.spanContext().spanId);
  expect(tool.kind).toBe(0);
  expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_weather", "gen_ai.tool.type": "function" });
  expect(tool.attributes["gen_ai.tool.call.id"]).toEqual(expect.any(String));
  expect(parentOf(followUp)).toBe(first.spanContext().spanId);
  expect(followUp.links.map((link) => link.context.spanId)).toEqual([first.spanContext().spanId]);
  expect(followUp.attributes).toMatchObject({ "agui_rx.run.roundtrip": 1, "agui_rx.run.outcome": "success", "gen_ai.conversation.id": "t3" });
  expect(first.attributes).toMatchObject({ "agui_rx.client.follow_ups": 1, "agui_rx.run.outcome": "success" });
  expect(followUp.attributes["agui_rx.client.time_to_first_event_ms"]).toEqual(expect.any(Number));
  // the tool ran between the runs: after the first run's span started, before the follow-up's.
  // Within a millisecond: the SDK starts each span at Date.now() (whole milliseconds) and measures
  // its end from there, so one span's end and the next one's start can be out of order by under 1 ms.
  const nanos = ([seconds, nanoseconds]: readonly [number, number]) => BigInt(seconds) * 1_000_000_000n + BigInt(nanoseconds);
  expect(nanos(tool.endTime) <= nanos(followUp.startTime) + 1_000_000n).toBe(true);
  const posts = seen.filter((request) => request.method === "POST" && request.path === "/agent");
  expect(posts.map((request) => request.traceparent)).toEqual([traceparentOf(first), traceparentOf(followUp)]);
});

test("a run the agent fails: the span's status is an error carrying the code the client shows", async () => {
  sdk = registerSdk();
  const failing: Agent = {
    async run() {
      throw new AgentError("the quota is used up", "QUOTA");
    },
  };
  const { url } = await server(failing);
  const session = new Session(new HttpTransport(url), { threadId: "t4", newId: counter("c"), telemetry: clientTelemetry() });
  const updates = await exchange(session, "hi");
  const done = updates[updates.length - 1];
  expect(done).toMatchObject({ kind: "done", end: { kind: "failed", code: "QUOTA" } });
  const [run] = sdk.exporter.getFinishedSpans();
  expect(run.status).toEqual({ code: 2, message: done.kind === "done" && done.end.kind === "failed" ? done.end.message : "" });
  expect(run.attributes).toMatchObject({ "error.type": "QUOTA", "agui_rx.run.outcome": "failed" });
  expect(run.events.find((event) => event.name === "exception")?.attributes).toMatchObject({ "error.type": "QUOTA" });
});

test("no SDK registered: the run is the same, no span, no traceparent", async () => {
  const { url, seen } = await server(greeter);
  const traced = new Session(new HttpTransport(url), { threadId: "t5", newId: counter("c"), telemetry: clientTelemetry() });
  const plain = new Session(new HttpTransport(url), { threadId: "t6", newId: counter("c") });
  const [withTelemetry, without] = [await exchange(traced, "hi"), await exchange(plain, "hi")];
  // the same updates but for the ids the server mints for the answer
  const shape = (updates: readonly Update<unknown>[]) =>
    updates.map((update) => (update.kind === "message" ? [update.kind, update.change, update.message.content] : update));
  expect(shape(withTelemetry)).toEqual(shape(without));
  expect(seen.map((request) => request.traceparent)).toEqual([null, null]);
});

test("a tracer that throws traces nothing and the run goes on", async () => {
  const { url, seen } = await server(greeter);
  const throwing = {
    startSpan: () => {
      throw new Error("tracer down");
    },
  };
  const session = new Session(new HttpTransport(url), { threadId: "t7", newId: counter("c"), telemetry: clientTelemetry({ tracer: throwing }) });
  const updates = await exchange(session, "hi");
  expect(errorsOf(updates)).toEqual([]);
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(seen.map((request) => request.traceparent)).toEqual([null]);
});
