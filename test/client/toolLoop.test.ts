/**
 * The client-tool loop in Session, against real agents under the real driver (inProcessTransport):
 * the follow-up run, run boundaries and one `done`, concurrency and order, the round-trip bound,
 * decode failures, throws, aborts, interrupts, tools the session does not know, the fallback
 * without pendingToolCallIds, and the running calls a view answers (`respond`).
 */
import * as t from "io-ts";
import { filter, firstValueFrom, Observable } from "rxjs";
import { Session, type SessionOptions } from "../../src/client/Session";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import type { Transport } from "../../src/client/transports/Transport";
import { clientTool } from "../../src/client/tools/clientTool";
import { waitForResponse } from "../../src/client/tools/waitForResponse";
import type { Update } from "../../src/thread/Update";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput, Tool } from "../../src/protocol/input";
import type { ToolMessage } from "../../src/protocol/messages";
import { interrupted, type Agent } from "../../src/server/Agent";
import { run } from "../../src/server/run";
import { collect, counter, endOf, errorsOf, expectRunEndContract, kinds } from "./support";

/** A transport running `agent` in process that records every input (the follow-up runs' too). */
class RecordingTransport implements Transport {
  readonly inputs: RunAgentInput[] = [];
  constructor(private readonly agent: Agent) {}
  run(input: RunAgentInput): Observable<Event> {
    this.inputs.push(input);
    return inProcessTransport(this.agent).run(input);
  }
}

/** Asks for `get_local_time` once per user message, then says what came back. */
const clockAgent: Agent = {
  async run(ctx) {
    const [answer] = ctx.lastToolResults;
    if (answer === undefined || !ctx.messages.slice(-1).some((m) => m.role === "tool")) {
      const intro = ctx.say("Let me look at your clock.");
      ctx.toolCall("get_local_time", { parentMessageId: intro }).argsJson({ format: "24h" }).end();
      return;
    }
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
    ctx.say(answer.error === undefined ? `It is ${String(answer.content)}.` : `No clock: ${answer.error}`);
  },
};

const getLocalTime = clientTool({
  name: "get_local_time",
  description: "The user's local time",
  parameters: t.type({ format: t.keyof({ "24h": null, "12h": null }) }),
  execute: ({ format }) => (format === "24h" ? "14:05" : "2:05 PM"),
});

function sessionOf(agent: Agent, options: Partial<SessionOptions<unknown>> = {}) {
  const transport = new RecordingTransport(agent);
  const session = new Session(transport, { threadId: "thread-1", newId: counter(), tools: [getLocalTime], ...options });
  return { session, transport };
}

const toolMessages = (session: Session<unknown>) => session.messages.filter((m): m is ToolMessage => m.role === "tool");
const said = (session: Session<unknown>) => session.messages.flatMap((m) => (m.role === "assistant" && typeof m.content === "string" ? [m.content] : []));
/** Resolves once `count` client calls are running (what a view waits for before it answers). */
const whenRunning = (session: Session<unknown>, count: number) => firstValueFrom(session.runningToolCalls$.pipe(filter((calls) => calls.length === count)));

