/**
 * Paginated history in the Session (docs/threads.md#in-the-client): a join with a limit, `hasOlder`,
 * `loadOlder` putting a page in front, and a later MESSAGES_SNAPSHOT keeping the pages already
 * loaded, against a scripted transport that answers like the routes.
 */
import { lastValueFrom, Observable, of, Subject, toArray } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { RunAgentInput } from "../../src/protocol/input";
import type { Message } from "../../src/protocol/messages";
import { ClientError } from "../../src/thread/ClientError";
import type { HistoryPage, HistoryRequest } from "../../src/thread/threadList";
import { Session } from "../../src/client/Session";
import { ConnectionNotice } from "../../src/client/transports/ConnectionNotice";
import type { ConnectRequest, Transport } from "../../src/client/transports/Transport";
import type { Update } from "../../src/thread/Update";

const thread: Message[] = Array.from({ length: 10 }, (_, index) => ({
  id: `m${index}`,
  role: index % 2 === 0 ? "user" : "assistant",
  content: `text ${index}`,
}));

/** Answers a join with the last `limit` messages (telling `onHasOlder`, as the header does) and history pages from `thread`. */
class PagedThread implements Transport {
  readonly histories: HistoryRequest[] = [];
  messages: Message[] = thread;
  /** What a run answers; a run is refused unless a test sets it. */
  answer: ((input: RunAgentInput) => Observable<Event | ConnectionNotice>) | undefined;
  run(input: RunAgentInput): Observable<Event | ConnectionNotice> {
    if (this.answer === undefined) throw new Error("not used");
    return this.answer(input);
  }
  connect(request: ConnectRequest): Observable<Event> {
    const start = request.limit === undefined ? 0 : Math.max(0, this.messages.length - request.limit);
    request.onHasOlder?.(start > 0);
    return of(ev.runStarted(request.threadId, "join"), ev.messagesSnapshot(this.messages.slice(start)), ev.runFinished(request.threadId, "join"));
  }
  async history(request: HistoryRequest): Promise<HistoryPage> {
    this.histories.push(request);
    const end = this.messages.findIndex((message) => message.id === request.before);
    const start = Math.max(0, end - request.limit);
    return { messages: this.messages.slice(start, end), hasOlder: start > 0 };
  }
}

const idsOf = (session: Session) => session.messages.map((message) => message.id);

