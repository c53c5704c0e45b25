/**
 * Issue #20 part B: five protocol rules, each as the AG-UI conformance stream it is named after
 * (`spec/1.1/conformance/streams/` and `spec/draft/conformance/streams/` of ag-ui-protocol/ag-ui),
 * with the expected result written from the specification's text. Each stream reaches our client as
 * a peer sends it (an SSE body through the real decoder into a Session); where the rule binds a
 * producer, our server is held to it too. What `@ag-ui/client` 1.0.0 (`runAgent`, its whole
 * pipeline) does with the same stream is asserted beside ours, so each difference is stated as a
 * fact (docs/architecture.md, "AG-UI 1.1, rule by rule").
 */
import { AbstractAgent } from "@ag-ui/client";
import { from, lastValueFrom, Observable, toArray } from "rxjs";
import { ev, outcome, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { Message } from "../../src/protocol/messages";
import { Diagnostic, ProtocolError } from "../../src/operators/ProtocolError";
import { verifyEvents } from "../../src/operators/verifyEvents";
import { interrupted, run, type Agent } from "../../src/server";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import { Session } from "../../src/client/Session";
import type { Update } from "../../src/thread/Update";
import { collect, counter, endOf, errorsOf, replaySession } from "../client/support";

/** The SSE body of JSON values exactly as a peer sends them (wrong roles and unknown ops included). */
const body = (stream: readonly unknown[]): string => stream.map((json) => `data: ${JSON.stringify(json)}\n\n`).join("");

/** Each update after the user message (its started, content and ended) as a short label: `error protocol R7a`, `warning unknown-member`, `done failed` … */
function labels(updates: readonly Update[]): string[] {
  return updates.slice(3).map((update) => {
    switch (update.kind) {
      case "message":
        return `message ${update.id} ${update.change.kind}`;
      case "error":
        return update.error.kind === "protocol" || update.error.kind === "warning" ? `${update.error.kind} ${update.error.code}` : `error ${update.error.kind}`;
      case "done":
        return `done ${update.end.kind}`;
      default:
        return update.kind;
    }
  });
}

/** Ours: a Session on `threadId` sending "go", the stream replayed as its SSE body. */
async function ours(threadId: string, stream: readonly unknown[]) {
  const session = replaySession(body(stream), { threadId });
  const updates = await collect(session.send("go"));
  return { session, updates };
}

/** The official client's whole run pipeline (`runAgent`) over `stream`, with its console output captured. */
class ScriptedAgent extends AbstractAgent {
  constructor(
    private readonly stream: readonly unknown[],
    threadId: string,
  ) {
    super({ threadId });
  }
  run(): ReturnType<AbstractAgent["run"]> {
    // their Observable type is their rxjs copy's; they only subscribe to it
    return new Observable((subscriber) => {
      for (const json of this.stream) subscriber.next(json);
      subscriber.complete();
    }) as never;
  }
}

async function official(threadId: string, stream: readonly unknown[], resume?: { interruptId: string; status: "resolved" }[]) {
  const agent = new ScriptedAgent(stream, threadId);
  return runOfficial(agent, resume);
}

async function runOfficial(agent: ScriptedAgent, resume?: { interruptId: string; status: "resolved" }[]) {
  const said: string[] = [];
  const warn = jest.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void said.push(String(args[0])));
  const error = jest.spyOn(console, "error").mockImplementation((...args: unknown[]) => void said.push(String(args[0])));
  try {
    await agent.runAgent(resume === undefined ? {} : { resume });
    return { agent, failed: undefined, said };
  } catch (thrown) {
    return { agent, failed: thrown instanceof Error ? thrown.message : String(thrown), said };
  } finally {
    warn.mockRestore();
    error.mockRestore();
  }
}

const lastError = (updates: readonly Update[]) => errorsOf(updates)[errorsOf(updates).length - 1];

