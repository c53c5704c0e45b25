/** The driver `run()` used directly traces its run (docs/observability.md#traces): the run span is the agent's active context. */
import { context, trace } from "@opentelemetry/api";
import { lastValueFrom, toArray } from "rxjs";
import { success, type Agent } from "../../../src/server/Agent";
import { run } from "../../../src/server/run";
import { sequentialIds, type IdSource } from "../../../src/server/ids";
import { runTraceOf } from "../../../src/protocol/runTraceMeta";
import { registerTracing, unregisterTracing, type Recorded } from "./tracing";

const input = { threadId: "t1", runId: "r1", messages: [{ id: "u1", role: "user" as const, content: "hi" }], tools: [], context: [] };

let otel: Recorded;
beforeEach(() => {
  otel = registerTracing();
});
afterEach(() => unregisterTracing());

test("spans the agent starts inside run() are children of invoke_agent, also after an await", async () => {
  const agent: Agent = {
    name: "greeter",
    async run(ctx) {
      trace.getTracer("app").startSpan("before-await").end();
      await new Promise((resolve) => setImmediate(resolve));
      trace.getTracer("app").startSpan("after-await").end();
      ctx.say("Hello.");
      return success();
    },
  };
  const events = await lastValueFrom(run(agent, input).pipe(toArray()));
  const runSpan = otel.one("invoke_agent greeter");
  expect(otel.parentOf(otel.one("before-await"))).toBe(runSpan);
  expect(otel.parentOf(otel.one("after-await"))).toBe(runSpan);
  expect(runSpan.attributes).toMatchObject({
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "greeter",
    "gen_ai.conversation.id": "t1",
    "agui_rx.run.id": "r1",
    "agui_rx.run.outcome": "success",
    "agui_rx.run.resumed": false,
    "agui_rx.run.events": events.length,
  });
  expect(runTraceOf(events[0]?.metadata)).toEqual({ traceId: runSpan.spanContext().traceId, spanId: runSpan.spanContext().spanId });
});

test("run() with traceContext parents its run span there; with a tracer that throws it runs exactly as untraced", async () => {
  const parentSpan = trace.getTracer("app").startSpan("caller");
  const parent = trace.setSpan(context.active(), parentSpan);
  const greeter: Agent = { name: "greeter", run: async (ctx) => (ctx.say("Hi."), success()) };
  await lastValueFrom(run(greeter, input, { traceContext: parent }).pipe(toArray()));
  parentSpan.end();
  expect(otel.parentOf(otel.one("invoke_agent greeter"))).toBe(otel.one("caller"));

  const throwing = {
    startSpan: (): never => {
      throw new Error("tracer down");
    },
  };
  const ids = (): IdSource => sequentialIds("id");
  const untraced = await lastValueFrom(run(greeter, input, { ids: ids(), telemetry: { tracer: false } }).pipe(toArray()));
  const broken = await lastValueFrom(run(greeter, input, { ids: ids(), telemetry: { tracer: throwing } }).pipe(toArray()));
  expect(broken).toEqual(untraced);
});

test("a consumer that leaves before the terminal event ends the run span cancelled, with the steps it left open", async () => {
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const waiting: Agent = {
    name: "waiting",
    async run(ctx) {
      ctx.step("think");
      entered();
      await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
      return success();
    },
  };
  const subscription = run(waiting, input).subscribe({ error: () => undefined });
  await inside;
  subscription.unsubscribe();
  expect(otel.one("invoke_agent waiting").attributes["agui_rx.run.outcome"]).toBe("cancelled");
  expect(otel.parentOf(otel.one("step think"))).toBe(otel.one("invoke_agent waiting"));
});