describe("Session: paginated history", () => {
  it("connect({ limit }) holds the last messages and says older ones exist; loadOlder puts the pages in front until none is left", async () => {
    const transport = new PagedThread();
    const session = new Session(transport, { threadId: "t1" });
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    expect(idsOf(session)).toEqual(["m6", "m7", "m8", "m9"]);
    expect(session.hasOlder).toBe(true);
    const seen: (readonly Message[])[] = [];
    session.messages$.subscribe((messages) => seen.push(messages));
    const page = await session.loadOlder(4);
    expect(page.messages.map((message) => message.id)).toEqual(["m2", "m3", "m4", "m5"]);
    expect(transport.histories).toEqual([{ threadId: "t1", before: "m6", limit: 4 }]);
    expect(idsOf(session)).toEqual(["m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"]);
    expect(seen.length).toBe(2); // the views heard the change
    await session.loadOlder(4);
    expect(idsOf(session)).toEqual(thread.map((message) => message.id));
    expect(session.hasOlder).toBe(false);
    // nothing older: answered without asking
    expect(await session.loadOlder()).toEqual({ messages: [], hasOlder: false });
    expect(transport.histories.length).toBe(2);
  });

  it("the session's historyLimit is the join's limit and the page size", async () => {
    const transport = new PagedThread();
    const session = new Session(transport, { threadId: "t1", historyLimit: 3 });
    await lastValueFrom(session.connect().pipe(toArray()));
    expect(idsOf(session)).toEqual(["m7", "m8", "m9"]);
    await session.loadOlder();
    expect(transport.histories[0].limit).toBe(3);
  });

  it("a second join whose snapshot starts inside what is held keeps the older pages in front of it", async () => {
    const transport = new PagedThread();
    const session = new Session(transport, { threadId: "t1" });
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    await session.loadOlder(4);
    // the thread moved on meanwhile; the join (as a snapshot-path reconnect would) carries only the last 4
    transport.messages = [...thread, { id: "m10", role: "user", content: "more" }];
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    expect(idsOf(session)).toEqual(["m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10"]);
    expect(session.hasOlder).toBe(true);
    expect((await session.loadOlder(4)).messages.map((message) => message.id)).toEqual(["m0", "m1"]);
  });

  it("a snapshot that does not start inside what is held replaces it, and hasOlder is what its answer said", async () => {
    const transport = new PagedThread();
    const session = new Session(transport, { threadId: "t1" });
    await lastValueFrom(session.connect({ limit: 2 }).pipe(toArray()));
    transport.messages = [...thread, ...Array.from({ length: 5 }, (_, index): Message => ({ id: `n${index}`, role: "user", content: "later" }))];
    await lastValueFrom(session.connect({ limit: 2 }).pipe(toArray()));
    expect(idsOf(session)).toEqual(["n3", "n4"]);
    expect(session.hasOlder).toBe(true);
    // the whole thread (no limit): nothing older
    await lastValueFrom(session.connect().pipe(toArray()));
    expect(session.messages.length).toBe(15);
    expect(session.hasOlder).toBe(false);
  });

  it("without a windowed join a MESSAGES_SNAPSHOT replaces the messages as AG-UI says", async () => {
    const held: Message[] = [
      { id: "x", role: "user", content: "local" },
      { id: "m8", role: "user", content: "text 8" },
    ];
    const transport: Transport = {
      run: (input) => of(ev.runStarted(input.threadId, input.runId), ev.messagesSnapshot(thread.slice(8)), ev.runFinished(input.threadId, input.runId)),
    };
    const session = new Session(transport, { threadId: "t1", messages: held });
    await lastValueFrom(session.resume([]).pipe(toArray()));
    expect(idsOf(session)).toEqual(["m8", "m9"]);
  });

  it("calls while a page is read share it, and a page that arrives after a snapshot replaced the oldest message is dropped", async () => {
    const transport = new PagedThread();
    const session = new Session(transport, { threadId: "t1" });
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    const [one, two] = [session.loadOlder(2), session.loadOlder(2)];
    expect(await one).toBe(await two);
    expect(transport.histories.length).toBe(1);
    expect(idsOf(session)).toEqual(["m4", "m5", "m6", "m7", "m8", "m9"]);

    let release: (page: HistoryPage) => void = () => undefined;
    transport.history = (request) => {
      transport.histories.push(request);
      return new Promise((resolve) => (release = resolve));
    };
    const late = session.loadOlder(2);
    transport.messages = [{ id: "z0", role: "user", content: "elsewhere" }];
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    release({ messages: [thread[2], thread[3]], hasOlder: true });
    await late;
    expect(idsOf(session)).toEqual(["z0"]);
  });

  it("a run restarted by a windowed snapshot after loadOlder read a page mid-run keeps the pages in front and the run's messages in order", async () => {
    const transport = new PagedThread();
    const answer = new Subject<Event | ConnectionNotice>();
    let input: RunAgentInput | undefined;
    transport.answer = (posted) => {
      input = posted;
      return answer;
    };
    const session = new Session(transport, { threadId: "t1" });
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    const updates: Update<unknown>[] = [];
    const ended = new Promise<void>((resolve) =>
      session.send({ id: "u1", role: "user", content: "hi" }).subscribe({ next: (update) => updates.push(update), complete: resolve }),
    );
    const runId = input?.runId ?? "";
    answer.next(ev.runStarted("t1", runId));
    answer.next(ev.textMessageStart("a1"));
    answer.next(ev.textMessageContent("a1", "Hel"));
    await session.loadOlder(4);
    expect(idsOf(session)).toEqual(["m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "u1", "a1"]);
    // cut; the reconnect is answered with a snapshot (a restart) of the thread's last 4 messages, as a windowed join's
    answer.next(new ConnectionNotice("reconnecting", 1));
    answer.next(new ConnectionNotice("connected", 1, true));
    answer.next(ev.runStarted("t1", runId));
    answer.next(ev.messagesSnapshot([thread[8], thread[9], { id: "u1", role: "user", content: "hi" }, { id: "a1", role: "assistant", content: "Hel" }]));
    answer.next(ev.textMessageStart("a1")); // the prelude re-opens the message in flight
    answer.next(ev.textMessageContent("a1", "lo"));
    answer.next(ev.textMessageEnd("a1"));
    answer.next(ev.runFinished("t1", runId));
    answer.complete();
    await ended;
    expect(updates.filter((update) => update.kind === "error")).toEqual([]);
    expect(updates[updates.length - 1]).toMatchObject({ kind: "done", end: { kind: "success" } });
    expect(idsOf(session)).toEqual(["m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "u1", "a1"]);
    expect(session.messages[session.messages.length - 1]).toMatchObject({ id: "a1", content: "Hello" });
    expect(session.hasOlder).toBe(true);
  });

  it("refuses a limit that is not a whole number of at least 1, and a transport that cannot read history", async () => {
    const session = new Session(new PagedThread(), { threadId: "t1" });
    const updates = await lastValueFrom(session.connect({ limit: 0 }).pipe(toArray()));
    expect(updates[0]).toMatchObject({ kind: "error", error: { kind: "config", message: "connect: expected a limit of at least 1 whole message, but got 0" } });
    await lastValueFrom(session.connect({ limit: 4 }).pipe(toArray()));
    await expect(session.loadOlder(2.5)).rejects.toThrow("loadOlder: expected a limit of at least 1 whole message, but got 2.5");
    const plain = new Session({ run: () => of() }, { threadId: "t1" });
    await expect(plain.loadOlder()).rejects.toBeInstanceOf(ClientError);
  });
});
