/**
 * The server's traces over real loopback HTTP with the real OpenTelemetry SDK (docs/observability.md#traces):
 * the span tree of a run with a step, a tool call, a subagent and an interrupt, then its resume;
 * the request's traceparent as the parent; content only when asked; the client's error code on
 * the span; a run function's spans; a stored run; and nothing at all with no SDK registered.
 */
import { trace } from "@opentelemetry/api";
import type { OtelTracer } from "../../../src/telemetry/OtelApi";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { EventSchemas } from "@ag-ui/core/schemas";
import { from, lastValueFrom, toArray, type Observable } from "rxjs";
import { verifyEvents } from "../../../src/operators/verifyEvents";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { runTraceOf } from "../../../src/protocol/runTraceMeta";
import { success, type Agent } from "../../../src/server/Agent";
import { AgentError } from "../../../src/server/AgentError";
import { createHandler, type RunFunction } from "../../../src/server/http/createHandler";
import type { HandlerOptions } from "../../../src/server/http/HandlerOptions";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { serve, type Served } from "../../../src/node/serve";
import { openPost, parseSseBody } from "../../http/loopback";
import { inputOf, planner, SECRET } from "./planner";
import { recorded, registerTracing, spanTree, unregisterTracing, type Recorded } from "./tracing";

const servers: Served[] = [];
let otel: Recorded;
beforeEach(() => {
  otel = registerTracing();
});
afterEach(async () => {
  unregisterTracing();
  await Promise.all(servers.splice(0).map((served) => served.close()));
});

async function serveHandler(source: Agent | RunFunction, options: HandlerOptions = {}): Promise<string> {
  const served = await serve(createHandler(source, options));
  servers.push(served);
  return served.url;
}

/** Posts `body` and reads the whole SSE answer (the request span has ended when the body has). */
async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Event[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  // A stored run's frames carry `id: <cursor>` lines first; the events are the `data:` lines.
  const text = await response.text();
  return parseSseBody(text.replace(/^id: .*\n/gm, ""));
}

/** Every attribute value of every span, as one text to search for content. */
function allAttributeText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((span) => span.attributes));
}

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