describe("the loop: execute, append, follow up", () => {
  it("executes the call the run left, appends its tool message and starts the follow-up run in the same subscription", async () => {
    const { session, transport } = sessionOf(clockAgent);
    const updates = await collect(session.send("what time is it?"));
    expectRunEndContract(updates);
    expect(endOf(updates)).toEqual({ kind: "success" });
    expect(transport.inputs).toHaveLength(2);
    expect(said(session)).toEqual(["Let me look at your clock.", "It is 14:05."]);
    const [answer] = toolMessages(session);
    expect(answer).toMatchObject({ role: "tool", content: "14:05" });

    // The boundary: the tool result, then the `run` update, then the follow-up run's updates.
    const boundary = updates.findIndex((u) => u.kind === "run");
    expect(updates[boundary - 1]).toEqual({
      kind: "message",
      index: session.messages.indexOf(answer),
      id: answer.id,
      change: { kind: "toolResult", toolCallId: answer.toolCallId },
      message: answer,
    });
    const runUpdate = updates[boundary];
    const firstCall = transport.inputs[0];
    expect(runUpdate).toEqual({
      kind: "run",
      runId: transport.inputs[1].runId,
      roundtrip: 1,
      previousEnd: { kind: "success", pendingToolCallIds: [answer.toolCallId] },
      toolCallIds: [answer.toolCallId],
    });
    expect(kinds(updates).filter((k) => k === "run")).toHaveLength(1);
    // The follow-up run is an ordinary run: a new run id, the tool message in its input, the same tools, no resume.
    const followUp = transport.inputs[1];
    expect(followUp.runId).not.toBe(firstCall.runId);
    expect(followUp.messages.at(-1)).toEqual(answer);
    expect(followUp.tools).toEqual(firstCall.tools);
    expect(followUp.resume).toBeUndefined();
  });

  it("sends the client tools' JSON Schemas on the wire, beside plain tools as they are", async () => {
    const openUrl: Tool = { name: "open_url", description: "Opens a page", parameters: { type: "object", properties: { url: { type: "string" } } } };
    const { session, transport } = sessionOf(
      {
        async run(ctx) {
          ctx.say("hi");
        },
      },
      { tools: [openUrl, getLocalTime] },
    );
    await collect(session.send("hi"));
    expect(transport.inputs[0].tools).toEqual([
      openUrl,
      {
        name: "get_local_time",
        description: "The user's local time",
        parameters: { type: "object", properties: { format: { type: "string", enum: ["24h", "12h"] } }, required: ["format"] },
      },
    ]);
  });

  it("stays running for the whole exchange: running$ goes true once and false once, at the one done", async () => {
    const { session } = sessionOf(clockAgent);
    const running: boolean[] = [];
    const watch = session.running$.subscribe((value) => running.push(value));
    const updates = await collect(session.send("time?"));
    watch.unsubscribe();
    expect(running).toEqual([false, true, false]);
    expect(updates.filter((u) => u.kind === "done")).toHaveLength(1);
  });

  it("resume() covers its follow-up runs too, and the follow-up carries no resume", async () => {
    const agent: Agent = {
      async run(ctx) {
        if (!ctx.isResume && ctx.lastToolResults.length === 0) {
          return interrupted(ctx.interrupt({ id: "ok-1", reason: "confirmation", message: "Go on?" }));
        }
        if (ctx.isResume) {
          const intro = ctx.say("Approved; checking the clock.");
          ctx.toolCall("get_local_time", { parentMessageId: intro }).argsJson({ format: "12h" }).end();
          return;
        }
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
        ctx.say(`Done at ${String(ctx.lastToolResults[0]?.content)}.`);
      },
    };
    const { session, transport } = sessionOf(agent);
    expect(endOf(await collect(session.send("go")))).toMatchObject({ kind: "interrupted" });
    const updates = await collect(session.resume([{ interruptId: "ok-1", status: "resolved" }]));
    expectRunEndContract(updates);
    expect(endOf(updates)).toEqual({ kind: "success" });
    expect(transport.inputs.map((input) => input.resume?.length ?? 0)).toEqual([0, 1, 0]);
    expect(said(session).at(-1)).toBe("Done at 2:05 PM.");
  });
});

describe("calls of one assistant message", () => {
  const twoLookups: Agent = {
    async run(ctx) {
      if (ctx.lastToolResults.length > 0) {
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
        ctx.say(ctx.lastToolResults.map((m) => String(m.content)).join(" + "));
        return;
      }
      const intro = ctx.say("Looking up both.");
      ctx.toolCall("lookup", { id: "call-a", parentMessageId: intro }).argsJson({ q: "a" }).end();
      ctx.toolCall("lookup", { id: "call-b", parentMessageId: intro }).argsJson({ q: "b" }).end();
    },
  };
  const lookup = clientTool({ name: "lookup", description: "Asks the user", parameters: t.type({ q: t.string }), result: t.string, execute: waitForResponse });

  it("run concurrently (every call of the turn is running at once) and their results keep the calls' order", async () => {
    const { session, transport } = sessionOf(twoLookups, { tools: [lookup] });
    const done = collect(session.send("both"));
    const running = await whenRunning(session, 2);
    expect(running.map((call) => [call.toolCallId, call.toolName, call.args])).toEqual([
      ["call-a", "lookup", { q: "a" }],
      ["call-b", "lookup", { q: "b" }],
    ]);
    running[1].respond("B"); // the second settles first…
    await whenRunning(session, 1);
    expect(toolMessages(session)).toEqual([]); // …and waits for the first
    running[0].respond("A");
    const updates = await done;
    expect(toolMessages(session).map((m) => [m.toolCallId, m.content])).toEqual([
      ["call-a", "A"],
      ["call-b", "B"],
    ]);
    const results = updates.flatMap((u) => (u.kind === "message" && u.change.kind === "toolResult" && u.message.role === "tool" ? [u.change.toolCallId] : []));
    expect(results).toEqual(["call-a", "call-b"]);
    expect(transport.inputs).toHaveLength(2);
    expect(said(session).at(-1)).toBe("A + B");
    expect(session.runningToolCalls).toEqual([]);
  });

  it("respond counts once: a second answer, or one after the call settled, changes nothing", async () => {
    const { session } = sessionOf(twoLookups, { tools: [lookup] });
    const done = collect(session.send("both"));
    const [a, b] = await whenRunning(session, 2);
    a.respond("first");
    a.respond("second");
    b.respond("B");
    await done;
    a.respond("late");
    expect(toolMessages(session).map((m) => m.content)).toEqual(["first", "B"]);
  });
});