describe("conformance: reasoning-message-wrong-role-fatal", () => {
  const T = "t-reasoning-wrong-role";
  const R = "r-reasoning-wrong-role";
  const stream = (role: string) => [
    { type: "RUN_STARTED", threadId: T, runId: R, protocolVersion: "1.1" },
    { type: "REASONING_MESSAGE_START", messageId: "m-reasoning-wrong-role-1", role },
    { type: "REASONING_MESSAGE_CONTENT", messageId: "m-reasoning-wrong-role-1", delta: "thinking" },
    { type: "REASONING_MESSAGE_END", messageId: "m-reasoning-wrong-role-1" },
    { type: "RUN_FINISHED", threadId: T, runId: R },
  ];

  test("a known role other than reasoning is a malformed known value: the run fails there, naming the role (expected: failed, 'expected \"reasoning\"')", async () => {
    const { session, updates } = await ours(T, stream("assistant"));
    expect(labels(updates)).toEqual(["warning protocol-version", "error decode", "done failed"]);
    expect(endOf(updates)).toMatchObject({ kind: "failed", message: expect.stringContaining('at /role: expected "reasoning"') });
    expect(endOf(updates)).toMatchObject({ message: expect.stringContaining('got "assistant"') });
    expect(session.messages.map((message) => message.role)).toEqual(["user"]); // nothing after the failure was applied
  });

  test.each(["user", "system", "developer", "tool", "activity"])("role %p fails the same way", async (role) => {
    const { updates } = await ours(T, stream(role));
    expect(endOf(updates)).toMatchObject({ kind: "failed", message: expect.stringContaining('expected "reasoning"') });
  });

  test("an unknown role is unrecognised, not malformed: that event is dropped with a warning, never fatal (processing model)", async () => {
    const { updates } = await ours(T, stream("narrator"));
    expect(labels(updates).slice(0, 2)).toEqual(["warning protocol-version", "warning unknown-member"]);
    expect(errorsOf(updates)[1].message).toContain('unknown value "narrator"');
    expect(endOf(updates).kind).toBe("success");
  });

  test("@ag-ui/client 1.0.0 agrees: its schema stage rejects the wrong role and the run fails", async () => {
    const theirs = await official(T, stream("assistant"));
    expect(theirs.failed).toContain('expected \\"reasoning\\"');
  });

  test("our server refuses to emit it: ctx.emit throws a ProtocolError at the call site and sends nothing", async () => {
    let refused: unknown;
    const agent: Agent = {
      async run(ctx) {
        ctx.emit(ev.reasoningStart("r1"));
        try {
          ctx.emit({ ...ev.reasoningMessageStart("r1"), role: "assistant" } as unknown as Event); // as a plain JavaScript agent could
        } catch (thrown) {
          refused = thrown;
        }
        ctx.emit(ev.reasoningEnd("r1"));
        return { type: "success" };
      },
    };
    const events = await lastValueFrom(run(agent, runAgentInput("t", "r")).pipe(toArray()));
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(String(refused)).toContain('expected "reasoning"');
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "REASONING_START", "REASONING_END", "RUN_FINISHED"]);
  });
});

describe("conformance: state-delta-unknown-op-dropped", () => {
  const T = "t-state-delta-unknown-op";
  const R = "state-delta-unknown-op-r1";
  const stream = [
    { type: "RUN_STARTED", threadId: T, runId: R },
    { type: "STATE_SNAPSHOT", snapshot: { count: 1 } },
    {
      type: "STATE_DELTA",
      delta: [
        { op: "increment", path: "/count", value: 1 },
        { op: "replace", path: "/count", value: 5 },
      ],
    },
    { type: "RUN_FINISHED", threadId: T, runId: R },
  ];

  test("the unknown op is dropped with a warning at /delta/0 and the rest of the delta applies (expected: completed, {count: 5})", async () => {
    const { session, updates } = await ours(T, stream);
    expect(labels(updates)).toEqual(["state", "warning unknown-member", "state", "done success"]);
    expect(errorsOf(updates)[0].message).toContain("removed /delta/0");
    expect(session.rawState).toEqual({ count: 5 });
  });

  test("@ag-ui/client 1.0.0's runAgent agrees: its strip stage removes /delta/0 and applies the rest", async () => {
    const theirs = await official(T, stream);
    expect(theirs.failed).toBeUndefined();
    expect(theirs.agent.state).toEqual({ count: 5 });
    expect(theirs.said.some((line) => line.includes("/delta/0"))).toBe(true);
  });
});

