/**
 * A server that goes silent mid-run, over real loopback HTTP (docs/http.md#heartbeats): a raw
 * `node:http` server announces a heartbeat of 1 s, sends RUN_STARTED, then nothing while holding
 * the connection open. `HttpTransport` (on a virtual scheduler: the waiting is the test's, no
 * sleeps) takes three silent seconds as a cut: it fails `stalled` and closes the connection when
 * the server keeps no threads, and resumes through `/connect` after the last id when it does.
 * The official `@ag-ui/client` reads a stream with heartbeats to the same end as one without.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { VirtualTimeScheduler } from "rxjs";
import { HttpAgent } from "@ag-ui/client";
import { ev } from "../../src/protocol/build";
import { HEARTBEAT_HEADER } from "../../src/protocol/heartbeat";
import { RESUMABLE_HEADER } from "../../src/protocol/connectMode";
import { ClientError } from "../../src/thread/ClientError";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { STALLED_CODE } from "../../src/client/transports/stallAfter";
import { success, type Agent } from "../../src/server/Agent";
import { createHandler } from "../../src/server/http/createHandler";
import { serve } from "../../src/node/serve";
import { ManualClock } from "../server/store/manualClock";
import { inputFor, until } from "./durable/support";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

const frame = (event: object, id?: string) => `${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`;

/** One request the server got: its path, its Last-Event-ID, whether its connection closed. */
interface Seen {
  readonly path: string;
  readonly lastEventId: string | undefined;
  closed: boolean;
}