test("a run with a step, a tool call, a subagent and an interrupt, then its resume: the request → the run → the step → the tool call and the subagent", async () => {
  const url = await serveHandler(planner);
  const first = await post(url, inputOf("r1"), { traceparent: TRACEPARENT });
  const finished = first[first.length - 1];
  if (finished?.type !== "RUN_FINISHED" || finished.outcome?.type !== "interrupt") throw new Error("expected the run to end interrupted");
  const interruptId = finished.outcome.interrupts[0].id;

  const request = otel.one("POST {url}");
  expect(request.kind).toBe(1); // server
  expect(request.spanContext().traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736"); // the traceparent is the parent
  expect(request.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
  expect(request.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "{url}", "http.response.status_code": 200 });
  expect(request.attributes["http.response.body.size"]).toBeGreaterThan(0);

  const runSpan = otel.one("invoke_agent planner");
  expect(otel.parentOf(runSpan)).toBe(request);
  expect(runSpan.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "planner",
    "gen_ai.conversation.id": "t1",
    "gen_ai.usage.input_tokens": 12,
    "gen_ai.usage.output_tokens": 7,
    "gen_ai.provider.name": "test",
    "gen_ai.request.model": "m1",
    "agui_rx.run.id": "r1",
    "agui_rx.run.outcome": "interrupt",
    "agui_rx.run.interrupts": 1,
    "agui_rx.run.resumed": false,
    "agui_rx.run.events": first.length,
    "agui_rx.run.bytes": request.attributes["http.response.body.size"],
  });
  // The run's trace is logged with the run, for a reconnect, another instance or a UI.
  expect(runTraceOf(first[0]?.metadata)).toEqual({ traceId: runSpan.spanContext().traceId, spanId: runSpan.spanContext().spanId });

  const step = otel.one("step plan");
  expect(otel.parentOf(step)).toBe(runSpan);
  expect(step.attributes).toEqual({ "agui_rx.step.name": "plan" });
  const tool = otel.one("execute_tool search");
  expect(otel.parentOf(tool)).toBe(step);
  expect(tool.attributes).toMatchObject({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search" });
  expect(tool.attributes["gen_ai.tool.call.id"]).toEqual(first.find((event) => event.type === "TOOL_CALL_START")?.toolCallId);
  expect(tool.attributes["agui_rx.tool_call.left_for_client"]).toBeUndefined();
  const researcher = otel.one("invoke_agent researcher");
  expect(otel.parentOf(researcher)).toBe(step);
  expect(researcher.attributes).toMatchObject({ "gen_ai.agent.name": "researcher", "agui_rx.subagent.outcome": "success" });

  // The resume: a second request, its own trace (no traceparent), the run marked resumed, the client's tool call left for it.
  otel.exporter.reset();
  const second = await post(url, inputOf("r2", { resume: [{ interruptId, status: "resolved" }] }));
  const resumed = otel.one("invoke_agent planner");
  expect(otel.parentOf(resumed)).toBe(otel.one("POST {url}"));
  expect(otel.one("POST {url}").parentSpanContext).toBeUndefined();
  expect(resumed.attributes).toMatchObject({
    "agui_rx.run.id": "r2",
    "agui_rx.run.resumed": true,
    "agui_rx.run.outcome": "success",
    "agui_rx.run.events": second.length,
  });
  const notify = otel.one("execute_tool notify");
  expect(otel.parentOf(notify)).toBe(resumed);
  expect(notify.attributes["agui_rx.tool_call.left_for_client"]).toBe(true);
  expect(runTraceOf(second[0]?.metadata)?.traceId).toBe(resumed.spanContext().traceId);
});

test("no message text, tool arguments, results or state on spans by default; all of them with recordContent", async () => {
  const quiet = await serveHandler(planner);
  await post(quiet, inputOf("r1"));
  expect(allAttributeText(otel.spans())).not.toContain(SECRET);

  otel.exporter.reset();
  const loud = await serveHandler(planner, { telemetry: { recordContent: true } });
  await post(loud, inputOf("r1"));
  const runSpan = otel.one("invoke_agent planner");
  expect(JSON.parse(String(runSpan.attributes["gen_ai.input.messages"]))).toEqual([{ id: "u-r1", role: "user", content: `Please do ${SECRET}.` }]);
  expect(JSON.parse(String(runSpan.attributes["agui_rx.run.state"]))).toEqual({ secret: SECRET });
  expect(String(runSpan.attributes["gen_ai.output.messages"])).toContain(`Planning for ${SECRET}.`);
  const tool = otel.one("execute_tool search");
  expect(JSON.parse(String(tool.attributes["gen_ai.tool.call.arguments"]))).toEqual({ query: SECRET });
  expect(tool.attributes["gen_ai.tool.call.result"]).toBe(`found ${SECRET}`);
});

test("a failed run: the run span has status error, error.type = the RUN_ERROR code the client sees, and the exception event", async () => {
  const failing: Agent = {
    name: "failing",
    run: () => Promise.reject(new AgentError("the index is down", "UPSTREAM_UNAVAILABLE")),
  };
  const events = await post(await serveHandler(failing), inputOf("r1"));
  const last = events[events.length - 1];
  expect(last).toMatchObject({ type: "RUN_ERROR", code: "UPSTREAM_UNAVAILABLE" });
  const runSpan = otel.one("invoke_agent failing");
  expect(runSpan.status).toEqual({ code: 2, message: "the index is down" });
  expect(runSpan.attributes).toMatchObject({ "error.type": "UPSTREAM_UNAVAILABLE", "agui_rx.run.outcome": "error" });
  expect(runSpan.events.map((event) => [event.name, event.attributes?.["exception.type"]])).toEqual([["exception", "UPSTREAM_UNAVAILABLE"]]);
  expect(otel.one("POST {url}").status.code).toBe(0); // the request itself answered 200
});

test("a run function's spans come from its events: the run, its steps and tool calls; its own spans are the run's children", async () => {
  const steps: RunFunction = (input) => {
    trace.getTracer("app").startSpan("subscribed").end(); // at subscription: inside the run span
    const events: Observable<Event> = from([
      ev.runStarted(input.threadId, input.runId),
      ev.stepStarted("fetch"),
      ev.toolCallStart("c1", "lookup"),
      ev.toolCallArgs("c1", "{}"),
      ev.toolCallEnd("c1"),
      ev.toolCallResult("m1", "c1", "ok"),
      ev.stepFinished("fetch"),
      ev.runFinished(input.threadId, input.runId, { outcome: { type: "success" } }),
    ]);
    return events;
  };
  const events = await post(await serveHandler(steps), inputOf("r1"));
  const runSpan = otel.one("invoke_agent");
  expect(runSpan.attributes).toMatchObject({ "agui_rx.run.outcome": "success", "agui_rx.run.events": 8 });
  expect(runSpan.attributes["gen_ai.agent.name"]).toBeUndefined();
  expect(otel.parentOf(otel.one("subscribed"))).toBe(runSpan);
  expect(otel.parentOf(otel.one("execute_tool lookup"))).toBe(otel.one("step fetch"));
  expect(otel.parentOf(otel.one("step fetch"))).toBe(runSpan);
  expect(runTraceOf(events[0]?.metadata)?.spanId).toBe(runSpan.spanContext().spanId);
  expect(spanTree(otel.spans(), [])).toBe(["POST {url}", "  invoke_agent", "    subscribed", "    step fetch", "      execute_tool lookup"].join("\n"));
});

test("a stored run: the run span is the post's child, the RUN_STARTED the store logged carries the trace, and /connect has its own server span", async () => {
  const url = await serveHandler(planner, { store: memoryStore() });
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(inputOf("r1")),
  });
  const firstFrame = (await response.text()).split("\n\n")[0] ?? "";
  expect(firstFrame).toMatch(/^id: .+\ndata: /); // the RUN_STARTED as the store logged it (beginRun), with its cursor
  const started = parseSseBody(firstFrame.replace(/^id: .*\n/, ""))[0];
  const runSpan = otel.one("invoke_agent planner");
  expect(otel.parentOf(runSpan)).toBe(otel.one("POST {url}"));
  expect(otel.parentOf(otel.one("step plan"))).toBe(runSpan);
  expect(runSpan.attributes["agui_rx.run.outcome"]).toBe("interrupt");
  expect(started).toMatchObject({ type: "RUN_STARTED", runId: "r1" });
  expect(runTraceOf(started?.metadata)).toEqual({ traceId: runSpan.spanContext().traceId, spanId: runSpan.spanContext().spanId });

  await post(`${url}connect`, { threadId: "t1" });
  expect(otel.one("POST {url}/connect").attributes).toMatchObject({ "http.route": "{url}/connect", "http.response.status_code": 200 });
});

