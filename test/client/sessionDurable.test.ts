/**
 * The Session's durable-thread members (docs/durability.md#stores-and-routes) against scripted transports: hydration from
 * stored messages, state and interrupts; connect() (a joined run, an unknown thread, refusals);
 * stop(); and followConnection (connection updates, a restart for a snapshot answer, a synchronous
 * transport let go).
 */
import * as t from "io-ts";
import { from, lastValueFrom, Observable, of, Subject, throwError, toArray } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import { stateSpec } from "../../src/protocol/stateSpec";
import type { DecodeWarning } from "../../src/wire/DecodeWarning";
import { ClientError } from "../../src/thread/ClientError";
import { Session } from "../../src/client/Session";
import { followConnection } from "../../src/client/followConnection";
import { applyEvents } from "../../src/client/applyEvents";
import { ClientState } from "../../src/thread/reducers/ClientState";
import { normalizeAndVerify } from "../../src/operators/normalizeAndVerify";
import { ConnectionNotice } from "../../src/client/transports/ConnectionNotice";
import type { ConnectRequest, StopRequest, StopResult, Transport } from "../../src/client/transports/Transport";
import type { Update } from "../../src/thread/Update";
import { counter, errorsOf, kinds } from "./support";

type Item = Event | DecodeWarning | ConnectionNotice;

/** A transport that can join and stop, answering from scripts and recording what it was asked. */
class ThreadTransport implements Transport {
  readonly inputs: RunAgentInput[] = [];
  readonly connects: ConnectRequest[] = [];
  readonly stops: StopRequest[] = [];
  constructor(
    private readonly runAnswer: (input: RunAgentInput) => Observable<Item>,
    private readonly connectAnswer: () => Observable<Item> = () => throwError(() => new ClientError("http", "404", { status: 404 })),
    private readonly stopAnswer: StopResult = "stopping",
  ) {}
  run(input: RunAgentInput): Observable<Item> {
    this.inputs.push(input);
    return this.runAnswer(input);
  }
  connect(request: ConnectRequest): Observable<Item> {
    this.connects.push(request);
    return this.connectAnswer();
  }
  async stop(request: StopRequest): Promise<StopResult> {
    this.stops.push(request);
    return this.stopAnswer;
  }
}

const finish = (input: RunAgentInput) => of<Item[]>(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId));
const Board = t.type({ tasks: t.array(t.string) });
const board = stateSpec(Board, { tasks: [] });

describe("hydration", () => {
  const stored = [
    { id: "u1", role: "user" as const, content: "add milk" },
    { id: "a1", role: "assistant" as const, content: "Added." },
  ];

  test("a Session starts from stored messages, state and interrupts, and its next run sends them", async () => {
    const transport = new ThreadTransport(finish);
    const interrupts = [{ id: "i1", reason: "confirmation" }];
    const session = new Session(transport, { threadId: "t", state: board, messages: stored, rawState: { tasks: ["milk"] }, interrupts, newId: counter() });
    expect(session.messages).toEqual(stored);
    expect(session.state).toEqual({ tasks: ["milk"] });
    expect(session.interrupts).toEqual(interrupts);
    await lastValueFrom(session.resume([{ interruptId: "i1", status: "resolved" }]).pipe(toArray()));
    expect(transport.inputs[0]).toMatchObject({ messages: stored, state: { tasks: ["milk"] }, resume: [{ interruptId: "i1", status: "resolved" }] });
    // the hydrated arrays are copies the caller may go on changing
    expect(session.messages).not.toBe(stored);
  });

  test("invalid stored messages are refused with a config error naming the member; a state that does not decode leaves state undefined", () => {
    const bad = [{ id: "u1", role: "user", content: 7 }] as unknown as typeof stored; // what a corrupted storage may hand back
    expect(() => new Session(new ThreadTransport(finish), { threadId: "t", messages: bad })).toThrow(ClientError);
    expect(() => new Session(new ThreadTransport(finish), { threadId: "t", messages: bad })).toThrow(/messages to hydrate from are invalid at \/0/);
    const session = new Session(new ThreadTransport(finish), { threadId: "t", state: board, rawState: { tasks: 3 } });
    expect(session.rawState).toEqual({ tasks: 3 });
    expect(session.state).toBeUndefined();
  });
});