describe("bounds", () => {
  /** Calls the tool in every run, forever. */
  const insatiable: Agent = {
    async run(ctx) {
      const intro = ctx.say(`Run ${ctx.runId}.`);
      ctx.toolCall("get_local_time", { parentMessageId: intro }).argsJson({ format: "24h" }).end();
    },
  };

  it("stops after maxToolRoundtrips follow-up runs (5 by default): error tool-roundtrips, done failed, the last calls not executed", async () => {
    const { session, transport } = sessionOf(insatiable);
    const updates = await collect(session.send("loop"));
    expectRunEndContract(updates);
    expect(transport.inputs).toHaveLength(6);
    expect(kinds(updates).filter((k) => k === "run")).toHaveLength(5);
    expect(updates.flatMap((u) => (u.kind === "run" ? [u.roundtrip] : []))).toEqual([1, 2, 3, 4, 5]);
    const [error] = errorsOf(updates);
    expect(error).toMatchObject({ kind: "tool", code: "tool-roundtrips" });
    expect(error.message).toBe(
      "expected at most 5 follow-up runs per exchange (maxToolRoundtrips), but run 6 of the exchange left 1 more client tool call (get_local_time); they were not executed",
    );
    expect(endOf(updates)).toEqual({ kind: "failed", message: error.message, code: "tool-roundtrips" });
    expect(toolMessages(session)).toHaveLength(5); // the sixth run's call has no answer
    expect(session.running).toBe(false);
  });

  it("takes the bound per session and per run; 0 executes nothing", async () => {
    const perSession = sessionOf(insatiable, { maxToolRoundtrips: 0 });
    const none = await collect(perSession.session.send("loop"));
    expect(endOf(none)).toMatchObject({ kind: "failed", code: "tool-roundtrips" });
    expect(errorsOf(none)[0].message).toContain("expected at most 0 follow-up runs");
    expect(toolMessages(perSession.session)).toEqual([]);
    expect(perSession.transport.inputs).toHaveLength(1);

    const perRun = sessionOf(insatiable);
    await collect(perRun.session.send("loop", { maxToolRoundtrips: 2 }));
    expect(perRun.transport.inputs).toHaveLength(3);
  });

  it("refuses a bound that is not a whole number of runs: the constructor throws, a run is refused before anything is appended", async () => {
    expect(() => new Session(new RecordingTransport(insatiable), { threadId: "t", maxToolRoundtrips: -1 })).toThrow(
      "expected maxToolRoundtrips to be a whole number of runs, 0 or more, but got -1",
    );
    const { session, transport } = sessionOf(insatiable);
    const updates = await collect(session.send("loop", { maxToolRoundtrips: 1.5 }));
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "config", message: "expected maxToolRoundtrips to be a whole number of runs, 0 or more, but got 1.5" });
    expect(endOf(updates).kind).toBe("failed");
    expect(session.messages).toEqual([]);
    expect(transport.inputs).toEqual([]);
  });

  it("refuses tools with one name twice, at construction and per run", async () => {
    expect(() => new Session(new RecordingTransport(insatiable), { threadId: "t", tools: [getLocalTime, getLocalTime] })).toThrow(
      'expected tool names to be unique, but "get_local_time" is offered twice',
    );
    const { session } = sessionOf(insatiable);
    const updates = await collect(session.send("x", { tools: [getLocalTime, { name: "get_local_time", description: "again" }] }));
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "config" });
    expect(errorsOf(updates)[0].message).toContain('"get_local_time" is offered twice');
    expect(session.messages).toEqual([]);
  });
});