describe("differential: an ACTIVITY_SNAPSHOT on the id of an assistant message that holds a merged tool call", () => {
  const T = "thread-1";
  const R = "run-1";
  const rs = ev.runStarted(T, R);
  const rf = ev.runFinished(T, R);
  const holders = (messages: readonly unknown[]) =>
    (messages as Message[]).filter((message) => message.role === "assistant" && (message.toolCalls ?? []).some((call) => call.id === "c1"));

  test("merged through parentMessageId: the snapshot is refused in-band, the message and its call stay, the run goes on", async () => {
    const stream = [
      rs,
      ev.textMessageStart("a1"),
      ev.textMessageContent("a1", "Let me look."),
      ev.textMessageEnd("a1"),
      ev.toolCallStart("c1", "search", { parentMessageId: "a1" }),
      ev.toolCallArgs("c1", "{}"),
      ev.toolCallEnd("c1"),
      ev.activitySnapshot("a1", "PLAN", { steps: [] }),
      ev.textMessageStart("m2"),
      ev.textMessageEnd("m2"),
      rf,
    ];
    const { session, updates } = await ours(T, stream);
    const refused = errorsOf(updates);
    expect(refused.map((error) => [error.kind, error.code])).toEqual([["protocol", "message-id-taken"]]);
    expect(refused[0].message).toContain('ACTIVITY_SNAPSHOT "a1" would replace the assistant message with that id, which holds tool call c1');
    expect(labels(updates).slice(-4)).toEqual(["protocol message-id-taken", "message m2 started", "message m2 ended", "done success"]);
    expect(session.messages[1]).toEqual({
      id: "a1",
      role: "assistant",
      content: "Let me look.",
      toolCalls: [{ id: "c1", type: "function", function: { name: "search", arguments: "{}" } }],
    });
    // @ag-ui/client 1.0.0 replaces the message and the call is gone, with no word about it
    const theirs = await official(T, stream);
    expect(holders(theirs.agent.messages)).toEqual([]);
    expect(theirs.agent.messages.find((message) => message.id === "a1")?.role).toBe("activity");
  });

  test("merged because the call's id is the assistant message's (our A4 rule): refused the same way; 1.0.0 keeps the call in its second message with that id", async () => {
    const stream = [
      rs,
      ev.textMessageStart("c1"),
      ev.textMessageEnd("c1"),
      ev.toolCallStart("c1", "f"),
      ev.toolCallEnd("c1"),
      ev.activitySnapshot("c1", "PLAN", {}),
      rf,
    ];
    const { session, updates } = await ours(T, stream);
    expect(errorsOf(updates).map((error) => error.code)).toEqual(["message-id-taken"]);
    expect(holders(session.messages)).toHaveLength(1);
    expect(endOf(updates).kind).toBe("success");
    const theirs = await official(T, stream);
    expect(holders(theirs.agent.messages)).toHaveLength(1);
    expect(theirs.agent.messages.filter((message) => message.id === "c1").map((message) => message.role)).toEqual(["activity", "assistant"]);
  });

  test("an assistant message without tool calls is still replaced by the activity (A11 as before)", async () => {
    const { session, updates } = await ours(T, [rs, ev.textMessageStart("a1"), ev.textMessageEnd("a1"), ev.activitySnapshot("a1", "PLAN", { steps: [] }), rf]);
    expect(errorsOf(updates)).toEqual([]);
    expect(session.messages[1]).toEqual({ id: "a1", role: "activity", activityType: "PLAN", content: { steps: [] } });
  });
});

describe("conformance: run-finished-wrong-run-id-fatal", () => {
  const T = "t-run-id-mismatch";
  const stream = [
    { type: "RUN_STARTED", threadId: T, runId: "r-run-id-mismatch-opened" },
    { type: "RUN_FINISHED", threadId: T, runId: "r-run-id-mismatch-other", outcome: { type: "success" } },
  ];

  test("the other run's RUN_FINISHED is refused in-band and not applied; the run has no end, so it fails as truncated (expected: failed)", async () => {
    const { updates } = await ours(T, stream);
    expect(labels(updates)).toEqual(["protocol R7a", "error decode", "done failed"]);
    expect(errorsOf(updates)[0].message).toContain("must agree on their runId");
    expect(endOf(updates)).toMatchObject({ kind: "failed", code: "truncated" });
  });

  test("@ag-ui/client 1.0.0 accepts it and the run completes", async () => {
    expect((await official(T, stream)).failed).toBeUndefined();
  });
});

describe("conformance: run-finished-wrong-thread-id-fatal", () => {
  const T = "t-thread-id-mismatch";
  const stream = [
    { type: "RUN_STARTED", threadId: T, runId: "r-thread-id-mismatch" },
    { type: "RUN_FINISHED", threadId: "t-thread-id-mismatch-other", runId: "r-thread-id-mismatch", outcome: { type: "success" } },
  ];

  test("a RUN_FINISHED about another thread does not close this run: refused in-band, then truncated (expected: failed)", async () => {
    const { updates } = await ours(T, stream);
    expect(labels(updates)).toEqual(["protocol R7a", "error decode", "done failed"]);
    expect(errorsOf(updates)[0].message).toContain("carry the input's threadId");
    expect(endOf(updates).kind).toBe("failed");
  });

  test("@ag-ui/client 1.0.0 accepts it and the run completes", async () => {
    expect((await official(T, stream)).failed).toBeUndefined();
  });
});