describe("connect()", () => {
  const prelude = [ev.runStarted("t", "r7"), ev.messagesSnapshot([{ id: "u1", role: "user", content: "hi" }]), ev.stateSnapshot({ tasks: ["milk"] })];

  test("joins a run in progress: the history replaces what the session held, the live rest follows, one done; stop() names the joined run", async () => {
    const live = new Subject<Item>();
    const transport = new ThreadTransport(
      finish,
      () =>
        new Observable<Item>((subscriber) => {
          for (const event of [...prelude, ev.textMessageStart("a1", { role: "assistant" })]) subscriber.next(event);
          return live.subscribe(subscriber);
        }),
    );
    const session = new Session(transport, { threadId: "t", state: board, messages: [{ id: "old", role: "user", content: "stale" }] });
    const updates: Update[] = [];
    session.connect().subscribe((update) => updates.push(update));
    expect(session.running).toBe(true);
    expect(session.messages.map((message) => message.id)).toEqual(["u1", "a1"]);
    expect(await session.stop()).toBe("stopping");
    expect(transport.stops).toEqual([{ threadId: "t", runId: "r7" }]);
    live.next(ev.textMessageContent("a1", "Hello"));
    live.next(ev.textMessageEnd("a1"));
    live.next(ev.runFinished("t", "r7", { outcome: { type: "cancelled" } }));
    expect(kinds(updates)).toEqual(["messages", "state", "message", "message", "message", "done"]);
    expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "cancelled" } });
    expect(session.running).toBe(false);
    expect(transport.connects).toEqual([{ threadId: "t" }]);
    expect(await session.stop()).toBe("idle");
  });

  test("an idle thread: the history, then done at once (interrupted when the thread waits on interrupts)", async () => {
    const interrupt = { id: "i1", reason: "confirmation" };
    const transport = new ThreadTransport(finish, () =>
      from<Item[]>([...prelude, ev.runFinished("t", "r7", { outcome: { type: "interrupt", interrupts: [interrupt] } })]),
    );
    const session = new Session(transport, { threadId: "t" });
    const updates = await lastValueFrom(session.connect().pipe(toArray()));
    expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "interrupted", interrupts: [interrupt] } });
    expect(session.interrupts).toEqual([interrupt]);
    expect(session.rawState).toEqual({ tasks: ["milk"] });
  });

  test("a new thread (the server's mode new: RUN_STARTED, RUN_FINISHED): one done success, hydrated messages and state kept, idle after", async () => {
    const fresh = () => of<Item[]>(ev.runStarted("t", "r0"), ev.runFinished("t", "r0"));
    const session = new Session(new ThreadTransport(finish, fresh), {
      threadId: "t",
      state: board,
      messages: [{ id: "u1", role: "user", content: "kept" }],
      rawState: { tasks: ["milk"] },
    });
    const updates = await lastValueFrom(session.connect().pipe(toArray()));
    expect(updates).toEqual([{ kind: "done", end: { kind: "success" } }]);
    expect(session.running).toBe(false);
    expect(session.messages.map((message) => message.content)).toEqual(["kept"]);
    expect(session.state).toEqual({ tasks: ["milk"] });
  });

  test("a server that keeps no threads (404 without its refusal, 404 not-resumable, 405): one error, then done failed with code not-resumable", async () => {
    const answers = [
      new ClientError("http", "404", { status: 404 }),
      new ClientError("http", "POST /agent/connect answered 404", { status: 404, code: "not-resumable" }),
      new ClientError("http", "405", { status: 405 }),
    ];
    for (const answer of answers) {
      const session = new Session(new ThreadTransport(finish, () => throwError(() => answer)), {
        threadId: "t",
        messages: [{ id: "u1", role: "user", content: "kept" }],
      });
      const updates = await lastValueFrom(session.connect().pipe(toArray()));
      expect(kinds(updates)).toEqual(["error", "done"]);
      expect(errorsOf(updates)[0]).toMatchObject({
        kind: "http",
        code: "not-resumable",
        status: answer.status,
        message: expect.stringMatching(/keeps no threads/),
      });
      expect(updates[1]).toEqual({ kind: "done", end: { kind: "failed", code: "not-resumable", message: errorsOf(updates)[0].message } });
      expect(session.running).toBe(false);
      expect(session.messages.map((message) => message.content)).toEqual(["kept"]);
    }
  });

  test("refused (error, then done failed) while a run is active, for a forbidden thread, and by a transport that cannot join", async () => {
    const pending = new Subject<Item>();
    const transport = new ThreadTransport(
      () => pending,
      () => throwError(() => new ClientError("http", "403 forbidden", { status: 403 })),
    );
    const session = new Session(transport, { threadId: "t", newId: counter() });
    session.send("hi").subscribe();
    const busy = await lastValueFrom(session.connect().pipe(toArray()));
    expect(kinds(busy)).toEqual(["error", "done"]);
    expect(errorsOf(busy)[0]).toMatchObject({ kind: "config", message: expect.stringMatching(/already active/) });
    pending.next(ev.runStarted("t", transport.inputs[0].runId));
    pending.next(ev.runFinished("t", transport.inputs[0].runId));
    const forbidden = await lastValueFrom(session.connect().pipe(toArray()));
    expect(errorsOf(forbidden)[0]).toMatchObject({ kind: "http", status: 403 });
    const plain: Transport = { run: finish };
    const cannot = await lastValueFrom(new Session(plain, { threadId: "t" }).connect().pipe(toArray()));
    expect(errorsOf(cannot)[0]).toMatchObject({ kind: "config", code: "no-connect", message: expect.stringMatching(/cannot join a thread/) });
    expect(cannot[cannot.length - 1]).toMatchObject({ kind: "done", end: { kind: "failed", code: "no-connect" } });
  });
});