test("every route has its server span: a JSON answer, a 404, a 405 without a route", async () => {
  const url = await serveHandler(planner);
  expect((await fetch(`${url}capabilities`)).status).toBe(200);
  expect((await fetch(`${url}connect`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })).status).toBe(404);
  expect((await fetch(url, { method: "PUT" })).status).toBe(405);
  expect(otel.one("GET {url}/capabilities").attributes).toMatchObject({ "http.route": "{url}/capabilities", "http.response.status_code": 200 });
  expect(otel.one("POST {url}/connect").attributes["http.response.status_code"]).toBe(404);
  expect(otel.one("PUT").attributes).toMatchObject({ "http.request.method": "PUT", "http.response.status_code": 405 });
  expect(otel.one("PUT").attributes["http.route"]).toBeUndefined();
});

test("no SDK registered: no spans anywhere, and the run's events are exactly those of an untraced run", async () => {
  unregisterTracing();
  const exporter = new InMemorySpanExporter();
  const unregistered = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const events = await post(await serveHandler(planner), inputOf("r1"), { traceparent: TRACEPARENT });
  expect(exporter.getFinishedSpans()).toEqual([]);
  expect(events[0]).toEqual({ type: "RUN_STARTED", threadId: "t1", runId: "r1", protocolVersion: "1.0" });
  expect(events.some((event) => JSON.stringify(event).includes("traceId"))).toBe(false);
  await unregistered.shutdown();
});

