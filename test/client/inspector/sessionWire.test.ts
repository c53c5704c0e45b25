/** wireOf(session) (Session.listenWire): what the Session's own transport received, over real loopback HTTP, read by an inspector with no second connection. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { lastValueFrom, toArray } from "rxjs";
import { Inspector } from "../../../src/client/inspector/Inspector";
import { inspectSession } from "../../../src/client/inspector/inspectSession";
import { wireOf, type WireItem } from "../../../src/client/inspector/SessionWire";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { InProcessTransport } from "../../../src/client/transports/InProcessTransport";
import { ev } from "../../../src/protocol/build";
import type { Agent } from "../../../src/server/Agent";
import { of } from "rxjs";
import { closeAll, serveStored } from "../../http/durable/support";
import { counter, errorsOf } from "../support";
import { encodeSse } from "../../../src/wire/encodeSse";

const servers: Server[] = [];

afterEach(async () => {
  await closeAll();
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A loopback server that answers every POST with `pieces`, written one by one (each its own chunk on the wire). */
async function answerWith(pieces: readonly string[]): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const write = (index: number): void => {
        if (index === pieces.length) return void res.end();
        res.write(pieces[index], () => write(index + 1));
      };
      write(0);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
}

/** The bytes items of `items` as one text. */
function bytesOf(items: readonly WireItem[]): string {
  const decoder = new TextDecoder();
  return items
    .map((item) => (item.kind !== "bytes" ? "" : typeof item.bytes === "string" ? item.bytes : decoder.decode(item.bytes, { stream: true })))
    .join("");
}

test("over HTTP: the stream's start, its response, the bytes exactly as sent, the events, its end; the inspector's frames join to the body", async () => {
  const body = [
    encodeSse(ev.runStarted("t1", "r1")),
    encodeSse(ev.textMessageStart("m1")) + encodeSse(ev.textMessageContent("m1", "héllo 👋")).slice(0, 30),
    encodeSse(ev.textMessageContent("m1", "héllo 👋")).slice(30) + encodeSse(ev.textMessageEnd("m1")),
    encodeSse(ev.runFinished("t1", "r1")),
  ];
  const url = await answerWith(body);
  let clock = 0;
  const session = new Session(new HttpTransport(url, { retry: false }), { threadId: "t1", newId: counter("s-") });
  const items: WireItem[] = [];
  const subscription = wireOf(session, () => ++clock).subscribe((item) => items.push(item));
  const inspector = new Inspector();
  const stop = inspectSession(session, inspector);
  await lastValueFrom(session.send("hi").pipe(toArray()));
  subscription.unsubscribe();
  stop();

  expect(items[0]).toMatchObject({ kind: "stream", route: "run" });
  expect(items[1]).toMatchObject({ kind: "response", url });
  expect(bytesOf(items)).toBe(body.join(""));
  expect(items.filter((item) => item.kind === "event").map((item) => (item.kind === "event" ? item.event.type : ""))).toEqual([
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "RUN_FINISHED",
  ]);
  expect(items.at(-1)).toEqual({ kind: "end", at: expect.any(Number) });
  // Times come from the given clock, in order.
  const times = items.map((item) => item.at);
  expect(times).toEqual([...times].sort((a, b) => a - b));

  const { events, errors, streamFindings } = inspector.getSnapshot();
  expect(events.map((event) => event.raw).join("")).toBe(body.join(""));
  expect(events.every((event) => event.rawSource === "received")).toBe(true);
  expect([errors, streamFindings]).toEqual([0, []]);
  expect(inspector.getSnapshot().messages.map((message) => message.content)).toEqual(["héllo 👋"]);
});

test("a bad sequence: the inspector's findings sit where the Session's own errors came", async () => {
  const url = await answerWith([
    encodeSse(ev.runStarted("t1", "r1")),
    encodeSse(ev.textMessageContent("m9", "never started")),
    encodeSse(ev.stateDelta([{ op: "replace", path: "/nope/deeper", value: 1 }])),
    encodeSse(ev.runFinished("t1", "r1")),
  ]);
  const session = new Session(new HttpTransport(url, { retry: false }), { threadId: "t1", newId: counter("s-") });
  const inspector = new Inspector();
  const stop = inspectSession(session, inspector);
  const updates = await lastValueFrom(session.send("hi").pipe(toArray()));
  stop();
  const seen = errorsOf(updates).map((error) => error.message);
  const found = inspector
    .getSnapshot()
    .events.filter((event) => event.findings.length > 0)
    .map((event) => [event.index, event.type, event.findings.map((finding) => finding.message)]);
  expect(found).toEqual([
    [1, "TEXT_MESSAGE_CONTENT", [expect.stringContaining("m9")]],
    [2, "STATE_DELTA", [expect.any(String)]],
  ]);
  expect(found.flatMap(([, , messages]) => messages)).toEqual(seen);
});