/** A raw server: each request is answered by `answer` (which may leave the response open); what it got is in `seen`. */
async function rawServer(answer: (request: IncomingMessage, response: ServerResponse, index: number) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const entry: Seen = { path: request.url ?? "", lastEventId: request.headers["last-event-id"] as string | undefined, closed: false };
    seen.push(entry);
    response.on("close", () => (entry.closed = true));
    request.resume(); // the body is not read: each answer is scripted
    request.on("end", () => answer(request, response, seen.length - 1));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`, seen };
}

const sse = (extra: Record<string, string>) => ({ "Content-Type": "text/event-stream", "Cache-Control": "no-cache", [HEARTBEAT_HEADER]: "1", ...extra });

test("a server that announced 1 s and went silent mid-run: the run fails `stalled` after 3 s of virtual time, and the connection is closed", async () => {
  const { url, seen } = await rawServer((_, response) => {
    response.writeHead(200, sse({}));
    response.write(frame(ev.runStarted("t1", "r1")));
    // and then nothing, with the connection held open
  });
  const scheduler = new VirtualTimeScheduler();
  const events: string[] = [];
  let failure: unknown;
  new HttpTransport(url, { scheduler })
    .run(inputFor("t1", "r1"))
    .subscribe({ next: (event) => events.push(event.type), error: (error: unknown) => (failure = error) });
  await until(() => events.length === 1 && scheduler.actions.length > 0, "RUN_STARTED and the stall timer");
  expect(scheduler.actions[0].delay).toBe(3000); // three announced beats
  scheduler.flush();
  await until(() => failure !== undefined && seen[0].closed, "the stall to fail the run and close the connection");
  expect(ClientError.isInstance(failure) && [failure.kind, failure.code]).toEqual(["transport", STALLED_CODE]);
  expect((failure as Error).message).toContain("was silent for 3000 ms");
  expect(seen.map((request) => request.path)).toEqual(["/agent"]); // no store: nothing to resume
});

test("a server that keeps threads and went silent mid-run: the transport resumes through /connect after the last id, and the run ends once", async () => {
  const { url, seen } = await rawServer((_, response, index) => {
    response.writeHead(200, sse({ [RESUMABLE_HEADER]: "true" }));
    if (index === 0) {
      response.write(frame(ev.runStarted("t1", "r1"), "c1") + frame(ev.textMessageStart("m1"), "c2"));
      return; // silent from here
    }
    response.end(frame(ev.textMessageContent("m1", "back"), "c3") + frame(ev.textMessageEnd("m1"), "c4") + frame(ev.runFinished("t1", "r1"), "c5"));
  });
  const scheduler = new VirtualTimeScheduler();
  const events: string[] = [];
  let ended: unknown;
  new HttpTransport(url, { scheduler, reconnect: { delay: 0 } }).run(inputFor("t1", "r1")).subscribe({
    next: (event) => events.push(event.type),
    error: (error: unknown) => (ended = error),
    complete: () => (ended = "complete"),
  });
  await until(() => events.length === 2 && scheduler.actions.length > 0, "two events and the stall timer");
  scheduler.flush(); // the silence
  await until(() => seen.length === 2 || scheduler.actions.length > 0, "the reconnect or its wait");
  scheduler.flush(); // the reconnect's wait
  await until(() => ended !== undefined, "the run to end");
  expect(ended).toBe("complete");
  expect(seen.map((request) => [request.path, request.lastEventId])).toEqual([
    ["/agent", undefined],
    ["/agent/connect", "c2"],
  ]);
  expect(seen[0].closed).toBe(true);
  expect(events).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
});

test("the official HttpAgent reads a stream with heartbeats to the same messages as one without", async () => {
  const events = [
    frame(ev.runStarted("t1", "r1")),
    frame(ev.textMessageStart("m1")),
    frame(ev.textMessageContent("m1", "Hello")),
    frame(ev.textMessageContent("m1", " there")),
    frame(ev.textMessageEnd("m1")),
    frame(ev.runFinished("t1", "r1")),
  ];
  const { url } = await rawServer((request, response) => {
    response.writeHead(200, sse({}));
    const beats = request.url?.endsWith("beats") === true;
    // heartbeats before the first event, between events, split across writes, and at the end
    if (beats) response.write(": heartbeat\n\n");
    for (const event of events) response.write(beats ? `${event}: heartbeat\n\n: hea` + "rtbeat\n\n" : event);
    response.end(beats ? ": heartbeat\n\n" : "");
  });
  const read = async (path: string) => {
    const agent = new HttpAgent({ url: `${url}${path}`, threadId: "t1", initialMessages: [{ id: "u1", role: "user", content: "hi" }] });
    const failures: string[] = [];
    await agent.runAgent({ runId: "r1" }, { onRunFailed: ({ error }) => void failures.push(error.message) });
    return { messages: agent.messages, failures };
  };
  const plain = await read("/plain");
  const beating = await read("/beats");
  expect(beating.failures).toEqual([]);
  expect(beating.messages).toEqual(plain.messages);
  expect(beating.messages).toContainEqual(expect.objectContaining({ id: "m1", role: "assistant", content: "Hello there" }));
});

test("the official HttpAgent against createHandler: a run that goes quiet gets heartbeats, and the agent ends with the run's messages and no failure", async () => {
  const clock = new ManualClock();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const agent: Agent = {
    async run(ctx) {
      const message = ctx.assistantMessage({ id: "a1" });
      message.delta("Hello");
      await released;
      message.delta(" again");
      message.end();
      return success();
    },
  };
  const served = await serve(createHandler(agent, { heartbeatMs: 1000, clock }));
  const bodies: string[] = [];
  // the official client's own fetch, with a copy of the bytes it reads kept for the test
  const recording: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    const [mine, theirs] = answer.body!.tee();
    void new Response(mine).text().then((text) => bodies.push(text));
    return new Response(theirs, { status: answer.status, headers: answer.headers });
  };
  try {
    const official = new HttpAgent({
      url: `${served.url}agent`,
      threadId: "t1",
      initialMessages: [{ id: "u1", role: "user", content: "hi" }],
      fetch: recording,
    });
    const failures: string[] = [];
    const done = official.runAgent({ runId: "r1" }, { onRunFailed: ({ error }) => void failures.push(error.message) });
    for (let beat = 0; beat < 3; beat++) {
      await until(() => clock.pending > 0, "the stream to wait with its heartbeat timer");
      clock.advance(1000);
    }
    release();
    await done;
    await until(() => bodies.length === 1, "the copy of the body");
    expect(bodies[0].split(": heartbeat\n\n").length - 1).toBe(3);
    expect(failures).toEqual([]);
    expect(official.messages).toContainEqual(expect.objectContaining({ id: "a1", role: "assistant", content: "Hello again" }));
  } finally {
    await served.close();
  }
});