describe("failures are results, and the session never crashes", () => {
  it("arguments that do not decode never reach execute: the model reads the failure in the follow-up run", async () => {
    const execute = jest.fn(() => "never");
    const strict = clientTool({ name: "get_local_time", description: "clock", parameters: t.type({ format: t.literal("iso") }), execute });
    const { session, transport } = sessionOf(clockAgent, { tools: [strict] });
    const updates = await collect(session.send("time?"));
    expect(endOf(updates)).toEqual({ kind: "success" });
    expect(execute).not.toHaveBeenCalled();
    expect(errorsOf(updates)).toEqual([]); // the model's mistake, which its error result lets it correct: nothing for the application
    const [answer] = toolMessages(session);
    expect(answer.error).toBe('invalid arguments for "get_local_time" at /format: expected "iso", but got "24h"');
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
    expect(JSON.parse(String(answer.content))).toEqual({ error: answer.error });
    expect(transport.inputs).toHaveLength(2);
    expect(said(session).at(-1)).toBe(`No clock: ${answer.error}`);
  });

  it("a throw in execute becomes an error result, and the exchange goes on", async () => {
    const broken = clientTool({
      name: "get_local_time",
      description: "clock",
      parameters: t.type({ format: t.string }),
      execute: () => {
        throw new Error("the clock is unplugged");
      },
    });
    const { session } = sessionOf(clockAgent, { tools: [broken] });
    const updates = await collect(session.send("time?"));
    expectRunEndContract(updates);
    expect(endOf(updates)).toEqual({ kind: "success" });
    // the model reads the error result, and the application hears the failure: an error update (kind tool) right after the call's result
    const [error] = errorsOf(updates);
    expect(errorsOf(updates)).toHaveLength(1);
    expect(error).toMatchObject({ kind: "tool", code: "execute-failed", cause: { code: "execute-failed", toolName: "get_local_time" } });
    expect(error.message).toContain("the clock is unplugged");
    const resultAt = updates.findIndex((update) => update.kind === "message" && update.change.kind === "toolResult");
    expect(updates[resultAt + 1]).toEqual({ kind: "error", error });
    expect(updates[resultAt + 2]).toMatchObject({ kind: "run", roundtrip: 1 });
    expect(said(session).at(-1)).toBe("No clock: the clock is unplugged");
  });

  it("a result with no JSON form is answered as an error result and heard as an error update (invalid-result)", async () => {
    const bigint = clientTool({ name: "get_local_time", description: "clock", parameters: t.type({ format: t.string }), execute: () => ({ now: BigInt(1) }) });
    const { session } = sessionOf(clockAgent, { tools: [bigint] });
    const updates = await collect(session.send("time?"));
    expectRunEndContract(updates);
    expect(errorsOf(updates).map((error) => [error.kind, error.code])).toEqual([["tool", "invalid-result"]]);
    expect(toolMessages(session)[0].error).toContain("cannot be sent");
  });

  it("a follow-up run that fails ends the exchange failed, with its error before the one done", async () => {
    const agent: Agent = {
      async run(ctx) {
        if (ctx.lastToolResults.length > 0) throw new Error("the model is down");
        ctx.toolCall("get_local_time").argsJson({ format: "24h" }).end();
      },
    };
    const { session } = sessionOf(agent);
    const updates = await collect(session.send("time?"));
    expectRunEndContract(updates);
    expect(kinds(updates)).toContain("run");
    expect(endOf(updates)).toMatchObject({ kind: "failed", message: "the model is down" });
  });

  it("a newId that throws while the loop needs one ends the exchange with a tool-loop error", async () => {
    let ids = 0;
    const newId = () => {
      ids++;
      if (ids > 2) throw new Error("out of ids");
      return `id-${ids}`;
    };
    const { session } = sessionOf(clockAgent, { newId });
    const updates = await collect(session.send("time?")); // id-1: the user message, id-2: the run; the tool message's id throws
    expectRunEndContract(updates);
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "tool", code: "tool-loop", message: "the client-tool loop failed: out of ids" });
    expect(session.running).toBe(false);
  });
});

