/**
 * The store's work on a run's trace (docs/observability.md#store-work), with the real OpenTelemetry
 * SDK, a memory store and real loopback HTTP: a run's appends counted in one span event on its
 * span (a run of 5,000 events makes a handful of spans, never one per batch); a reconnect's read
 * and live tail as two short spans under its request, whose span links to the run's; a join's
 * prelude RUN_STARTED naming the run's trace again.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { runTraceOf } from "../../../src/protocol/runTraceMeta";
import type { OtelTracer } from "../../../src/telemetry/OtelApi";
import { success, type Agent } from "../../../src/server/Agent";
import { STORE_APPENDS_EVENT } from "../../../src/server/store/AppendTally";
import { STORE_READ_SPAN } from "../../../src/server/tracing/tracedConnect";
import { STORE_TAIL_SPAN } from "../../../src/server/tracing/tracedTail";
import { closeAll, framesOf, gate, inputFor, openStream, postJson, serveStored, until } from "../../http/durable/support";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const telemetry = {
  tracer: provider.getTracer("agui-rx"),
};

afterEach(async () => {
  await closeAll();
  exporter.reset();
});

const spansNamed = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);
const runSpanOf = (): ReadableSpan => {
  const runs = spansNamed("invoke_agent writer");
  expect(runs).toHaveLength(1);
  return runs[0];
};

/** An agent that writes `deltas` text deltas, as fast as the run takes them. */
function writer(deltas: number): Agent {
  return {
    name: "writer",
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < deltas; i++) {
        await ctx.ready();
        message.delta(`${i} `);
      }
      message.end();
      return success();
    },
  };
}

test("a run of 5,000 events: its appends are counted on its span in one event, and the whole trace is a handful of spans", async () => {
  const { url } = await serveStored(writer(4_998), { telemetry });
  const { text } = await postJson(url, inputFor("t1", "r1"));
  const frames = await framesOf(text);
  expect(frames).toHaveLength(5_002); // RUN_STARTED, the message's start, 4,998 deltas, its end, RUN_FINISHED
  await until(() => spansNamed("invoke_agent writer").length === 1, "the run's span to end");
  const appends = runSpanOf().events.filter((event) => event.name === STORE_APPENDS_EVENT);
  expect(appends).toHaveLength(1);
  const counts = appends[0].attributes!;
  // Every event after RUN_STARTED (which beginRun logged) went through an append, in far fewer batches.
  expect(counts["agui_rx.store.events"]).toBe(5_001);
  expect(counts["agui_rx.store.batches"]).toBeGreaterThanOrEqual(1);
  expect(counts["agui_rx.store.batches"]).toBeLessThan(5_001);
  expect(counts["agui_rx.store.largest_batch"]).toBeGreaterThan(1);
  expect(counts["agui_rx.store.failed_appends"]).toBe(0);
  expect(counts["agui_rx.store.append_ms"]).toBeGreaterThanOrEqual(0);
  // The request, the run, the response's tail of the log: no span per event, none per batch.
  expect(exporter.getFinishedSpans().length).toBeLessThanOrEqual(5);
});

test("a reconnect after a Last-Event-ID: its read and its live tail are short spans under its request, whose span links to the run's", async () => {
  const halfway = gate();
  const resume = gate();
  const agent: Agent = {
    name: "writer",
    async run(ctx) {
      const message = ctx.assistantMessage();
      message.delta("The answer ");
      halfway.open();
      await resume.opened;
      message.delta("is 42.");
      message.end();
      return success();
    },
  };
  const { url } = await serveStored(agent, { telemetry });
  const first = await openStream(url, inputFor("t1", "r1"));
  await halfway.opened;
  await first.until("The answer");
  const before = await framesOf(first.text().slice(0, first.text().lastIndexOf("\n\n") + 2));
  const started = before[0].event;
  expect(started.type).toBe("RUN_STARTED");
  const trace = runTraceOf(started.type === "RUN_STARTED" ? started.metadata : undefined);
  expect(trace).toBeDefined();
  await first.cancel(); // the client is cut: the run goes on

  const reconnect = openStream(`${url}/connect`, { threadId: "t1", runId: "r1" }, { "Last-Event-ID": before[before.length - 1].id! });
  const answer = await reconnect;
  resume.open();
  const after = await framesOf(await answer.rest());
  expect(after[after.length - 1].event.type).toBe("RUN_FINISHED");
  await until(() => spansNamed("POST {url}/connect").length === 1 && spansNamed(STORE_TAIL_SPAN).length >= 1, "the connect's spans to end");

  const run = runSpanOf();
  expect(run.spanContext()).toMatchObject(trace!);
  const connect = spansNamed("POST {url}/connect")[0];
  // The link: the run's span, whose RUN_STARTED the reconnect's read found in the store.
  expect(connect.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId }))).toEqual([trace]);
  const read = spansNamed(STORE_READ_SPAN).find((span) => span.parentSpanContext?.spanId === connect.spanContext().spanId)!;
  expect(read.attributes).toMatchObject({ "agui_rx.connect.mode": "resume", "agui_rx.connect.linked_run": true });
  const tail = spansNamed(STORE_TAIL_SPAN).find((span) => span.parentSpanContext?.spanId === connect.spanContext().spanId)!;
  // What the read gave, then what the tail delivered: every frame of the answer, counted once.
  const readFrames = read.attributes["agui_rx.connect.frames"] as number;
  expect(tail.attributes["agui_rx.store.events"]).toBe(after.length - readFrames);
  expect(after.length - readFrames).toBeGreaterThan(0); // the rest of the run came live
});