test("a join (connect) is a stream of its own, its bytes tapped too, and the inspector folds the thread it replays", async () => {
  const agent: Agent = { run: async (ctx) => void ctx.say("hello", { id: `a-${ctx.runId}` }) };
  const { url } = await serveStored(agent);
  const session = new Session(new HttpTransport(url), { threadId: "joined", newId: counter("s-") });
  await lastValueFrom(session.send("hi").pipe(toArray()));
  const inspector = new Inspector();
  const stop = inspectSession(session, inspector);
  await lastValueFrom(session.connect().pipe(toArray()));
  stop();
  const { events, streams, errors } = inspector.getSnapshot();
  expect(streams).toBe(1);
  expect(events[0]).toMatchObject({ type: "RUN_STARTED", rawSource: "received" });
  expect(events.some((event) => event.type === "MESSAGES_SNAPSHOT")).toBe(true);
  expect(errors).toBe(0);
  expect(inspector.getSnapshot().messages.map((message) => message.content)).toEqual(["hi", "hello"]);
});

test("a transport without bytes: the events, encoded; nothing is tapped before anyone listens, and a listener arriving mid-stream sees the rest of its events", async () => {
  const session = new Session(
    new InProcessTransport((input) => of(ev.runStarted(input.threadId, input.runId), ev.textMessageStart("m1"), ev.runFinished(input.threadId, input.runId))),
    { threadId: "t1", newId: counter("s-") },
  );
  await lastValueFrom(session.send("unseen").pipe(toArray()));
  const items: WireItem[] = [];
  const subscription = wireOf(session).subscribe((item) => items.push(item));
  expect(items).toEqual([]); // nothing kept from before
  let late: WireItem[] = [];
  await lastValueFrom(session.send("seen").pipe(toArray()));
  subscription.unsubscribe();
  expect(items.map((item) => (item.kind === "event" ? item.event.type : item.kind))).toEqual([
    "stream",
    "RUN_STARTED",
    "TEXT_MESSAGE_START",
    "RUN_FINISHED",
    "end",
  ]);

  // Mid-stream: subscribing while a run flows announces that stream first, `late`.
  const slow = new Session(
    new HttpTransport(await answerWith([encodeSse(ev.runStarted("t2", "r1")), encodeSse(ev.runFinished("t2", "r1"))]), { retry: false }),
    {
      threadId: "t2",
      newId: counter("x-"),
    },
  );
  const done = lastValueFrom(slow.send("go").pipe(toArray()));
  const lateSubscription = wireOf(slow).subscribe((item) => (late = [...late, item]));
  await done;
  lateSubscription.unsubscribe();
  // Its start and bytes were before the listener: its events and its end only.
  expect(late.map((item) => (item.kind === "event" ? item.event.type : item.kind))).toEqual(["RUN_STARTED", "RUN_FINISHED", "end"]);
});

test("the session's one listener slot is shared by every subscriber and freed after the last", async () => {
  const session = new Session(new InProcessTransport((input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId))), {
    threadId: "t1",
    newId: counter("s-"),
  });
  const attached: unknown[] = [];
  const listen = session.listenWire.bind(session);
  session.listenWire = (listener) => {
    attached.push(listener);
    listen(listener);
  };
  const first: WireItem[] = [];
  const second: WireItem[] = [];
  const a = wireOf(session).subscribe((item) => first.push(item));
  const b = wireOf(session).subscribe((item) => second.push(item));
  await lastValueFrom(session.send("hi").pipe(toArray()));
  a.unsubscribe();
  expect(attached).toHaveLength(1);
  b.unsubscribe();
  expect(attached).toHaveLength(2);
  expect(attached[1]).toBeUndefined();
  expect(first.map((item) => item.kind)).toEqual(["stream", "event", "event", "end"]);
  expect(second).toEqual(first);
});