describe("unsubscribing", () => {
  it("aborts the signal of a running execute, appends nothing and starts no follow-up run", async () => {
    let seen: AbortSignal | undefined;
    const slow = clientTool({
      name: "get_local_time",
      description: "clock",
      parameters: t.type({ format: t.string }),
      execute: (_args, { signal }) => {
        seen = signal;
        return new Promise<string>(() => undefined);
      },
    });
    const { session, transport } = sessionOf(clockAgent, { tools: [slow] });
    const updates: Update[] = [];
    const subscription = session.send("time?").subscribe((update) => updates.push(update));
    const [call] = await whenRunning(session, 1);
    expect(seen?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(seen?.aborted).toBe(true);
    expect(session.runningToolCalls).toEqual([]);
    expect(session.running).toBe(false);
    call.respond("too late");
    await new Promise((resolve) => setImmediate(resolve));
    expect(toolMessages(session)).toEqual([]);
    expect(transport.inputs).toHaveLength(1);
    expect(kinds(updates)).not.toContain("done");
    expect(kinds(updates)).not.toContain("run");
  });

  it("aborts a waiting human-in-the-loop call: waitForResponse rejects with the signal's reason", async () => {
    const ask = clientTool({
      name: "get_local_time",
      description: "asks",
      parameters: t.type({ format: t.string }),
      result: t.string,
      execute: waitForResponse,
    });
    const { session } = sessionOf(clockAgent, { tools: [ask] });
    const subscription = session.send("time?").subscribe();
    await whenRunning(session, 1);
    subscription.unsubscribe();
    expect(session.runningToolCalls).toEqual([]);
    const controller = new AbortController();
    const waiting = waitForResponse(undefined, { toolCallId: "c", signal: controller.signal, session });
    controller.abort(new Error("stopped"));
    await expect(waiting).rejects.toThrow("stopped");
  });
});

describe("what the loop leaves alone", () => {
  it("a run that ends interrupted executes nothing, even with a client call in it", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.toolCall("get_local_time").argsJson({ format: "24h" }).end();
        return interrupted(ctx.interrupt({ id: "wait-1", reason: "confirmation" }));
      },
    };
    const execute = jest.fn(() => "14:05");
    const tool = clientTool({ name: "get_local_time", description: "clock", parameters: t.type({ format: t.string }), execute });
    const { session, transport } = sessionOf(agent, { tools: [tool] });
    const updates = await collect(session.send("time?"));
    expect(endOf(updates)).toMatchObject({ kind: "interrupted" });
    expect(execute).not.toHaveBeenCalled();
    expect(transport.inputs).toHaveLength(1);
  });

  it("calls to tools the session does not know are left for the application: the known ones are answered, and the exchange ends after that run", async () => {
    const agent: Agent = {
      async run(ctx) {
        const intro = ctx.say("Two things.");
        ctx.toolCall("get_local_time", { id: "call-time", parentMessageId: intro }).argsJson({ format: "24h" }).end();
        ctx.toolCall("open_url", { id: "call-url", parentMessageId: intro }).argsJson({ url: "https://example.com" }).end();
      },
    };
    const openUrl: Tool = { name: "open_url", description: "Opens a page" };
    const { session, transport } = sessionOf(agent, { tools: [getLocalTime, openUrl] });
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(endOf(updates)).toEqual({ kind: "success", pendingToolCallIds: ["call-time", "call-url"] });
    expect(transport.inputs).toHaveLength(1);
    expect(kinds(updates)).not.toContain("run");
    expect(toolMessages(session).map((m) => m.toolCallId)).toEqual(["call-time"]);
    const calls = session.messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
    expect(calls.map((c) => c.function.name)).toEqual(["get_local_time", "open_url"]);
  });

  it("an empty pendingToolCallIds means none: the unanswered call stays unanswered", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.toolCall("get_local_time").argsJson({ format: "24h" }).end();
        return { type: "success", pendingToolCallIds: [] };
      },
    };
    const { session, transport } = sessionOf(agent);
    expect(endOf(await collect(session.send("x")))).toEqual({ kind: "success", pendingToolCallIds: [] });
    expect(toolMessages(session)).toEqual([]);
    expect(transport.inputs).toHaveLength(1);
  });

  it("an id in pendingToolCallIds that names no call is a warning, and the rest goes on", async () => {
    const agent: Agent = {
      async run(ctx) {
        if (ctx.lastToolResults.length > 0) return void ctx.say("thanks");
        ctx.toolCall("get_local_time", { id: "call-1" }).argsJson({ format: "24h" }).end();
        return { type: "success", pendingToolCallIds: ["call-1", "call-ghost"] };
      },
    };
    const { session } = sessionOf(agent);
    const updates = await collect(session.send("x"));
    expect(errorsOf(updates)).toEqual([expect.objectContaining({ kind: "warning", code: "unknown-tool-call" })]);
    expect(errorsOf(updates)[0].message).toContain('"call-ghost"');
    expect(said(session).at(-1)).toBe("thanks");
  });

  it("without tools the exchange is the run, as before: no run updates, the same updates", async () => {
    const { session } = sessionOf(clockAgent, { tools: [] });
    const updates = await collect(session.send("time?"));
    expect(kinds(updates)).not.toContain("run");
    expect(endOf(updates)).toEqual({ kind: "success" }); // the driver lists calls to offered tools only, and none was offered
  });
});

