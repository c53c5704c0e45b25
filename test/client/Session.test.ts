/** Session: runs, the input it builds, one run at a time, pre-flight, run end on every path, views, typed state. */
import * as t from "io-ts";
import { firstValueFrom, NEVER, Observable, skip, Subject, take, throwError, toArray } from "rxjs";
import { ev, withSubagentRunId } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import type { Interrupt } from "../../src/protocol/outcomes";
import { stateSpec } from "../../src/protocol/stateSpec";
import { interrupted, success, type Agent } from "../../src/server/Agent";
import { sequentialIds } from "../../src/server/ids";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import { run } from "../../src/server/run";
import { Session } from "../../src/client/Session";
import { ClientError } from "../../src/thread/ClientError";
import { InProcessTransport } from "../../src/client/transports/InProcessTransport";
import type { Transport } from "../../src/client/transports/Transport";
import type { Update } from "../../src/thread/Update";
import { collect, counter, endOf, errorsOf, expectRunEndContract, kinds, replaySession, sse } from "./support";

/** A transport whose runs the test drives by hand; it records every input and unsubscription. */
class ScriptedTransport implements Transport {
  readonly inputs: RunAgentInput[] = [];
  readonly feeds: Subject<Event>[] = [];
  unsubscribed = 0;
  run(input: RunAgentInput): Observable<Event> {
    return new Observable<Event>((subscriber) => {
      const feed = new Subject<Event>();
      this.inputs.push(input);
      this.feeds.push(feed);
      const inner = feed.subscribe(subscriber);
      return () => {
        this.unsubscribed++;
        inner.unsubscribe();
      };
    });
  }
  get feed(): Subject<Event> {
    return this.feeds[this.feeds.length - 1];
  }
}

/** A transport that answers each run with the next recorded stream. */
class SequenceTransport implements Transport {
  readonly inputs: RunAgentInput[] = [];
  constructor(private readonly runs: ((input: RunAgentInput) => Observable<Event>)[]) {}
  run(input: RunAgentInput): Observable<Event> {
    this.inputs.push(input);
    const next = this.runs.shift();
    if (next === undefined) throw new Error("no more recorded runs");
    return next(input);
  }
}

const rs = (input: RunAgentInput) => ev.runStarted(input.threadId, input.runId);
const rf = (input: RunAgentInput, options?: Parameters<typeof ev.runFinished>[2]) => ev.runFinished(input.threadId, input.runId, options);
const streamOf =
  (...build: ((input: RunAgentInput) => Event)[]) =>
  (input: RunAgentInput) =>
    new Observable<Event>((s) => {
      for (const make of build) s.next(make(input));
      s.complete();
    });

