/**
 * A run's trace across two instances on one real redis-server (issue #26, docs/observability.md#store-work):
 * each instance a `createHandler` with its own `redisStore`, client and tracer (its own SDK's
 * in-memory exporter: two processes' worth of spans), served on its own loopback port. A run
 * started on A and cut mid-stream is resumed on B with Last-Event-ID: B's connect span links to
 * A's run span (same trace id), found through the RUN_STARTED the store logged; the client reads
 * the trace id from RUN_STARTED's metadata; a second client joining on B gets it in the prelude.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { serve, type Served } from "../../../src/node/serve";
import { runTraceOf } from "../../../src/protocol/runTraceMeta";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { success, type Agent } from "../../../src/server/Agent";
import { createHandler } from "../../../src/server/http/createHandler";
import { STORE_APPENDS_EVENT } from "../../../src/server/store/AppendTally";
import { STORE_READ_SPAN } from "../../../src/server/tracing/tracedConnect";
import { framesOf, gate, inputFor, openStream, postJson, until } from "../../http/durable/support";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const prefix = uniquePrefix("trace-instances");
const opened: { store: RedisStore; client: TestClient; served: Served }[] = [];

/** One instance: its own Redis client and store, its own tracer provider and exporter, its own port. */
async function instance(name: string, agent: Agent): Promise<{ readonly url: string; readonly exporter: InMemorySpanExporter }> {
  const client = await connectClient(`trace-${name}`);
  const store = redisStore({ client, prefix });
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const served = await serve(
    createHandler(agent, {
      store,
      telemetry: {
        tracer: provider.getTracer("agui-rx"),
      },
      onRunError: () => undefined,
    }),
  );
  opened.push({ store, client, served });
  return { url: served.url.replace(/\/$/, "") + "/agent", exporter };
}

afterAll(async () => {
  for (const { store, client, served } of opened) {
    await served.close();
    await store.close();
    await closeClient(client);
  }
});

const named = (exporter: InMemorySpanExporter, name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((span) => span.name === name);

test("a run on A resumed on B with Last-Event-ID: B's connect span links to A's run span, whose trace id the client read in RUN_STARTED", async () => {
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
  const a = await instance("A", agent);
  const b = await instance("B", agent);

  const first = await openStream(a.url, inputFor("t1", "r1"));
  await halfway.opened;
  await first.until("The answer");
  const received = first.text();
  const before = await framesOf(received.slice(0, received.lastIndexOf("\n\n") + 2));
  const started = before[0].event;
  const trace = started.type === "RUN_STARTED" ? runTraceOf(started.metadata) : undefined;
  expect(trace).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/) });
  await first.cancel(); // cut: the run goes on, on A

  const reconnect = await openStream(`${b.url}/connect`, { threadId: "t1", runId: "r1" }, { "Last-Event-ID": before[before.length - 1].id! });
  expect(reconnect.response.status).toBe(200);
  resume.open();
  const after = await framesOf(await reconnect.rest());
  expect(after[after.length - 1].event.type).toBe("RUN_FINISHED");

  // A's run span is the one RUN_STARTED named; its appends were counted on it.
  await until(() => named(a.exporter, "invoke_agent writer").length === 1, "A's run span to end");
  const run = named(a.exporter, "invoke_agent writer")[0];
  expect({ traceId: run.spanContext().traceId, spanId: run.spanContext().spanId }).toEqual(trace);
  expect(run.events.filter((event) => event.name === STORE_APPENDS_EVENT)).toHaveLength(1);

  // B never ran it: its connect span (a trace of its own) links to A's run span.
  await until(() => named(b.exporter, "POST {url}/connect").length === 1, "B's connect span to end");
  expect(named(b.exporter, "invoke_agent writer")).toEqual([]);
  const connect = named(b.exporter, "POST {url}/connect")[0];
  expect(connect.spanContext().traceId).not.toBe(trace!.traceId);
  expect(connect.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId }))).toEqual([trace]);
  const read = named(b.exporter, STORE_READ_SPAN)[0];
  expect(read.parentSpanContext?.spanId).toBe(connect.spanContext().spanId);
  expect(read.attributes).toMatchObject({ "agui_rx.connect.mode": "resume", "agui_rx.connect.linked_run": true });
});

test("a second client joining on B after the run on A: the prelude's RUN_STARTED names A's run trace, and the join links to it", async () => {
  const a = await instance("A2", { name: "writer", run: async (ctx) => (ctx.say("Done."), success()) });
  const b = await instance("B2", { name: "writer", run: async (ctx) => (ctx.say("Done."), success()) });
  const { text } = await postJson(a.url, inputFor("t2", "r1"));
  const ran = (await framesOf(text))[0].event;
  const trace = ran.type === "RUN_STARTED" ? runTraceOf(ran.metadata) : undefined;
  expect(trace).toBeDefined();

  const joined = await framesOf((await postJson(`${b.url}/connect`, { threadId: "t2" })).text);
  const prelude = joined[0].event;
  expect(prelude.type === "RUN_STARTED" ? runTraceOf(prelude.metadata) : undefined).toEqual(trace);
  await until(() => named(b.exporter, "POST {url}/connect").length === 1, "B's join span to end");
  expect(named(b.exporter, "POST {url}/connect")[0].links.map((link) => link.context.spanId)).toEqual([trace!.spanId]);
});
