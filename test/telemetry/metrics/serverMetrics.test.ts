/**
 * Issue #26, the server's metrics (docs/observability.md#metrics), through the real OpenTelemetry
 * SDK (a MeterProvider whose reader the test collects on demand) over real loopback HTTP: live runs
 * up then down, run duration by outcome, frames sent, connect latency and reconnects, a slow
 * consumer, a store that refuses, queued messages, the gauges; no point ever carries a thread or
 * run id.
 */
import { metrics } from "@opentelemetry/api";
import { Observable } from "rxjs";
import type { Event } from "../../../src/protocol/events";
import { ev } from "../../../src/protocol/build";
import { StoreError } from "../../../src/server/store/StoreError";
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import type { RunWriter, ThreadStore } from "../../../src/server/store/ThreadStore";
import { tailFrames } from "../../../src/server/http/TailFrames";
import { serve } from "../../../src/node/serve";
import { createHandler, type HandlerOptions, type RunSource } from "../../../src/server/http/createHandler";
import { interrupted, success, type Agent } from "../../../src/server/Agent";
import type { OtelMeter } from "../../../src/telemetry/OtelApi";
import { closeAll, framesOf, gate, inputFor, openStream, postJson, serveStored } from "../../http/durable/support";
import { scriptedAgent, sendInput, post, noticeOf } from "../../http/queue/support";
import { checkCardinality, metricsProbe, total, type MetricsProbe } from "./metricsSupport";

const P = "agui_rx.server.";
let probe: MetricsProbe;
/** Every thread and run id a test used: none may appear as an attribute value. */
const ids: string[] = [];

beforeEach(() => {
  probe = metricsProbe();
});

afterEach(async () => {
  await closeAll();
  await probe.collect();
  checkCardinality(probe.seen, ids); // every point any test collected, whatever it asserted
  await probe.provider.shutdown();
  metrics.disable();
});

/** A handler without a store on loopback, recording into the probe's meter. */
async function served<S>(source: RunSource<S>, options: HandlerOptions = {}): Promise<string> {
  const server = await serve(createHandler(source, { telemetry: { meter: probe.meter }, ...options }));
  const url = `${server.url}agent`;
  closers.push(() => server.close());
  return url;
}
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Answers "done" after its gate opens. */
function heldAgent(): { readonly agent: Agent; readonly hold: ReturnType<typeof gate>; readonly reached: ReturnType<typeof gate> } {
  const hold = gate();
  const reached = gate();
  const agent: Agent = {
    async run(ctx) {
      const message = ctx.assistantMessage();
      message.delta("working");
      reached.open();
      await hold.opened;
      message.delta(" done");
      message.end();
      return success();
    },
  };
  return { agent, hold, reached };
}

test("a run: live runs go up while it runs and down after, its duration is recorded as success, and every frame read counts as sent", async () => {
  ids.push("t-run", "r-run");
  const { agent, hold, reached } = heldAgent();
  const url = await served(agent);
  const stream = await openStream(url, inputFor("t-run", "r-run"));
  await reached.opened;
  expect(total(await probe.points(`${P}runs.live`))).toBe(1);

  hold.open();
  const frames = await framesOf(await stream.rest());
  expect(frames.map((frame) => frame.event.type)).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  const points = await probe.collect(); // without a store the run is over before its last frame is handed out
  expect(total(points.filter((p) => p.name === `${P}runs.live`))).toBe(0);
  const durations = points.filter((p) => p.name === `${P}run.duration`);
  expect(durations).toEqual([expect.objectContaining({ unit: "s", count: 1, attributes: { "agui_rx.run.outcome": "success" } })]);
  expect(durations[0].sum).toBeGreaterThanOrEqual(0);
  expect(total(points.filter((p) => p.name === `${P}events.sent`))).toBe(frames.length);
});