test("a join after the run ended: the prelude's RUN_STARTED names the run's trace, and the join's span links to it", async () => {
  const { url } = await serveStored(writer(3), { telemetry });
  await postJson(url, inputFor("t1", "r1"));
  await until(() => spansNamed("invoke_agent writer").length === 1, "the run's span to end");
  const run = runSpanOf();
  const { text } = await postJson(`${url}/connect`, { threadId: "t1" });
  const prelude = await framesOf(text);
  const started = prelude[0].event;
  expect(started.type === "RUN_STARTED" ? runTraceOf(started.metadata) : undefined).toEqual({
    traceId: run.spanContext().traceId,
    spanId: run.spanContext().spanId,
  });
  await until(() => spansNamed("POST {url}/connect").length === 1, "the join's span to end");
  const join = spansNamed("POST {url}/connect")[0];
  expect(join.links.map((link) => link.context.spanId)).toEqual([run.spanContext().spanId]);
  expect(spansNamed(STORE_READ_SPAN)[0].attributes).toMatchObject({ "agui_rx.connect.mode": "snapshot", "agui_rx.connect.frames": prelude.length });
});

test("without a tracer: no trace in RUN_STARTED, nothing linked, the answers as they were", async () => {
  const { url } = await serveStored(writer(3));
  await postJson(url, inputFor("t1", "r1"));
  const { text } = await postJson(`${url}/connect`, { threadId: "t1" });
  const started = (await framesOf(text))[0].event;
  expect(started.type === "RUN_STARTED" ? started.metadata : "not RUN_STARTED").toBeUndefined();
  expect(exporter.getFinishedSpans()).toEqual([]);
});

test("a tracer that throws on the store's spans and events: the run and the connect answer as they would, the link still made", async () => {
  const real = provider.getTracer("agui-rx");
  const breaking: OtelTracer = {
    startSpan(name, options, context) {
      if (name.startsWith("agui_rx.store")) throw new Error("broken tracer");
      const span = real.startSpan(name, options, context);
      // The run's span refuses the appends' event.
      const addEvent = span.addEvent.bind(span);
      span.addEvent = (event, attributes) => {
        if (event === STORE_APPENDS_EVENT) throw new Error("broken span");
        return addEvent(event, attributes);
      };
      return span;
    },
  };
  const { url } = await serveStored(writer(3), { telemetry: { tracer: breaking } });
  const ran = await framesOf((await postJson(url, inputFor("t1", "r1"))).text);
  expect(ran[ran.length - 1].event.type).toBe("RUN_FINISHED");
  const joined = await framesOf((await postJson(`${url}/connect`, { threadId: "t1" })).text);
  expect(joined.map((frame) => frame.event.type)).toEqual(["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]);
  await until(() => spansNamed("POST {url}/connect").length === 1 && spansNamed("invoke_agent writer").length === 1, "the spans to end");
  expect(spansNamed("POST {url}/connect")[0].links.map((link) => link.context.spanId)).toEqual([runSpanOf().spanContext().spanId]);
  expect(spansNamed(STORE_READ_SPAN)).toEqual([]);
});
