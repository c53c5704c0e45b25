/** logEvents: lines, timing on an injected clock, bounded previews, redaction, the ends of a stream, and the debug options that install it. */
import { Observable, Subject, from, lastValueFrom, of, take, throwError, toArray } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { debugEvents, logEvents, type EventLogEntry } from "../../src/operators/logEvents";
import { Diagnostic, ProtocolError } from "../../src/operators/ProtocolError";
import { DecodeWarning } from "../../src/wire/DecodeWarning";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { RF, RS, TMC, TME, TMS } from "../support/streams";
import { ReplayTransport, Session } from "../../src/client";
import { createHandler, success, type Agent } from "../../src/server";
import { runAgentInput } from "../../src/protocol/build";

const newScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** A logger that keeps what it was given. */
function recorder() {
  const lines: string[] = [];
  const entries: EventLogEntry[] = [];
  return { lines, entries, logger: (line: string, entry: EventLogEntry) => (lines.push(line), entries.push(entry)) };
}

const events = (...list: Event[]) => from(list);
const items = (...list: (Event | Diagnostic | DecodeWarning)[]) => from(list);

const v = { a: RS(), m: TMS("m1"), c: TMC("m1", undefined, "Hello"), e: TME("m1"), f: RF() };

describe("logEvents", () => {
  test("passes every event through unchanged, in order, and completes with the source", () => {
    const log = recorder();
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a 4ms m 2ms c e f |", v);
      expectObservable(source.pipe(logEvents(log.logger, { now: () => scheduler.now() }))).toBe("a 4ms m 2ms c e f |", v);
      expectSubscriptions(source.subscriptions).toBe("^ 10ms !");
    });
    expect(log.entries.map((entry) => [entry.kind, entry.index])).toEqual([
      ["event", 0],
      ["event", 1],
      ["event", 2],
      ["event", 3],
      ["event", 4],
      ["complete", 5],
    ]);
    expect(log.entries.slice(0, 5).map((entry) => entry.item)).toEqual([v.a, v.m, v.c, v.e, v.f]);
  });

  test("prints the time since subscription and since the previous event, from the injected clock", () => {
    const log = recorder();
    const scheduler = newScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const source = cold("a 4ms m 2ms c |", v);
      expectObservable(source.pipe(logEvents(log.logger, { now: () => scheduler.now(), label: "test" }))).toBe("a 4ms m 2ms c |", v);
    });
    expect(log.lines).toEqual([
      '[test] r1 #0 0ms (+0) RUN_STARTED threadId="t1" runId="r1"',
      '[test] r1 #1 5ms (+5) TEXT_MESSAGE_START messageId="m1" role="assistant"',
      '[test] r1 #2 8ms (+3) TEXT_MESSAGE_CONTENT messageId="m1" delta="Hello"',
      "[test] r1 complete after 3 events, 9ms",
    ]);
    expect(log.entries[2]).toEqual({ kind: "event", index: 2, runId: "r1", elapsedMs: 8, sinceLastMs: 3, item: v.c });
  });

  test("names the run only once RUN_STARTED said it; before that the run is ?", () => {
    const log = recorder();
    events(ev.textMessageStart("m0"), RS({ runId: "run-7" }), ev.runFinished("t1", "run-7"))
      .pipe(logEvents(log.logger, { now: () => 0 }))
      .subscribe();
    expect(log.lines.map((line) => line.split(" ").slice(0, 3).join(" "))).toEqual([
      "[agui-rx] ? #0",
      "[agui-rx] run-7 #1",
      "[agui-rx] run-7 #2",
      "[agui-rx] run-7 complete",
    ]);
  });

  test("cuts long strings and large payloads to maxValueChars, and says how much of a string was left out", () => {
    const log = recorder();
    const tasks = Array.from({ length: 100_000 }, (_, i) => ({ id: i, title: `task ${i}` }));
    events(TMC("m1", undefined, "x".repeat(5000)), ev.stateSnapshot({ tasks }))
      .pipe(logEvents(log.logger, { now: () => 0, maxValueChars: 20 }))
      .subscribe();
    expect(log.lines[0]).toBe(`[agui-rx] ? #0 0ms (+0) TEXT_MESSAGE_CONTENT messageId="m1" delta="${"x".repeat(20)}…"(+4980)`);
    expect(log.lines[1]).toBe('[agui-rx] ? #1 0ms (+0) STATE_SNAPSHOT snapshot={"tasks":[{"id":0,"t…');
  });

  test("redacts the named members at any depth", () => {
    const log = recorder();
    events(ev.textMessageContent("m1", "my password is hunter2"), ev.stateSnapshot({ user: { name: "ada", token: "secret" } }))
      .pipe(logEvents(log.logger, { now: () => 0, redact: ["delta", "token"] }))
      .subscribe();
    expect(log.lines[0]).toBe('[agui-rx] ? #0 0ms (+0) TEXT_MESSAGE_CONTENT messageId="m1" delta=[redacted]');
    expect(log.lines[1]).toBe('[agui-rx] ? #1 0ms (+0) STATE_SNAPSHOT snapshot={"user":{"name":"ada","token":"[redacted]"}}');
    expect(log.lines.join("\n")).not.toMatch(/hunter2|secret/);
  });

  test("logs an in-band Diagnostic with its rule and passes it on", () => {
    const log = recorder();
    const diagnostic = new Diagnostic(new ProtocolError("text-message", "R15", TMC("m9"), "TEXT_MESSAGE_CONTENT for m9, which was never started"));
    const seen: unknown[] = [];
    items(RS(), diagnostic)
      .pipe(logEvents(log.logger, { now: () => 0 }))
      .subscribe((item) => seen.push(item));
    expect(seen[1]).toBe(diagnostic);
    expect(log.lines[1]).toBe("[agui-rx] r1 #1 0ms (+0) diagnostic R15: TEXT_MESSAGE_CONTENT for m9, which was never started");
    expect(log.entries[1]).toMatchObject({ kind: "diagnostic", item: diagnostic });
  });

  test("logs an in-band DecodeWarning with its code and passes it on", () => {
    const log = recorder();
    const warning = DecodeWarning.of({ code: "unknown-property", path: "/x", reason: 'TEXT_MESSAGE_END has no member "x"' }, "TEXT_MESSAGE_END", 1);
    const seen: unknown[] = [];
    items(RS(), warning)
      .pipe(logEvents(log.logger, { now: () => 0 }))
      .subscribe((item) => seen.push(item));
    expect(seen[1]).toBe(warning);
    expect(log.lines[1]).toBe(
      '[agui-rx] r1 #1 0ms (+0) warning unknown-property: event 1 (TEXT_MESSAGE_END): removed unknown property /x (TEXT_MESSAGE_END has no member "x")',
    );
    expect(log.entries[1]).toMatchObject({ kind: "warning", item: warning });
  });

  test("logs an error with its message and passes it on", () => {
    const log = recorder();
    newScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold("a #", v, new Error("socket closed")).pipe(logEvents(log.logger, { now: () => 0 }))).toBe("a #", v, new Error("socket closed"));
    });
    expect(log.lines[1]).toBe("[agui-rx] r1 error after 1 events, 0ms: socket closed");
    expect(log.entries[1]?.error).toEqual(new Error("socket closed"));
  });

  test("logs an unsubscription (a cancelled run), and nothing after completion", () => {
    const log = recorder();
    newScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("a m c e f |", v);
      expectObservable(source.pipe(logEvents(log.logger, { now: () => 0 })), "^-!").toBe("a m", v);
      expectSubscriptions(source.subscriptions).toBe("^-!");
    });
    expect(log.lines.at(-1)).toBe("[agui-rx] r1 unsubscribed after 2 events, 0ms");
    expect(log.entries.at(-1)?.kind).toBe("unsubscribe");
  });

  test("stops a synchronous source when unsubscribed downstream", () => {
    let emitted = 0;
    const source = new Observable<Event>((subscriber) => {
      for (let i = 0; i < 1000 && !subscriber.closed; i++) {
        emitted += 1;
        subscriber.next(TMC("m1"));
      }
      subscriber.complete();
    });
    const log = recorder();
    source.pipe(logEvents(log.logger, { now: () => 0 }), take(2)).subscribe();
    expect(emitted).toBe(2);
    expect(log.lines.at(-1)).toBe("[agui-rx] ? unsubscribed after 2 events, 0ms");
  });

  test("a throwing logger errors the stream and unsubscribes a synchronous source", () => {
    let emitted = 0;
    const source = new Observable<Event>((subscriber) => {
      for (let i = 0; i < 1000 && !subscriber.closed; i++) {
        emitted += 1;
        subscriber.next(TMC("m1"));
      }
    });
    let failure: unknown;
    source
      .pipe(
        logEvents(() => {
          throw new Error("logger broke");
        }),
      )
      .subscribe({ error: (error: unknown) => (failure = error) });
    expect(failure).toEqual(new Error("logger broke"));
    expect(emitted).toBe(1);
  });

  test("each subscription counts and times its own stream", () => {
    const log = recorder();
    const subject = new Subject<Event>();
    const logged = subject.pipe(logEvents(log.logger, { now: () => 0 }));
    logged.subscribe();
    subject.next(RS());
    logged.subscribe();
    subject.next(TMS("m1"));
    expect(log.lines.map((line) => line.split(" ")[2])).toEqual(["#0", "#1", "#0"]);
  });
});