test("a run's RUN_ERROR is recorded as outcome error with its code as error.type", async () => {
  ids.push("t-err", "r-err");
  const url = await served((input) => {
    const { threadId, runId } = input;
    return new Observable<Event>((subscriber) => {
      subscriber.next(ev.runStarted(threadId, runId));
      subscriber.next(ev.runError("no model", { code: "MODEL_DOWN" }));
      subscriber.complete();
    });
  });
  await postJson(url, inputFor("t-err", "r-err"));
  expect(await probe.points(`${P}run.duration`)).toEqual([
    expect.objectContaining({ count: 1, attributes: { "agui_rx.run.outcome": "error", "error.type": "MODEL_DOWN" } }),
  ]);
});

test("an interrupted run and a stopped stored run are recorded as outcomes interrupt and cancelled", async () => {
  ids.push("t-ask", "r-ask", "t-stop", "r-stop");
  const started = gate();
  const agent: Agent = {
    async run(ctx) {
      if (ctx.threadId === "t-ask") return interrupted(ctx.interrupt({ reason: "confirmation" }));
      ctx.assistantMessage().delta("waiting for a stop");
      started.open();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      return success();
    },
  };
  const { url } = await serveStored(agent, { telemetry: { meter: probe.meter } });
  const asked = await framesOf((await postJson(url, inputFor("t-ask", "r-ask"))).text);
  expect(asked[asked.length - 1].event).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "interrupt" } });
  const live = await openStream(url, inputFor("t-stop", "r-stop"));
  await started.opened;
  expect((await postJson(`${url}/stop`, { threadId: "t-stop", runId: "r-stop" })).response.status).toBe(202);
  const stopped = await framesOf(await live.rest());
  expect(stopped[stopped.length - 1].event).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });

  const points = await probe.collectUntil((now) => total(now.filter((p) => p.name === `${P}run.duration`)) === 2, "both runs' ends recorded");
  expect(points.filter((p) => p.name === `${P}run.duration`)).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ count: 1, attributes: { "agui_rx.run.outcome": "interrupt" } }),
      expect.objectContaining({ count: 1, attributes: { "agui_rx.run.outcome": "cancelled" } }),
    ]),
  );
  expect(total(points.filter((p) => p.name === `${P}runs.live`))).toBe(0);
});

test("a connect, then a connect with Last-Event-ID: both timed to their first frame, the second counted as a reconnect", async () => {
  ids.push("t-conn", "r1");
  const store = memoryStore();
  const { url } = await serveStored({ run: async (ctx) => void ctx.say("hello") } satisfies Agent, { store, telemetry: { meter: probe.meter } });
  const run = await postJson(url, inputFor("t-conn", "r1"));
  const logged = await framesOf(run.text);
  expect(logged[logged.length - 1].event.type).toBe("RUN_FINISHED");

  const first = await postJson(`${url}/connect`, { threadId: "t-conn" });
  expect(first.response.headers.get("agui-connect-mode")).toBe("snapshot");
  const cursor = logged[1].id!;
  const again = await postJson(`${url}/connect`, { threadId: "t-conn" }, { "Last-Event-ID": cursor });
  expect(again.response.headers.get("agui-connect-mode")).toBe("resume");
  expect((await framesOf(again.text)).length).toBe(logged.length - 2);

  const points = await probe.collect();
  expect(points.filter((p) => p.name === `${P}reconnects`)).toEqual([expect.objectContaining({ value: 1, attributes: { "agui_rx.connect.mode": "resume" } })]);
  const latency = points.filter((p) => p.name === `${P}connect.duration`);
  expect(latency).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ unit: "s", count: 1, attributes: { "agui_rx.connect.mode": "snapshot", "agui_rx.connect.reconnect": false } }),
      expect.objectContaining({ unit: "s", count: 1, attributes: { "agui_rx.connect.mode": "resume", "agui_rx.connect.reconnect": true } }),
    ]),
  );
  expect(latency).toHaveLength(2);
  // The run's own answer, the snapshot prelude and the resumed frames all went out.
  expect(total(points.filter((p) => p.name === `${P}events.sent`))).toBeGreaterThanOrEqual(logged.length + (await framesOf(first.text)).length);
});

