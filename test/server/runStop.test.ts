/** The driver's stop (RunAgentOptions.stop, what POST /stop reaches): the run's own end, RUN_FINISHED cancelled, as opposed to an unsubscription. */
import { lastValueFrom, Observable, toArray } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { run, sequentialIds, success, type Agent, type RunContext } from "../../src/server";
import { expectAccepted, types } from "./support";

const input = runAgentInput("t", "r");

/** An agent that opens a step, a subagent with a message, and a tool call, reports usage, then waits until its signal aborts. */
function parkedAgent(seen: { signal?: AbortSignal; lateWrite?: unknown; parked: () => void }): Agent {
  return {
    async run(ctx: RunContext) {
      seen.signal = ctx.signal;
      ctx.reportUsage({ inputTokens: 3, outputTokens: 5 });
      ctx.step("research");
      const sub = ctx.subagent("researcher");
      sub.assistantMessage().delta("Half a senten");
      ctx.toolCall("search").args('{"q":');
      seen.parked();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      try {
        ctx.say("too late");
      } catch (error) {
        seen.lateWrite = error;
      }
      return success();
    },
  };
}

test("a stop closes what is open, innermost first, ends RUN_FINISHED cancelled with the usage, then aborts ctx.signal", async () => {
  const stop = new AbortController();
  const reason = new DOMException("stopped by the user", "AbortError");
  const seen: { signal?: AbortSignal; lateWrite?: unknown; parked: () => void } = { parked: () => queueMicrotask(() => stop.abort(reason)) };
  const events = await lastValueFrom(run(parkedAgent(seen), input, { ids: sequentialIds("x"), stop: stop.signal }).pipe(toArray()));
  expect(types(events)).toEqual([
    "RUN_STARTED",
    "STEP_STARTED",
    "SUBAGENT_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TOOL_CALL_START",
    "TOOL_CALL_ARGS",
    "TOOL_CALL_END",
    "TEXT_MESSAGE_END",
    "SUBAGENT_FINISHED",
    "STEP_FINISHED",
    "RUN_FINISHED",
  ]);
  expect(events[events.length - 1]).toEqual({
    type: "RUN_FINISHED",
    threadId: "t",
    runId: "r",
    outcome: { type: "cancelled" },
    usage: [{ inputTokens: 3, outputTokens: 5 }],
  });
  await expectAccepted(events);
  expect(seen.signal?.aborted).toBe(true);
  expect(seen.signal?.reason).toBe(reason);
  await Promise.resolve(); // the agent's await resumes; its late write throws the reason and sends nothing
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(seen.lateWrite).toBe(reason);
});

test("a stop given already aborted ends the run at once, without calling the agent", async () => {
  let called = false;
  const agent: Agent = {
    async run() {
      called = true;
      return success();
    },
  };
  const stop = AbortSignal.abort();
  const events = await lastValueFrom(run(agent, input, { stop }).pipe(toArray()));
  expect(types(events)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect(events[1]).toMatchObject({ outcome: { type: "cancelled" } });
  expect(called).toBe(false);
});

test("a stop after the terminal event changes nothing", async () => {
  const stop = new AbortController();
  const events = await lastValueFrom(run({ run: async (ctx) => void ctx.say("done") }, input, { stop: stop.signal }).pipe(toArray()));
  stop.abort();
  expect(types(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  expect(events[4]).toMatchObject({ outcome: { type: "success" } });
});

test("unsubscribing is not a stop: the consumer is gone, nothing more is emitted (signal), while a stop ends the log", async () => {
  const signal = new AbortController();
  const received: Event[] = [];
  let failure: unknown;
  const seen: { signal?: AbortSignal; lateWrite?: unknown; parked: () => void } = {
    parked: () => queueMicrotask(() => signal.abort(new Error("client gone"))),
  };
  await new Promise<void>((resolve) =>
    run(parkedAgent(seen), input, { signal: signal.signal }).subscribe({
      next: (event) => received.push(event),
      error: (error: unknown) => {
        failure = error;
        resolve();
      },
    }),
  );
  expect(received.some((event) => event.type === "RUN_FINISHED")).toBe(false);
  expect(failure).toMatchObject({ message: "client gone" });
  expect(seen.signal?.aborted).toBe(true);
});

test("a synchronous consumer that unsubscribes during the stop's events stops receiving them", () => {
  const stop = new AbortController();
  const seen: { signal?: AbortSignal; lateWrite?: unknown; parked: () => void } = { parked: () => undefined };
  const received: string[] = [];
  return new Promise<void>((resolve) => {
    const subscription = new Observable<Event>((subscriber) => run(parkedAgent(seen), input, { stop: stop.signal }).subscribe(subscriber)).subscribe(
      (event) => {
        received.push(event.type);
        if (event.type === "TOOL_CALL_ARGS") {
          // parked: stop, and leave at the first closing event
          queueMicrotask(() => stop.abort());
        }
        if (event.type === "TOOL_CALL_END") {
          subscription.unsubscribe();
          resolve();
        }
      },
    );
  }).then(() => {
    expect(received.slice(-2)).toEqual(["TOOL_CALL_ARGS", "TOOL_CALL_END"]);
    expect(seen.signal?.aborted).toBe(true);
  });
});

test("a consumer that lets go on seeing the terminal event (as recordRun does) does not abort ctx.signal: the run is over, not cancelled", async () => {
  let signal: AbortSignal | undefined;
  const agent: Agent = {
    async run(ctx) {
      signal = ctx.signal;
      ctx.say("done");
      return success();
    },
  };
  await new Promise<void>((resolve) => {
    const subscription = run(agent, input).subscribe((event) => {
      if (event.type === "RUN_FINISHED") {
        subscription.unsubscribe();
        resolve();
      }
    });
  });
  expect(signal?.aborted).toBe(false);
});