describe("debugEvents (the debug option of Session and createHandler)", () => {
  const events = [RS(), RF()];

  test("false or absent logs nothing and returns the stream itself", () => {
    const source = of(...events);
    expect(source.pipe(debugEvents(undefined, "client"))).toBe(source);
    expect(source.pipe(debugEvents(false, "client"))).toBe(source);
  });

  test("true logs with console.debug under the side's label", () => {
    const spy = jest.spyOn(console, "debug").mockImplementation(() => undefined);
    try {
      of(...events)
        .pipe(debugEvents(true, "client"))
        .subscribe();
      expect(spy.mock.calls.map((call) => String(call[0]).split(" ").slice(0, 4).join(" "))).toEqual([
        "[agui-rx client] r1 #0",
        "[agui-rx client] r1 #1",
        "[agui-rx client] r1 complete",
      ]);
    } finally {
      spy.mockRestore();
    }
  });

  test("a function is the logger; an object gives the logger and the options", () => {
    const fn = recorder();
    of(...events)
      .pipe(debugEvents(fn.logger, "server"))
      .subscribe();
    expect(fn.lines[0]).toMatch(/^\[agui-rx server\] r1 #0 /);
    const configured = recorder();
    of(ev.textMessageContent("m1", "secret"))
      .pipe(debugEvents({ logger: configured.logger, redact: ["delta"], now: () => 0 }, "server"))
      .subscribe();
    expect(configured.lines[0]).toBe('[agui-rx server] ? #0 0ms (+0) TEXT_MESSAGE_CONTENT messageId="m1" delta=[redacted]');
  });

  test("an error before any event is logged once, with no run id", () => {
    const log = recorder();
    throwError(() => new Error("x"))
      .pipe(debugEvents<Event>(log.logger, "client"))
      .subscribe({ error: () => undefined });
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatch(/^\[agui-rx client\] \? error after 0 events, \d+ms: x$/);
  });
});

describe("the debug option installs it", () => {
  test("on a Session: every event each run receives, before it is checked", async () => {
    const log = recorder();
    const bad = ev.textMessageContent("m9", "orphan"); // R15: dropped by the verifier, but logged as it arrived
    const session = new Session(new ReplayTransport([RS(), bad, RF()]), { threadId: "t1", debug: { logger: log.logger, now: () => 0 } });
    const updates = await lastValueFrom(session.send("hi").pipe(toArray()));
    expect(updates.map((update) => update.kind)).toEqual(["message", "message", "message", "error", "done"]); // the user message: started, content, ended
    expect(log.lines).toEqual([
      '[agui-rx client] r1 #0 0ms (+0) RUN_STARTED threadId="t1" runId="r1"',
      '[agui-rx client] r1 #1 0ms (+0) TEXT_MESSAGE_CONTENT messageId="m9" delta="orphan"',
      '[agui-rx client] r1 #2 0ms (+0) RUN_FINISHED threadId="t1" runId="r1"',
      // The session lets go of the transport at the run's done (followConnection), before a
      // replayed source could complete: the logger sees the hand-back, not a completion.
      "[agui-rx client] r1 unsubscribed after 3 events, 0ms",
    ]);
  });

  test("on createHandler: every event each run sends", async () => {
    const log = recorder();
    const greeter: Agent = {
      async run(ctx) {
        ctx.say("hello");
        return success();
      },
    };
    const handler = createHandler(greeter, { debug: { logger: log.logger, now: () => 0 } });
    const response = await handler(
      new Request("http://127.0.0.1/agent", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        body: JSON.stringify(runAgentInput("t1", "r1")),
      }),
    );
    const body = await response.text();
    expect(body.split("\n\n").filter(Boolean)).toHaveLength(5);
    expect(log.lines.map((line) => line.replace(/ messageId="[^"]+"/, ' messageId="…"'))).toEqual([
      '[agui-rx server] r1 #0 0ms (+0) RUN_STARTED threadId="t1" runId="r1" protocolVersion="1.0"',
      '[agui-rx server] r1 #1 0ms (+0) TEXT_MESSAGE_START messageId="…" role="assistant"',
      '[agui-rx server] r1 #2 0ms (+0) TEXT_MESSAGE_CONTENT messageId="…" delta="hello"',
      '[agui-rx server] r1 #3 0ms (+0) TEXT_MESSAGE_END messageId="…"',
      '[agui-rx server] r1 #4 0ms (+0) RUN_FINISHED threadId="t1" runId="r1" outcome={"type":"success"}',
      "[agui-rx server] r1 complete after 5 events, 0ms",
    ]);
  });

  test("without it, nothing is logged", async () => {
    const spy = jest.spyOn(console, "debug").mockImplementation(() => undefined);
    try {
      const session = new Session(new ReplayTransport([RS(), RF()]), { threadId: "t1" });
      await lastValueFrom(session.send("hi"));
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });
});