test("a client too slow for the send-buffer cap is counted as a slow_consumer abort", async () => {
  ids.push("t-slow", "r-slow");
  const agent: Agent = {
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < 1000 && !ctx.signal.aborted; i++) message.delta("x".repeat(1000)); // never awaits ctx.ready()
    },
  };
  const url = await served(agent, { maxBufferedBytes: 16 * 1024, highWaterMark: 1_000_000 });
  const { text } = await postJson(url, inputFor("t-slow", "r-slow"));
  const frames = await framesOf(text);
  expect(frames[frames.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: "SLOW_CONSUMER" });
  expect(await probe.points(`${P}stream.aborts`)).toEqual([expect.objectContaining({ value: 1, attributes: { "agui_rx.abort.reason": "slow_consumer" } })]);
});

test("a connect refused past the tail budget (maxTailBytes) is counted as a tail_budget abort", async () => {
  ids.push("t-budget", "r-budget");
  const frames = tailFrames();
  const { url } = await serveStored({ run: async (ctx) => void ctx.say("hello") } satisfies Agent, {
    tailFrames: frames,
    maxTailBytes: 10,
    telemetry: { meter: probe.meter },
  });
  const logged = await framesOf((await postJson(url, inputFor("t-budget", "r-budget"))).text);
  const held = frames.take(logged[1].event, logged[1].id); // a reader that does not read holds it: past the budget of 10 bytes
  const refused = await postJson(`${url}/connect`, { threadId: "t-budget" });
  expect(refused.response.status).toBe(503);
  frames.release(held);
  expect(await probe.points(`${P}stream.aborts`)).toEqual([expect.objectContaining({ value: 1, attributes: { "agui_rx.abort.reason": "tail_budget" } })]);
});

test("a store that refuses: its failure is counted by StoreError code, and the client gets the 503", async () => {
  ids.push("t-down", "r-down");
  const real = memoryStore();
  const refusing: ThreadStore = Object.assign(Object.create(real) as ThreadStore, {
    beginRun: () => Promise.reject(new StoreError("unavailable", "expected Redis to answer, but the connection is down")),
  });
  const url = await served({ run: async (ctx) => void ctx.say("never") } satisfies Agent, { store: refusing });
  const { response } = await postJson(url, inputFor("t-down", "r-down"));
  expect(response.status).toBe(503);
  expect(await probe.points(`${P}store.errors`)).toEqual([expect.objectContaining({ value: 1, attributes: { "error.type": "unavailable" } })]);
});

test("a run the store bounds (maxRunBytes) is counted as a run_too_large abort and a store error, its run as error RUN_TOO_LARGE", async () => {
  ids.push("t-big", "r-big");
  const agent: Agent = {
    async run(ctx) {
      const message = ctx.assistantMessage();
      for (let i = 0; i < 200 && !ctx.signal.aborted; i++) {
        await ctx.ready();
        message.delta("y".repeat(1000));
      }
      message.end();
    },
  };
  const { url } = await serveStored(agent, { store: memoryStore({ maxRunBytes: 20_000 }), telemetry: { meter: probe.meter } });
  const frames = await framesOf((await postJson(url, inputFor("t-big", "r-big"))).text);
  expect(frames[frames.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: "RUN_TOO_LARGE" });
  const points = await probe.collectUntil((now) => now.some((p) => p.name === `${P}run.duration`), "the run's end recorded");
  expect(
    total(
      points.filter((p) => p.name === `${P}stream.aborts`),
      { "agui_rx.abort.reason": "run_too_large" },
    ),
  ).toBe(1);
  expect(
    total(
      points.filter((p) => p.name === `${P}store.errors`),
      { "error.type": "run-too-large" },
    ),
  ).toBe(1);
  expect(points.filter((p) => p.name === `${P}run.duration`)).toEqual([
    expect.objectContaining({ count: 1, attributes: { "agui_rx.run.outcome": "error", "error.type": "RUN_TOO_LARGE" } }),
  ]);
});

test("a queued message counts as waiting until its run starts", async () => {
  ids.push("t", "q1", "q2");
  const { agent, script } = scriptedAgent();
  const { url } = await serveStored(agent, { telemetry: { meter: probe.meter } });
  const first = await post(url, sendInput("q1", "hold"));
  await script.reached("q1");
  const waiting = await post(url, sendInput("q2", "after", "queue"));
  await waiting.until(noticeOf("queued"));
  expect(await probe.points(`${P}queue.waiting`)).toEqual([expect.objectContaining({ value: 1, attributes: { "agui_rx.queue.policy": "queue" } })]);

  script.release("q1");
  await first.rest();
  await waiting.rest();
  expect(total(await probe.points(`${P}queue.waiting`))).toBe(0);
});