describe("the fallback without pendingToolCallIds", () => {
  /** Replays events as a producer without 1.0.0's list would send them: RUN_FINISHED with no outcome. */
  class LegacyTransport implements Transport {
    readonly inputs: RunAgentInput[] = [];
    constructor(private readonly script: (input: RunAgentInput) => Event[]) {}
    run(input: RunAgentInput): Observable<Event> {
      this.inputs.push(input);
      const events = this.script(input);
      return new Observable<Event>((subscriber) => {
        for (const event of events) subscriber.next(event);
        subscriber.complete();
      });
    }
  }
  const callEvents = (input: RunAgentInput, messageId: string, callId: string): Event[] => [
    ev.runStarted(input.threadId, input.runId),
    ev.toolCallStart(callId, "get_local_time", { parentMessageId: messageId }),
    ev.toolCallArgs(callId, '{"format":"24h"}'),
    ev.toolCallEnd(callId),
    ev.runFinished(input.threadId, input.runId),
  ];

  it("answers the run's own calls that have no result, and never an earlier run's", async () => {
    let runs = 0;
    const transport = new LegacyTransport((input) => {
      runs++;
      if (runs === 1) return callEvents(input, "m-old", "call-old"); // left unanswered: this session offered no client tool then
      if (runs === 2) return callEvents(input, "m-new", "call-new");
      return [ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId)];
    });
    const session = new Session(transport, { threadId: "t", newId: counter() });
    expect(endOf(await collect(session.send("first")))).toEqual({ kind: "success" });
    const updates = await collect(session.send("second", { tools: [getLocalTime] }));
    expectRunEndContract(updates);
    expect(toolMessages(session).map((m) => m.toolCallId)).toEqual(["call-new"]);
    expect(transport.inputs).toHaveLength(3);
  });
});

describe("the run's own signal", () => {
  it("is the exchange's: the agent's run under the driver is aborted by unsubscribing during a follow-up run", async () => {
    let aborted: Promise<boolean> | undefined;
    const agent: Agent = {
      async run(ctx) {
        if (ctx.lastToolResults.length === 0) {
          ctx.toolCall("get_local_time").argsJson({ format: "24h" }).end();
          return;
        }
        aborted = new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(true)));
        await new Promise(() => undefined);
      },
    };
    const transport: Transport = { run: (input) => run(agent, input) };
    const session = new Session(transport, { threadId: "t", tools: [getLocalTime] });
    const subscription = session.send("go").subscribe();
    await firstValueFrom(session.messages$.pipe(filter((messages) => messages.some((m) => m.role === "tool"))));
    await new Promise((resolve) => setImmediate(resolve));
    subscription.unsubscribe();
    await expect(aborted).resolves.toBe(true);
  });
});

describe("two subscriptions", () => {
  it("each run their own exchange with their own round-trip count", async () => {
    const { session, transport } = sessionOf(clockAgent);
    const exchange = session.send("time?", { maxToolRoundtrips: 1 });
    const first = await collect(exchange);
    const second = await collect(exchange);
    expect(endOf(first)).toEqual({ kind: "success" });
    expect(endOf(second)).toEqual({ kind: "success" });
    expect(transport.inputs).toHaveLength(4);
    expect(toolMessages(session)).toHaveLength(2);
  });
});