describe("conformance: second-run-on-another-thread-fatal", () => {
  const stream = [
    ev.runStarted("t-second-run-thread", "r-second-run-thread-1"),
    ev.runFinished("t-second-run-thread", "r-second-run-thread-1", { outcome: outcome.success() }),
    ev.runStarted("t-second-run-thread-other", "r-second-run-thread-2"),
    ev.runFinished("t-second-run-thread-other", "r-second-run-thread-2", { outcome: outcome.success() }),
  ];

  test("a stream's second run on another thread is refused (strict: the stream fails there; report: a Diagnostic in its place)", async () => {
    const strict = await lastValueFrom(from(stream).pipe(verifyEvents(), toArray())).catch((error: unknown) => error);
    expect(strict).toBeInstanceOf(ProtocolError);
    expect(String(strict)).toContain("carries the input's threadId");
    const report = await lastValueFrom(from(stream).pipe(verifyEvents({ mode: "report" }), toArray()));
    expect(report.map((item) => (item instanceof Diagnostic ? `diagnostic ${item.error.rule}` : "type" in item ? item.type : "warning"))).toEqual([
      "RUN_STARTED",
      "RUN_FINISHED",
      "diagnostic R7a",
      "diagnostic R3", // with its RUN_STARTED refused, the other thread's run never opened: the stream stands after the first run's end
    ]);
  });

  test("a Session's RUN_STARTED on another thread than the one it sent is refused; nothing of that run is applied, and it fails", async () => {
    const { session, updates } = await ours("t-sent", [
      ev.runStarted("t-other", "r1"),
      ev.textMessageStart("m1"),
      ev.textMessageEnd("m1"),
      ev.runFinished("t-other", "r1"),
    ]);
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "protocol", code: "R7a", message: expect.stringContaining("(the thread the client sent)") });
    expect(session.messages.map((message) => message.id)).toEqual(["id-1"]);
    expect(endOf(updates).kind).toBe("failed");
  });

  test("@ag-ui/client 1.0.0 accepts a RUN_STARTED on another thread than it sent", async () => {
    const theirs = await official("t-sent", [
      { type: "RUN_STARTED", threadId: "t-other", runId: "r1" },
      { type: "RUN_FINISHED", threadId: "t-other", runId: "r1" },
    ]);
    expect(theirs.failed).toBeUndefined();
  });
});

describe("conformance: duplicate-interrupt-id-fatal", () => {
  const T = "t-duplicate-interrupt";
  const R = "r-duplicate-interrupt";
  const twice = [
    { id: "i-duplicate-interrupt", reason: "approval", message: "approve the first tool call" },
    { id: "i-duplicate-interrupt", reason: "approval", message: "approve the second tool call" },
  ];
  const stream = [
    { type: "RUN_STARTED", threadId: T, runId: R },
    { type: "RUN_FINISHED", threadId: T, runId: R, outcome: { type: "interrupt", interrupts: twice } },
  ];

  test("two interrupts with one id fail the run, naming the id; none is left pending (expected: failed)", async () => {
    const { session, updates } = await ours(T, stream);
    expect(labels(updates)).toEqual(["protocol A16", "error decode", "done failed"]);
    expect(errorsOf(updates)[0].message).toContain('two interrupts carrying the id "i-duplicate-interrupt"');
    expect(session.interrupts).toEqual([]); // so no single resume answer can cover both
  });

  test("our server: an agent resolving with two interrupts of one id ends its run with RUN_ERROR naming the id, and our client fails it", async () => {
    const agent: Agent = { run: async () => interrupted(twice[0], twice[1]) };
    const events = await lastValueFrom(run(agent, runAgentInput(T, R)).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(events[1]).toMatchObject({ code: "PROTOCOL", message: expect.stringContaining('two interrupts carrying the id "i-duplicate-interrupt"') });
    const session = new Session(inProcessTransport(agent), { threadId: T, newId: counter() });
    const updates = await collect(session.send("go"));
    expect(endOf(updates)).toMatchObject({ kind: "failed", message: expect.stringContaining('"i-duplicate-interrupt"') });
    expect(lastError(updates).kind).toBe("run");
  });

  test("@ag-ui/client 1.0.0 keeps both pending, and one resume answer then covers both", async () => {
    const agent = new ScriptedAgent(stream, T);
    const first = await runOfficial(agent);
    expect(first.failed).toBeUndefined();
    expect(agent.pendingInterrupts.map((interrupt) => interrupt.id)).toEqual(["i-duplicate-interrupt", "i-duplicate-interrupt"]);
    const answered = await runOfficial(agent, [{ interruptId: "i-duplicate-interrupt", status: "resolved" }]);
    expect(answered.failed).toBeUndefined(); // its pre-flight coverage check passes with one entry for two questions
  });
});
