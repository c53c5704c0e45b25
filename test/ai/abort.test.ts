/**
 * Abort: the client going away aborts `ctx.signal`, which aborts the model call (the mock's stream
 * sees its abort signal mid-stream), and the run ends the way the driver ends every cancelled run:
 * nothing more is emitted. An abort from anywhere else is a RUN_ERROR coded MODEL_ABORTED.
 */
import { MockLanguageModelV4 } from "ai/test";
import { Subject } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { run, type Agent } from "../../src/server";
import { aiAgent, MODEL_ABORTED_CODE } from "../../src/ai";
import { within } from "../http/loopback";
import { collect, expectAccepted } from "../server/support";
import type { ModelPart } from "./support";

const input = runAgentInput("thread-1", "run-1", { messages: [{ id: "u1", role: "user", content: "Tell me a long story." }] });

/**
 * A model that streams a text start and one delta, then waits for more until its abort signal
 * fires; `streaming` resolves when its stream started, `aborted` with the reason the stream saw.
 */
function hangingModel() {
  let sawAbort: (reason: unknown) => void = () => undefined;
  const aborted = new Promise<unknown>((resolve) => {
    sawAbort = resolve;
  });
  let started: () => void = () => undefined;
  const streaming = new Promise<void>((resolve) => {
    started = resolve;
  });
  const model = new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<ModelPart>({
        start(controller) {
          controller.enqueue({ type: "text-start", id: "txt-0" });
          controller.enqueue({ type: "text-delta", id: "txt-0", delta: "Once upon a time" });
          started();
          abortSignal?.addEventListener("abort", () => {
            sawAbort(abortSignal.reason);
            controller.error(abortSignal.reason);
          });
        },
      }),
    }),
  });
  return { model, aborted, streaming };
}

/** `agent`, plus a promise that settles with how its `run` settled (the driver swallows it after an abort). */
function observed(agent: Agent): { agent: Agent; settled: Promise<{ ok: boolean; value: unknown }> } {
  let settle: (outcome: { ok: boolean; value: unknown }) => void = () => undefined;
  const settled = new Promise<{ ok: boolean; value: unknown }>((resolve) => {
    settle = resolve;
  });
  return {
    agent: {
      run: (ctx) => {
        const running = agent.run(ctx);
        running.then(
          (value) => settle({ ok: true, value }),
          (value: unknown) => settle({ ok: false, value }),
        );
        return running;
      },
    },
    settled,
  };
}

test("unsubscribing mid-stream aborts the model's stream through ctx.signal, and nothing more is emitted", async () => {
  const { model, aborted } = hangingModel();
  const { agent, settled } = observed(aiAgent({ model }));
  const seen: Event[] = [];
  const firstDelta = new Subject<void>();
  const subscription = run(agent, input).subscribe({
    next: (event) => {
      seen.push(event);
      if (event.type === "TEXT_MESSAGE_CONTENT") firstDelta.next();
    },
    error: (error) => seen.push({ type: "RUN_ERROR", message: `unexpected error: ${String(error)}` }),
  });
  await within(5_000, new Promise<void>((resolve) => firstDelta.subscribe(() => resolve())), "the first text delta");
  subscription.unsubscribe();
  const reason = await within(5_000, aborted, "the model's stream to see its abort signal");
  expect(model.doStreamCalls[0].abortSignal?.aborted).toBe(true);
  expect(reason).toMatchObject({ name: "AbortError" }); // the driver's own abort reason, passed on by the SDK
  // The agent's run rejects with that reason once the SDK has wound down; the driver sends nothing for it.
  expect(await within(5_000, settled, "the agent's run to settle")).toEqual({ ok: false, value: reason });
  expect(seen.map((e) => e.type)).toEqual(["RUN_STARTED", "STEP_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);
});

test("an abort that is not the run's (a signal prepare added) ends the run with RUN_ERROR MODEL_ABORTED", async () => {
  const { model, aborted, streaming } = hangingModel();
  const own = new AbortController();
  const agent = aiAgent({
    model,
    prepare: (_ctx, call) => ({ ...call, abortSignal: own.signal }),
  });
  const events$ = run(agent, input);
  const collected = collect(events$);
  await within(5_000, streaming, "the model's stream to start");
  own.abort(new Error("the user pressed stop"));
  await within(5_000, aborted, "the model's stream to see its abort signal");
  const events = await within(5_000, collected, "the run to end");
  expect(events.at(-1)).toEqual({ type: "RUN_ERROR", message: "the model call was aborted: Error: the user pressed stop", code: MODEL_ABORTED_CODE });
  await expectAccepted(events);
});

test("a signal prepare adds does not cut the run's own: the client going away still aborts the model call", async () => {
  const { model, aborted, streaming } = hangingModel();
  const own = new AbortController();
  const { agent, settled } = observed(aiAgent({ model, prepare: (_ctx, call) => ({ ...call, abortSignal: own.signal }) }));
  const subscription = run(agent, input).subscribe();
  await within(5_000, streaming, "the model's stream to start");
  subscription.unsubscribe();
  await within(5_000, aborted, "the model's stream to see its abort signal");
  expect(own.signal.aborted).toBe(false);
  expect(await within(5_000, settled, "the agent's run to settle")).toMatchObject({ ok: false, value: { name: "AbortError" } });
});