describe("send (E10, A21)", () => {
  it("appends the user message first, so the agent's first message is at index 1", async () => {
    const session = replaySession([ev.runStarted("thread-1", "r"), ev.textMessageStart("a1"), ev.textMessageEnd("a1"), ev.runFinished("thread-1", "r")]);
    const updates = await collect(session.send("hello"));
    expect(updates[0]).toEqual({ kind: "message", index: 0, id: "id-1", change: { kind: "started" }, message: { id: "id-1", role: "user", content: "hello" } });
    expect(updates.find((update) => update.kind === "message" && update.id === "a1")).toMatchObject({ index: 1 });
    expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("shows the user's message as every other message streams: started, its text as one content change, ended (a transcript printer prints it once)", async () => {
    const session = replaySession([
      ev.runStarted("thread-1", "r"),
      ev.textMessageStart("a1"),
      ev.textMessageContent("a1", "hi there"),
      ev.textMessageEnd("a1"),
      ev.runFinished("thread-1", "r"),
    ]);
    const updates = await collect(session.send("hello"));
    const changes = updates.flatMap((update) => (update.kind === "message" ? [[update.message.role, update.change]] : []));
    expect(changes).toEqual([
      ["user", { kind: "started" }],
      ["user", { kind: "content", delta: "hello" }],
      ["user", { kind: "ended" }],
      ["assistant", { kind: "started" }],
      ["assistant", { kind: "content", delta: "hi there" }],
      ["assistant", { kind: "ended" }],
    ]);
    let transcript = "";
    for (const update of updates)
      if (update.kind === "message" && update.change.kind === "content") transcript += `${update.message.role}: ${update.change.delta}\n`;
    expect(transcript).toBe("user: hello\nassistant: hi there\n");
  });

  it("a multimodal user message's content change is its text parts; one without text has started and ended only", async () => {
    const events = [ev.runStarted("thread-1", "r"), ev.runFinished("thread-1", "r")];
    const image = { type: "image", source: { type: "url", value: "https://example.com/cat.png" } } as const;
    const withText = await collect(
      replaySession(events).send({ id: "u1", role: "user", content: [{ type: "text", text: "What is" }, image, { type: "text", text: "this?" }] }),
    );
    expect(withText.flatMap((update) => (update.kind === "message" ? [update.change] : []))).toEqual([
      { kind: "started" },
      { kind: "content", delta: "What is\nthis?" },
      { kind: "ended" },
    ]);
    const imageOnly = await collect(replaySession(events).send({ id: "u2", role: "user", content: [image] }));
    expect(imageOnly.flatMap((update) => (update.kind === "message" ? [update.change.kind] : []))).toEqual(["started", "ended"]);
  });

  it("builds the input: thread, new run id, messages without activity, tools/context/forwardedProps per session or per run, state, resume", async () => {
    const transport = new SequenceTransport([
      streamOf(
        rs,
        () => ev.activitySnapshot("act", "plan", {}),
        () => ev.stateSnapshot({ n: 1 }),
        rf,
      ),
      streamOf(rs, rf),
    ]);
    const tools = [{ name: "search", description: "web search" }];
    const context = [{ description: "tz", value: "UTC" }];
    const session = new Session(transport, { threadId: "thread-9", tools, context, forwardedProps: { a: 1 }, newId: counter("n") });
    await collect(session.send({ id: "u1", role: "user", content: [{ type: "text", text: "hi" }] }));
    await collect(session.send("again", { tools: [], context: [{ description: "lang", value: "ko" }], forwardedProps: { b: 2 }, runId: "custom-run" }));

    const [first, second] = transport.inputs;
    expect(first).toEqual({
      threadId: "thread-9",
      runId: "n-1",
      messages: [{ id: "u1", role: "user", content: [{ type: "text", text: "hi" }] }],
      tools,
      context,
      state: {},
      forwardedProps: { a: 1 },
      protocolVersion: "1.0", // A5: declared on every input, as @ag-ui/client 1.0.0 does
    });
    expect(second.protocolVersion).toBe("1.0");
    expect(second.runId).toBe("custom-run");
    expect(second.messages.map((message) => message.id)).toEqual(["u1", "n-2"]); // the activity stays local
    expect(second.tools).toEqual([]);
    expect(second.context).toEqual([{ description: "lang", value: "ko" }]);
    expect(second.forwardedProps).toEqual({ b: 2 });
    expect(second.state).toEqual({ n: 1 });
    expect("resume" in second).toBe(false);
  });

  it("is cold: nothing is sent or appended before subscription", () => {
    const transport = new ScriptedTransport();
    const session = new Session(transport, { threadId: "t" });
    const run = session.send("hi");
    expect(transport.inputs).toHaveLength(0);
    expect(session.messages).toHaveLength(0);
    const subscription = run.subscribe();
    expect(transport.inputs).toHaveLength(1);
    expect(session.messages).toHaveLength(1);
    subscription.unsubscribe();
    expect(transport.unsubscribed).toBe(1);
    expect(session.running).toBe(false);
  });
});

describe("one run at a time", () => {
  it("refuses a second run with a config error and a failed end in its own stream; the first is untouched", async () => {
    const transport = new ScriptedTransport();
    const session = new Session(transport, { threadId: "t", newId: counter() });
    const first: Update[] = [];
    session.send("one").subscribe((update) => first.push(update));
    const input = transport.inputs[0];
    transport.feed.next(rs(input));

    const second = await collect(session.send("two"));
    expect(kinds(second)).toEqual(["error", "done"]);
    expect(errorsOf(second)[0].kind).toBe("config");
    expect(endOf(second).kind).toBe("failed");
    expect(transport.inputs).toHaveLength(1);
    expect(session.messages.map((message) => message.content)).toEqual(["one"]);

    transport.feed.next(ev.textMessageStart("a"));
    transport.feed.next(ev.textMessageEnd("a"));
    transport.feed.next(rf(input));
    expect(endOf(first)).toEqual({ kind: "success" });
    expect(session.running).toBe(false);
  });
});

describe("chained runs", () => {
  it("a run started from the previous run's done handler stays active after the previous run's teardown", () => {
    const transport = new ScriptedTransport();
    const session = new Session(transport, { threadId: "t", newId: counter() });
    const second: Update[] = [];
    session.send("one").subscribe((update) => {
      if (update.kind === "done") session.send("two").subscribe((next) => second.push(next));
    });
    transport.feed.next(rs(transport.inputs[0]));
    transport.feed.next(rf(transport.inputs[0]));
    expect(transport.inputs).toHaveLength(2);
    expect(session.running).toBe(true);
    expect(errorsOf(second)).toEqual([]);
    transport.feed.next(rs(transport.inputs[1]));
    transport.feed.next(rf(transport.inputs[1]));
    expect(endOf(second)).toEqual({ kind: "success" });
    expect(session.running).toBe(false);
  });
});

describe("run end on every path (E1–E9), rows 86–89", () => {
  it("row 89: a stream that ends before RF/RE is an error and a failed end; what was applied stays", async () => {
    const session = replaySession([ev.runStarted("thread-1", "r"), ev.textMessageStart("m1"), ev.textMessageContent("m1", "x"), ev.textMessageEnd("m1")]);
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(endOf(updates)).toMatchObject({ kind: "failed", code: "truncated" });
    expect(errorsOf(updates).map((error) => error.kind)).toEqual(["decode"]);
    expect(errorsOf(updates)[0].message).toContain("truncated");
    expect(session.messages.map((message) => message.id)).toEqual(["id-1", "m1"]);
  });

  it("RUN_ERROR: a run error then failed with the agent's message and code", async () => {
    const session = replaySession([ev.runStarted("thread-1", "r"), ev.runError("model overloaded", { code: "OVERLOADED" })]);
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "run", message: "model overloaded", code: "OVERLOADED" });
    expect(endOf(updates)).toEqual({ kind: "failed", message: "model overloaded", code: "OVERLOADED" });
  });

  it("E9: the run ends at its first terminal event; an RE after RF cannot change the end", async () => {
    const transport = new ScriptedTransport();
    const session = new Session(transport, { threadId: "t" });
    const updates: Update[] = [];
    let completed = false;
    session.send("x").subscribe({ next: (update) => updates.push(update), complete: () => (completed = true) });
    const input = transport.inputs[0];
    transport.feed.next(rs(input));
    transport.feed.next(rf(input));
    expect(completed).toBe(true);
    expect(transport.unsubscribed).toBe(1);
    transport.feed.next(ev.runError("late"));
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  it("a protocol violation is reported and skipped; the run goes on and ends success", async () => {
    const session = replaySession([
      ev.runStarted("thread-1", "r"),
      ev.textMessageContent("ghost", "x"),
      ev.textMessageStart("m"),
      ev.textMessageEnd("m"),
      ev.runFinished("thread-1", "r"),
    ]);
    const updates = await collect(session.send("go"));
    expect(errorsOf(updates).map((error) => error.kind)).toEqual(["protocol"]);
    expect(errorsOf(updates)[0].code).toBe("R15");
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  it("bad bytes: a frame that is not JSON ends failed with a json error", async () => {
    const session = replaySession(sse([ev.runStarted("thread-1", "r")]) + "data: {not json\n\n");
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(errorsOf(updates)[0].kind).toBe("json");
  });

  it("an invalid event ends failed with a decode error", async () => {
    const session = replaySession(sse([ev.runStarted("thread-1", "r")]) + 'data: {"type":"TEXT_MESSAGE_CONTENT","messageId":1}\n\n');
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(errorsOf(updates)[0].kind).toBe("decode");
  });

  it("a transport that errors or throws ends failed with a transport error; a ClientError keeps its kind", async () => {
    const erroring = new Session({ run: () => throwError(() => new Error("socket hang up")) }, { threadId: "t" });
    const updates = await collect(erroring.send("go"));
    expectRunEndContract(updates);
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "transport" });
    expect(errorsOf(updates)[0].message).toContain("socket hang up");

    const throwing = new Session<unknown>(
      {
        run: () => {
          throw new Error("no route");
        },
      },
      { threadId: "t" },
    );
    expect(errorsOf(await collect(throwing.send("go")))[0].kind).toBe("transport");

    const http = new Session({ run: () => throwError(() => new ClientError("http", "500", { status: 500 })) }, { threadId: "t" });
    const httpUpdates = await collect(http.send("go"));
    expect(errorsOf(httpUpdates)[0]).toMatchObject({ kind: "http", status: 500 });
    expect(erroring.running).toBe(false);
  });

  it("E11: an abort that did not come from unsubscribing ends failed with code abort", async () => {
    const abort = new Error("This operation was aborted");
    abort.name = "AbortError";
    const session = new Session({ run: () => throwError(() => abort) }, { threadId: "t" });
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "transport", code: "abort" });
    expect(endOf(updates)).toMatchObject({ kind: "failed", code: "abort" });
  });

  it("row 86: an interrupt outcome leaves the interrupts pending until a later success clears them", async () => {
    const interrupt: Interrupt = { id: "i1", reason: "confirmation", message: "Send?" };
    const transport = new SequenceTransport([
      streamOf(rs, (input) => rf(input, { outcome: { type: "interrupt", interrupts: [interrupt] } })),
      streamOf(rs, rf),
    ]);
    const session = new Session(transport, { threadId: "t" });
    const first = await collect(session.send("send the mail"));
    expect(kinds(first).slice(-2)).toEqual(["interrupt", "done"]);
    expect(endOf(first)).toEqual({ kind: "interrupted", interrupts: [interrupt] });
    expect(session.interrupts).toEqual([interrupt]);

    const second = await collect(session.resume([{ interruptId: "i1", status: "resolved", payload: { approved: true } }]));
    expect(endOf(second)).toEqual({ kind: "success" });
    expect(transport.inputs[1].resume).toEqual([{ interruptId: "i1", status: "resolved", payload: { approved: true } }]);
    expect(session.interrupts).toEqual([]);
  });

  it("row 87: resume must cover every pending interrupt; an expired one fails with 'expired'; nothing is sent", async () => {
    const pending: [Interrupt, ...Interrupt[]] = [
      { id: "i1", reason: "confirmation", expiresAt: "2026-01-01T00:00:00Z" },
      { id: "i2", reason: "input_required" },
    ];
    const transport = new SequenceTransport([streamOf(rs, (input) => rf(input, { outcome: { type: "interrupt", interrupts: pending } })), streamOf(rs, rf)]);
    const session = new Session(transport, { threadId: "t", now: () => Date.parse("2026-06-01T00:00:00Z") });
    await collect(session.send("go"));

    const partial = await collect(session.resume([{ interruptId: "i1", status: "resolved" }]));
    expectRunEndContract(partial);
    expect(errorsOf(partial)[0]).toMatchObject({ kind: "config", interruptIds: ["i2"] });
    expect(errorsOf(partial)[0].message).toContain("i2");

    const unanswered = await collect(session.send("ignore them"));
    expect(errorsOf(unanswered)[0].message).toContain("i1, i2");
    expect(session.messages.map((message) => message.content)).toEqual(["go"]);

    const expired = await collect(
      session.resume([
        { interruptId: "i1", status: "resolved" },
        { interruptId: "i2", status: "resolved" },
      ]),
    );
    expect(endOf(expired)).toMatchObject({ kind: "failed" });
    expect(errorsOf(expired)[0].message).toContain("expired");
    expect(transport.inputs).toHaveLength(1);

    const cancelled = await collect(
      session.resume([
        { interruptId: "i1", status: "cancelled" },
        { interruptId: "i2", status: "resolved" },
      ]),
    );
    expect(endOf(cancelled)).toEqual({ kind: "success" });
  });
});

