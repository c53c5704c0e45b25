/** The run driver: lifecycle, terminal events, errors, open handles, interrupts, cancellation. */
import { execFileSync } from "node:child_process";
import { cancellingAgent, type CancellationReport } from "./fixtures/cancellingAgent";
import * as path from "node:path";
import * as t from "io-ts";
import { take } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { stateSpec } from "../../src/protocol/stateSpec";
import { ProtocolError } from "../../src/operators/ProtocolError";
import { AgentError, interrupt, interrupted, run, sequentialIds, success, type Agent, type RunContext } from "../../src/server";
import { collect, expectAccepted, types } from "./support";

const input = runAgentInput("t", "r");
const agentOf = (body: (ctx: RunContext) => unknown): Agent => ({
  async run(ctx) {
    await body(ctx);
  },
});

describe("lifecycle", () => {
  test("is cold: the agent runs once per subscription, not before", async () => {
    const calls = jest.fn();
    const events$ = run(agentOf(calls), input);
    expect(calls).not.toHaveBeenCalled();
    await collect(events$);
    await collect(events$);
    expect(calls).toHaveBeenCalledTimes(2);
  });

  test("an agent that does nothing still gets RUN_STARTED and RUN_FINISHED (success, no result)", async () => {
    const events = await collect(
      run(
        agentOf(() => undefined),
        runAgentInput("t", "r", { parentRunId: "p" }),
      ),
    );
    expect(events).toEqual([
      { type: "RUN_STARTED", threadId: "t", runId: "r", parentRunId: "p", protocolVersion: "1.0" },
      { type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success" } },
    ]);
    await expectAccepted(events);
  });

  test("success(result) puts the result on RUN_FINISHED", async () => {
    const agent: Agent = { run: async () => success({ answer: 42 }) };
    const events = await collect(run(agent, input));
    expect(events[1]).toEqual({ type: "RUN_FINISHED", threadId: "t", runId: "r", outcome: { type: "success" }, result: { answer: 42 } });
    await expectAccepted(events);
  });

  test("handles left open are closed innermost first before RUN_FINISHED", async () => {
    const agent = agentOf((ctx) => {
      ctx.step("outer");
      ctx.assistantMessage();
      ctx.toolCall("search");
      const sub = ctx.subagent("helper");
      sub.assistantMessage();
      ctx.reasoning();
    });
    const events = await collect(run(agent, input, { ids: sequentialIds("id") }));
    expect(types(events)).toEqual([
      "RUN_STARTED",
      "STEP_STARTED",
      "TEXT_MESSAGE_START",
      "TOOL_CALL_START",
      "SUBAGENT_STARTED",
      "TEXT_MESSAGE_START",
      "REASONING_START",
      "REASONING_MESSAGE_START",
      // closing, latest opened first
      "REASONING_MESSAGE_END",
      "REASONING_END",
      "TEXT_MESSAGE_END",
      "SUBAGENT_FINISHED",
      "TOOL_CALL_END",
      "TEXT_MESSAGE_END",
      "STEP_FINISHED",
      "RUN_FINISHED",
    ]);
    // the subagent's message closes under its tag, before the subagent itself
    expect(events[10]).toMatchObject({ messageId: "id-4", subagentRunId: "id-3" });
    expect(events[11]).toEqual({ type: "SUBAGENT_FINISHED", subagentRunId: "id-3" });
    expect(events[13]).toMatchObject({ messageId: "id-1" });
    await expectAccepted(events);
  });

  test("a write after the run ended throws a ProtocolError (R3)", async () => {
    let kept: RunContext | undefined;
    await collect(
      run(
        agentOf((ctx) => (kept = ctx)),
        input,
      ),
    );
    expect(() => kept?.say("late")).toThrow(ProtocolError);
  });
});

describe("errors", () => {
  test("a thrown error becomes RUN_ERROR with the default code and no stack", async () => {
    const events = await collect(
      run(
        agentOf(() => {
          throw new Error("model unavailable");
        }),
        input,
      ),
    );
    expect(events[1]).toEqual({ type: "RUN_ERROR", message: "model unavailable", code: "AGENT_ERROR" });
    await expectAccepted(events);
  });

  test("a synchronous throw from a non-async run is caught the same way", async () => {
    const agent: Agent = {
      run() {
        throw new Error("sync");
      },
    };
    const events = await collect(run(agent, input));
    expect(events[1]).toEqual({ type: "RUN_ERROR", message: "sync", code: "AGENT_ERROR" });
  });

  test("a rejected promise with a non-Error value is reported by its text", async () => {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an agent that rejects with a non-Error on purpose: that is the case under test
    const agent: Agent = { run: () => Promise.reject("quota exceeded") };
    const events = await collect(run(agent, input));
    expect(events[1]).toEqual({ type: "RUN_ERROR", message: "quota exceeded", code: "AGENT_ERROR" });
  });

  test("an AgentError carries its own code", async () => {
    const events = await collect(
      run(
        agentOf(() => {
          throw new AgentError("the weather service is down", "UPSTREAM_UNAVAILABLE");
        }),
        input,
      ),
    );
    expect(events[1]).toEqual({ type: "RUN_ERROR", message: "the weather service is down", code: "UPSTREAM_UNAVAILABLE" });
  });

  test("a resolved value that is not an outcome (plain JavaScript) becomes RUN_ERROR naming it", async () => {
    const agent: Agent = { run: () => Promise.resolve(JSON.parse('{"type":"interrupt","interrupts":[]}')) };
    const events = await collect(run(agent, input));
    expect(events[1]).toMatchObject({ type: "RUN_ERROR", code: "AGENT_ERROR" });
    expect(events[1].type === "RUN_ERROR" && events[1].message).toContain('"interrupts":[]');
    await expectAccepted(events);
  });

  test("exposeStack puts the stack in RUN_ERROR.metadata", async () => {
    const error = new Error("boom");
    const events = await collect(
      run(
        agentOf(() => {
          throw error;
        }),
        input,
        { exposeStack: true },
      ),
    );
    expect(events[1]).toEqual({ type: "RUN_ERROR", message: "boom", code: "AGENT_ERROR", metadata: { stack: error.stack } });
    await expectAccepted(events);
  });

  test("steps are closed on throw, in both forms", async () => {
    const events = await collect(
      run(
        agentOf(async (ctx) => {
          using _outer = ctx.step("outer");
          await ctx.step("inner", async () => {
            throw new AgentError("no results", "EMPTY");
          });
        }),
        input,
      ),
    );
    expect(types(events)).toEqual(["RUN_STARTED", "STEP_STARTED", "STEP_STARTED", "STEP_FINISHED", "STEP_FINISHED", "RUN_ERROR"]);
    expect(events.slice(3, 5)).toEqual([
      { type: "STEP_FINISHED", stepName: "inner" },
      { type: "STEP_FINISHED", stepName: "outer" },
    ]);
    expect(events[5]).toMatchObject({ code: "EMPTY" });
    await expectAccepted(events);
  });

  test("step(name, body) returns the body's result and closes on early return", async () => {
    const seen: unknown[] = [];
    const events = await collect(
      run(
        agentOf(async (ctx) => {
          seen.push(
            await ctx.step("lookup", async (inner) => {
              if (inner.threadId === "t") return "early";
              inner.say("never");
              return "late";
            }),
          );
        }),
        input,
      ),
    );
    expect(seen).toEqual(["early"]);
    expect(types(events)).toEqual(["RUN_STARTED", "STEP_STARTED", "STEP_FINISHED", "RUN_FINISHED"]);
  });

  test("a bad write throws a ProtocolError at the call site and sends nothing; the run goes on", async () => {
    let caught: unknown;
    const events = await collect(
      run(
        agentOf((ctx) => {
          const message = ctx.assistantMessage();
          message.delta("Hello");
          message.end();
          try {
            message.delta(" again");
          } catch (error) {
            caught = error;
          }
          ctx.say("done");
        }),
        input,
        { ids: sequentialIds() },
      ),
    );
    expect(caught).toBeInstanceOf(ProtocolError);
    expect(caught).toMatchObject({ rule: "R15" });
    expect(events.some((event) => event.type === "TEXT_MESSAGE_CONTENT" && event.delta === " again")).toBe(false);
    expect(types(events)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    await expectAccepted(events);
  });

  test("an uncaught ProtocolError ends the run with code PROTOCOL", async () => {
    const events = await collect(
      run(
        agentOf((ctx) => {
          ctx.toolCall("x", { id: "c1" }).end();
          ctx.emit({ type: "TOOL_CALL_END", toolCallId: "c1" });
        }),
        input,
      ),
    );
    expect(types(events)).toEqual(["RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_END", "RUN_ERROR"]);
    expect(events[3]).toMatchObject({ code: "PROTOCOL" });
    expect(events[3].type === "RUN_ERROR" && events[3].message).toContain("c1");
    await expectAccepted(events);
  });

  test("a step opened by hand and left open makes RUN_FINISHED invalid, so the run ends with RUN_ERROR", async () => {
    const events = await collect(
      run(
        agentOf((ctx) => ctx.emit({ type: "STEP_STARTED", stepName: "manual" })),
        input,
      ),
    );
    expect(types(events)).toEqual(["RUN_STARTED", "STEP_STARTED", "RUN_ERROR"]);
    expect(events[2]).toMatchObject({ code: "PROTOCOL" });
    expect(events[2].type === "RUN_ERROR" && events[2].message).toContain("manual");
    await expectAccepted(events);
  });
});

describe("interrupts and resume", () => {
  const Approval = t.type({ approved: t.boolean });
  const expiresAt = new Date("2030-01-01T00:00:00.000Z");

  const mailer: Agent = {
    async run(ctx) {
      const answer = ctx.resumeFor("send-email");
      if (!ctx.isResume || answer === undefined) {
        const call = ctx.toolCall("send_email", { id: "call-1" });
        call.argsJson({ to: "team@example.com" });
        call.end();
        return interrupted(
          interrupt({
            id: "send-email",
            reason: "tool_call",
            toolCallId: "call-1",
            message: "Send this email?",
            responseSchema: { type: "object", properties: { approved: { type: "boolean" } } },
            expiresAt,
          }),
        );
      }
      const payload = Approval.is(answer.payload) ? answer.payload : { approved: false };
      // A tool-bound interrupt is answered with the result alone (docs/rules.md#I8).
      ctx.toolResult("call-1", payload.approved ? "sent" : "not sent");
      ctx.say(payload.approved ? "Sent." : "Not sent.");
      return success();
    },
  };

  test("an interrupt outcome becomes RUN_FINISHED with the interrupts", async () => {
    const events = await collect(run(mailer, input));
    expect(events[events.length - 1]).toEqual({
      type: "RUN_FINISHED",
      threadId: "t",
      runId: "r",
      outcome: {
        type: "interrupt",
        interrupts: [
          {
            id: "send-email",
            reason: "tool_call",
            toolCallId: "call-1",
            message: "Send this email?",
            responseSchema: { type: "object", properties: { approved: { type: "boolean" } } },
            expiresAt: "2030-01-01T00:00:00.000Z",
          },
        ],
      },
    });
    await expectAccepted(events);
  });

  test("the next run reads the answer through resumeFor", async () => {
    const resumed = runAgentInput("t", "r2", {
      resume: [{ interruptId: "send-email", status: "resolved", payload: { approved: true } }],
    });
    const events = await collect(run(mailer, resumed));
    const texts = events.flatMap((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? [event.delta] : []));
    expect(texts).toEqual(["Sent."]);
    expect(events).toContainEqual(expect.objectContaining({ type: "TOOL_CALL_RESULT", toolCallId: "call-1", content: "sent" }));
    expect(types(events)).not.toContain("TOOL_CALL_START");
    await expectAccepted(events);
  });

  test("interrupt() mints an id when none is given and leaves absent fields out", () => {
    const made = interrupt({ reason: "input_required" }, sequentialIds("i"));
    expect(made).toEqual({ id: "i-1", reason: "input_required" });
  });
});

describe("cancellation", () => {
  test("unsubscribing aborts the signal, the pending await observes it, and nothing more is emitted", async () => {
    const report: CancellationReport = {};
    let agentSettled!: () => void;
    const settled = new Promise<void>((resolve) => (agentSettled = resolve));
    const agent = cancellingAgent(report, agentSettled);

    const seen: Event[] = [];
    const ended = jest.fn();
    const subscription = run(agent, input).subscribe({ next: (event) => seen.push(event), error: ended, complete: ended });
    // the agent ran synchronously up to its first await
    expect(types(seen)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]);

    subscription.unsubscribe();
    await settled;

    expect(report.observed).toMatchObject({ name: "AbortError" });
    expect(report.lateWrite).toMatchObject({ name: "AbortError" });
    expect(seen).toHaveLength(4);
    expect(ended).not.toHaveBeenCalled();
  });

  // Jest sandboxes `process`, so an 'unhandledRejection' listener inside a test sees nothing; the
  // same scenario runs in a child Node process whose listener is real (proved by the control run).
  const fixture = path.join(__dirname, "fixtures", "cancelledRun.ts");
  const runFixture = (...args: string[]) =>
    // eslint-disable-next-line @typescript-eslint/no-unsafe-return -- the fixture's JSON report, whose members are asserted right here
    JSON.parse(
      execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", fixture, ...args], {
        cwd: path.join(__dirname, "..", ".."),
        encoding: "utf8",
      }),
    );

  test("no unhandled rejection escapes a cancelled run (in a real Node process)", () => {
    expect(runFixture()).toEqual({
      types: ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"],
      observed: "AbortError",
      lateWrite: "AbortError",
      unhandled: [],
    });
    // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- the fixture's JSON report, whose members are asserted right here
    expect(runFixture("control").unhandled).toEqual(["Error: control"]);
  }, 30_000);

  test("a subscriber that takes only the first events cancels the rest of the run", async () => {
    let signal: AbortSignal | undefined;
    const agent = agentOf(async (ctx) => {
      signal = ctx.signal;
      ctx.say("one");
      await Promise.resolve();
      ctx.say("two");
    });
    const events = await collect(run(agent, input).pipe(take(2)));
    expect(types(events)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START"]);
    expect(signal?.aborted).toBe(true);
  });

  test("after a normal end the signal stays unaborted", async () => {
    let signal: AbortSignal | undefined;
    await collect(
      run(
        agentOf((ctx) => (signal = ctx.signal)),
        input,
      ),
    );
    expect(signal?.aborted).toBe(false);
  });
});

describe("typed state through the driver", () => {
  test("publishing from the agent: snapshot first, deltas after, nothing for no change", async () => {
    const Counter = t.type({ clicks: t.number, log: t.array(t.string) });
    const agent: Agent<t.TypeOf<typeof Counter>> = {
      state: stateSpec(Counter, { clicks: 0, log: [] }),
      async run(ctx) {
        ctx.updateState((s) => {
          s.log.push("a fairly long line of history that makes a snapshot expensive");
        });
        ctx.setState({ ...ctx.stateMut, clicks: ctx.state.clicks + 1 });
        ctx.publishState();
        return success();
      },
    };
    const events = await collect(run(agent, runAgentInput("t", "r", { state: { clicks: 5, log: [] } })));
    expect(types(events)).toEqual(["RUN_STARTED", "STATE_SNAPSHOT", "STATE_DELTA", "RUN_FINISHED"]);
    expect(events[1]).toMatchObject({ snapshot: { clicks: 5 } });
    expect(events[2]).toMatchObject({ delta: [{ op: "replace", path: "/clicks", value: 6 }] });
    await expectAccepted(events);
  });
});