test("the gauges: batches pending at a store that has not answered yet, and the bytes the handler's tail pool holds", async () => {
  ids.push("t-gauge", "r-gauge");
  const frames = tailFrames();
  // A real memory store whose appends wait for the test: the run's batches are at the store meanwhile.
  const real = memoryStore();
  const answer = gate();
  const slow: ThreadStore = Object.assign(Object.create(real) as ThreadStore, {
    beginRun: async (...args: Parameters<ThreadStore["beginRun"]>) => {
      const writer = await real.beginRun(...args);
      return Object.assign(Object.create(writer) as RunWriter, {
        append: async (events: Parameters<RunWriter["append"]>[0]) => {
          await answer.opened;
          return writer.append(events);
        },
      });
    },
  });
  const { url } = await serveStored({ run: async (ctx) => void ctx.say("hello") } satisfies Agent, {
    store: slow as MemoryStore,
    tailFrames: frames,
    telemetry: { meter: probe.meter },
  });
  const run = await openStream(url, inputFor("t-gauge", "r-gauge"));
  const held = await probe.collectUntil((now) => total(now.filter((p) => p.name === `${P}store.pending_appends`)) === 1, "one batch pending");
  expect(held.filter((p) => p.name === `${P}store.pending_appends`)).toEqual([expect.objectContaining({ unit: "{batch}", kind: "GAUGE", value: 1 })]);
  answer.open();
  const logged = await framesOf(await run.rest());
  expect(logged[logged.length - 1].event.type).toBe("RUN_FINISHED");
  await probe.collectUntil((now) => total(now.filter((p) => p.name === `${P}store.pending_appends`)) === 0, "no batch pending");

  // What the handler's pool holds for its tails is what the gauge reports (a frame held as an unread tail holds it).
  const frame = frames.take(logged[1].event, logged[1].id);
  const queued = await probe.points(`${P}tails.queued_bytes`);
  expect(queued).toEqual([expect.objectContaining({ unit: "By", kind: "GAUGE", value: frame.bytes.byteLength })]);
  frames.release(frame);
  expect(await probe.points(`${P}tails.queued_bytes`)).toEqual([expect.objectContaining({ value: 0 })]);
});

test("with the globally registered provider: a handler made before the SDK registered records into it", async () => {
  ids.push("t-global", "r-global");
  const server = await serve(createHandler({ run: async (ctx) => void ctx.say("hi") } satisfies Agent)); // made first
  closers.push(() => server.close());
  metrics.setGlobalMeterProvider(probe.provider);
  await postJson(`${server.url}agent`, inputFor("t-global", "r-global"));
  expect(await probe.points(`${P}run.duration`)).toEqual([expect.objectContaining({ count: 1 })]);
});

test("meter: false records nothing, and a meter that throws never fails a run", async () => {
  ids.push("t-off", "r-off", "t-broken", "r-broken");
  metrics.setGlobalMeterProvider(probe.provider);
  const off = await served({ run: async (ctx) => void ctx.say("quiet") } satisfies Agent, { telemetry: { meter: false } });
  const quiet = await framesOf((await postJson(off, inputFor("t-off", "r-off"))).text);
  expect(quiet[quiet.length - 1].event.type).toBe("RUN_FINISHED");
  expect((await probe.collect()).filter((p) => p.name.startsWith(P))).toEqual([]);

  const broken: OtelMeter = new Proxy(probe.meter, {
    get: () => () => {
      throw new Error("a broken SDK");
    },
  });
  const url = await served({ run: async (ctx) => void ctx.say("still here") } satisfies Agent, { telemetry: { meter: broken } });
  const frames = await framesOf((await postJson(url, inputFor("t-broken", "r-broken"))).text);
  expect(frames[frames.length - 1].event.type).toBe("RUN_FINISHED");
});