describe("typed state", () => {
  const Counter = t.type({ count: t.number });
  const spec = stateSpec(Counter, { count: 0 });

  it("decodes the state with the StateSpec; a value that does not decode is a state error and rawState stays exact", async () => {
    const session = replaySession(
      [
        ev.runStarted("thread-1", "r"),
        ev.stateSnapshot({ count: 1 }),
        ev.stateDelta([{ op: "replace", path: "/count", value: "many" }]),
        ev.stateDelta([{ op: "replace", path: "/count", value: 3 }]),
        ev.runFinished("thread-1", "r"),
      ],
      { state: spec },
    );
    expect(session.state).toEqual({ count: 0 });
    expect(session.rawState).toEqual({ count: 0 });
    const seen: unknown[] = [];
    const updates = await collect(session.send("go"));
    for (const update of updates) if (update.kind === "state") seen.push(update.state.count);
    expect(seen).toEqual([1, 3]);
    const errors = errorsOf(updates);
    expect(errors.map((error) => error.kind)).toEqual(["state"]);
    expect(errors[0].message).toContain("count");
    expect(session.state).toEqual({ count: 3 });
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  it("is undefined while the raw state does not decode", async () => {
    const session = replaySession([ev.runStarted("thread-1", "r"), ev.stateSnapshot({ count: "x" }), ev.runFinished("thread-1", "r")], { state: spec });
    await collect(session.send("go"));
    expect(session.rawState).toEqual({ count: "x" });
    expect(session.state).toBeUndefined();
  });
});

describe("views", () => {
  it("replay the current value and emit changes; snapshots keep identity until something changes", async () => {
    const transport = new ScriptedTransport();
    const session = new Session(transport, { threadId: "t", newId: counter() });
    const running: boolean[] = [];
    session.running$.subscribe((value) => running.push(value));
    const messageCounts: number[] = [];
    session.messages$.subscribe((messages) => messageCounts.push(messages.length));
    const states: unknown[] = [];
    session.rawState$.subscribe((state) => states.push(state));
    let notified = 0;
    const stop = session.subscribe(() => notified++);
    const snapshot = session.getSnapshot();
    expect(session.getSnapshot()).toBe(snapshot);

    session.send("hi").subscribe();
    const input = transport.inputs[0];
    transport.feed.next(rs(input));
    transport.feed.next(ev.stateSnapshot({ a: 1 }));
    transport.feed.next(withSubagentRunId(ev.textMessageStart("m"), "s"));
    transport.feed.next(ev.textMessageEnd("m"));
    transport.feed.next(rf(input));

    expect(running).toEqual([false, true, false]);
    expect(messageCounts).toEqual([0, 1, 2]);
    expect(states).toEqual([{}, { a: 1 }]);
    expect(notified).toBeGreaterThan(0);
    expect(session.getSnapshot()).not.toBe(snapshot);
    expect(session.getSnapshot()).toMatchObject({ messages: session.messages, rawState: { a: 1 }, running: false });
    stop();
    const late = await firstValueFrom(session.messages$);
    expect(late).toBe(session.messages);
    expect(await firstValueFrom(session.interrupts$)).toEqual([]);
    expect(await firstValueFrom(session.subagents$)).toEqual([]);
    expect(await firstValueFrom(session.state$)).toEqual({ a: 1 });
  });

  it("a late subscriber to messages$ gets the current list first, then changes", async () => {
    const transport = new ScriptedTransport();
    const session = new Session(transport, { threadId: "t", newId: counter() });
    session.send("hi").subscribe();
    const next = firstValueFrom(session.messages$.pipe(skip(1), take(1)));
    transport.feed.next(rs(transport.inputs[0]));
    transport.feed.next(ev.textMessageStart("m"));
    expect((await next).map((message) => message.id)).toEqual(["id-1", "m"]);
  });
});

describe("InProcessTransport", () => {
  it("runs a real agent: interrupt, then resume, with the registry across runs", async () => {
    const agent: Agent = {
      async run(ctx) {
        if (!ctx.isResume) {
          const sub = ctx.subagent("checker");
          sub.say("Need approval.");
          const pending = sub.interrupt({ id: "approve", reason: "confirmation" });
          sub.finish(undefined, { type: "suspended", interruptIds: [pending.id] });
          return interrupted(pending);
        }
        ctx.say(`approved: ${JSON.stringify(ctx.resumeFor("approve")?.payload)}`);
        return success({ ok: true });
      },
    };
    const ids = sequentialIds(); // one id source across the runs, as the options object used to be
    const session = new Session(new InProcessTransport((input) => run(agent, input, { ids })), { threadId: "t", newId: counter() });
    const first = await collect(session.send("do it"));
    expect(endOf(first)).toMatchObject({ kind: "interrupted" });
    const subagentId = session.subagents[0]?.id;
    expect(session.subagents).toHaveLength(1);
    expect(session.subagents[0].status.kind).toBe("suspended");
    expect(session.messages[1].subagentRunId).toBe(subagentId);

    const second = await collect(session.resume([{ interruptId: "approve", status: "resolved", payload: true }]));
    expect(endOf(second)).toEqual({ kind: "success", result: { ok: true } });
    expect(session.messages[session.messages.length - 1].content).toBe("approved: true");
    expect(session.interrupts).toEqual([]);
  });

  it("unsubscribing aborts the agent", async () => {
    let aborted: Promise<void> | undefined;
    const agent: Agent = {
      run(ctx) {
        aborted = new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
        return firstValueFrom(NEVER.pipe(toArray())).then(() => success());
      },
    };
    const session = new Session(inProcessTransport(agent), { threadId: "t" });
    const subscription = session.send("x").subscribe();
    subscription.unsubscribe();
    await aborted;
    expect(session.running).toBe(false);
  });
});