test("a tracer that throws never breaks a run: not at startSpan, not on a span's calls", async () => {
  const untraced = await post(await serveHandler(planner, { telemetry: { tracer: false } }), inputOf("r1"));
  const strip = (events: Event[]): unknown[] => events.map((event) => ({ ...event, messageId: undefined, toolCallId: undefined, metadata: undefined }));

  const throwsAtStart = {
    startSpan: (): never => {
      throw new Error("tracer down");
    },
  };
  const atStart = await post(await serveHandler(planner, { telemetry: { tracer: throwsAtStart } }), inputOf("r1"));
  expect(strip(atStart).length).toBe(strip(untraced).length);
  expect(atStart[atStart.length - 1]?.type).toBe("RUN_FINISHED");

  const exporter = new InMemorySpanExporter();
  const real = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("real");
  let started = 0;
  const throwsLater: OtelTracer = {
    startSpan(name, options, parent) {
      const span = real.startSpan(name, options, parent);
      // The third span (the step) throws on everything; the run and the request still answer.
      if (++started !== 3) return span;
      return new Proxy(span, {
        get: (target, key) =>
          key === "spanContext" || key === "isRecording"
            ? (Reflect.get(target, key) as () => unknown).bind(target)
            : () => {
                throw new Error("span down");
              },
      });
    },
  };
  const later = await post(await serveHandler(planner, { telemetry: { tracer: throwsLater } }), inputOf("r1"));
  expect(later.map((event) => event.type)).toEqual(untraced.map((event) => event.type));
  expect(later[later.length - 1]).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
  const names = exporter.getFinishedSpans().map((span) => span.name);
  expect(names).toEqual(expect.arrayContaining(["POST {url}", "invoke_agent planner"]));
});

test("a passed tracer is used without a registered provider", async () => {
  unregisterTracing();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  await post(await serveHandler(planner, { telemetry: { tracer: provider.getTracer("mine") } }), inputOf("r1"), { traceparent: TRACEPARENT });
  const mine = recorded(exporter, provider);
  expect(otel.spans()).toEqual([]);
  expect(mine.parentOf(mine.one("invoke_agent planner"))).toBe(mine.one("POST {url}"));
  expect(mine.one("POST {url}").spanContext().traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
});

test("telemetry: { tracer: false } on the handler: no spans even with an SDK registered, and the events carry no trace", async () => {
  const events = await post(await serveHandler(planner, { telemetry: { tracer: false } }), inputOf("r1"), { traceparent: TRACEPARENT });
  expect(otel.spans()).toEqual([]);
  expect(events[0]?.metadata).toBeUndefined();
  expect(events[events.length - 1]).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
});

test("a client that goes away mid-run (no store): the run span ends cancelled, the request span ends with the body", async () => {
  const waiting: Agent = {
    name: "waiting",
    async run(ctx) {
      ctx.say("Working on it.");
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      return success();
    },
  };
  const url = await serveHandler(waiting);
  const open = await openPost(url, JSON.stringify(inputOf("r1")));
  await new Promise<void>((resolve) => open.response.once("data", () => resolve()).resume());
  open.destroy();
  const runSpan = await otel.ended("invoke_agent waiting");
  expect(runSpan.attributes["agui_rx.run.outcome"]).toBe("cancelled");
  const request = await otel.ended("POST {url}");
  expect(otel.parentOf(runSpan)).toBe(request);
});

test("a run function's chunks open tool calls too (its stream is not normalized without a store)", async () => {
  const chunks: RunFunction = (input) =>
    from([
      ev.runStarted(input.threadId, input.runId),
      ev.toolCallChunk({ toolCallId: "c1", toolCallName: "lookup", delta: '{"q":' }),
      ev.toolCallChunk({ toolCallId: "c1", delta: '"x"}' }),
      ev.toolCallResult("m1", "c1", "ok"),
      ev.runFinished(input.threadId, input.runId, { outcome: { type: "success" } }),
    ]);
  await post(await serveHandler(chunks, { telemetry: { recordContent: true } }), inputOf("r1"));
  const tool = otel.one("execute_tool lookup");
  expect(otel.parentOf(tool)).toBe(otel.one("invoke_agent"));
  expect(tool.attributes).toMatchObject({ "gen_ai.tool.call.id": "c1", "gen_ai.tool.call.arguments": '{"q":"x"}', "gen_ai.tool.call.result": "ok" });
});

test("a traced run's events, the trace in RUN_STARTED metadata included, pass the strict verifier and the official @ag-ui/core schemas", async () => {
  const events = await post(await serveHandler(planner), inputOf("r1"));
  expect(runTraceOf(events[0]?.metadata)).toBeDefined();
  await expect(lastValueFrom(from(events).pipe(verifyEvents({ mode: "strict" }), toArray()))).resolves.toEqual(events);
  for (const event of events) expect(EventSchemas.safeParse(event).success).toBe(true);
  expect(EventSchemas.parse(events[0])).toMatchObject({ type: "RUN_STARTED", metadata: { "agui-rx": runTraceOf(events[0]?.metadata) } });
});