describe("stop()", () => {
  test("idle without a run; unavailable without a transport stop; else the transport's answer for the active run", async () => {
    const pending = new Subject<Item>();
    const transport = new ThreadTransport(() => pending, undefined, "ended");
    const session = new Session(transport, { threadId: "t", newId: counter("r") });
    expect(await session.stop()).toBe("idle");
    session.send("hi").subscribe();
    expect(await session.stop()).toBe("ended");
    expect(transport.stops).toEqual([{ threadId: "t", runId: transport.inputs[0].runId }]);
    const plain = new Session({ run: () => pending }, { threadId: "t" });
    plain.send("hi").subscribe();
    expect(await plain.stop()).toBe("unavailable");
  });
});

describe("followConnection", () => {
  const pipeline = (state: ClientState<unknown>) => (events: Observable<Event | DecodeWarning>) =>
    events.pipe(normalizeAndVerify({ newId: counter() }), applyEvents({ state }));

  test("notices become connection updates where they stood; a restart gives what follows a fresh pipeline (no protocol error, one done)", async () => {
    const cut: Item[] = [ev.runStarted("t", "r"), ev.textMessageStart("m1", { role: "assistant" }), ev.textMessageContent("m1", "Hal")];
    const snapshot: Item[] = [
      ev.runStarted("t", "r"),
      ev.messagesSnapshot([{ id: "m1", role: "assistant", content: "Hallo" }]),
      ev.stateSnapshot({}),
      ev.textMessageStart("m1", { role: "assistant" }),
      ev.textMessageContent("m1", " world"),
      ev.textMessageEnd("m1"),
      ev.runFinished("t", "r"),
    ];
    const restarted = await lastValueFrom(
      from<Item[]>([...cut, new ConnectionNotice("reconnecting", 1), new ConnectionNotice("connected", 1, true), ...snapshot]).pipe(
        followConnection(pipeline(ClientState.untyped())),
        toArray(),
      ),
    );
    expect(errorsOf(restarted)).toEqual([]);
    expect(restarted.filter((update) => update.kind === "connection")).toEqual([
      { kind: "connection", status: "reconnecting", attempt: 1 },
      { kind: "connection", status: "connected", attempt: 1 },
    ]);
    expect(restarted.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
    // without the restart the same items break the ordering rules: the restart is what makes them applicable
    const continued = await lastValueFrom(
      from<Item[]>([...cut, new ConnectionNotice("connected", 1), ...snapshot]).pipe(followConnection(pipeline(ClientState.untyped())), toArray()),
    );
    expect(errorsOf(continued).map((error) => error.kind)).toContain("protocol");
  });

  test("a synchronous transport is let go once the run's done is out", () => {
    let sent = 0;
    const chatty = new Observable<Item>((subscriber) => {
      subscriber.next(ev.runStarted("t", "r"));
      subscriber.next(ev.runFinished("t", "r"));
      for (let i = 0; i < 100 && !subscriber.closed; i++) {
        sent++;
        subscriber.next(ev.runStarted("t", `extra-${i}`));
      }
    });
    const updates: Update[] = [];
    chatty.pipe(followConnection(pipeline(ClientState.untyped()))).subscribe((update) => updates.push(update));
    expect(kinds(updates)).toEqual(["done"]);
    expect(sent).toBe(0);
  });
});
