/**
 * HttpTransport's reconnect (docs/durability.md#stores-and-routes) over real loopback HTTP, through a cutting TCP proxy: what
 * it sends (Last-Event-ID, the run's id), when it does not try (no store: the run fails exactly as
 * without reconnects), the bounds (attempts, backoff, `retry:`, resetOnSuccess), a cursor the
 * store no longer keeps (a snapshot, and the Session restarts its checks), and the default delay.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { from, lastValueFrom, of, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { encodeSse } from "../../../src/wire/encodeSse";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { reconnectDelay, type ReconnectConfig } from "../../../src/client/transports/reconnecting";
import type { Update } from "../../../src/thread/Update";
import { success, type Agent } from "../../../src/server/Agent";
import { createHandler, type FetchHandler, type HandlerOptions } from "../../../src/server/http/createHandler";
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import { serve, type Served } from "../../../src/node/serve";
import { startCutProxy, type CutProxy } from "../../support/cutProxy";
import { cuttingFetch } from "../../support/sseFrames";
import { canonicalIds, gate, until } from "../../http/durable/support";
import { counter, errorsOf } from "../support";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly lastEventId: string | null;
  readonly body: string;
}

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** `agent` behind createHandler (a store unless `store: undefined`), one answer per connection, behind a cutting proxy; every request recorded. */
async function setUp(agent: Agent, options: HandlerOptions & { readonly withStore?: boolean } = {}) {
  const store: MemoryStore | undefined = options.withStore === false ? undefined : ((options.store as MemoryStore | undefined) ?? memoryStore());
  const inner = createHandler(agent, { onRunError: () => undefined, ...options, store, headers: { Connection: "close" } });
  const seen: Seen[] = [];
  const handler: FetchHandler = async (request) => {
    const body = request.method === "POST" ? await request.clone().text() : "";
    seen.push({ method: request.method, path: new URL(request.url).pathname, lastEventId: request.headers.get("last-event-id"), body });
    return inner(request);
  };
  const served: Served = await serve(handler);
  const proxy: CutProxy = await startCutProxy(served.port);
  closing.push(
    () => proxy.close(),
    () => served.close(),
  );
  return { store, seen, proxy, url: proxy.url("/agent") };
}

async function send(transport: HttpTransport, threadId: string, text = "go"): Promise<{ updates: Update[]; session: Session }> {
  const session = new Session(transport, { threadId, newId: counter("u") });
  return { updates: await lastValueFrom(session.send(text).pipe(toArray())), session };
}

const talker: Agent = {
  async run(ctx) {
    const message = ctx.assistantMessage();
    for (const word of "one two three four five six seven eight".split(" ")) message.delta(`${word} `);
    message.end();
    ctx.setState({ words: 8 });
    return success();
  },
};

/** The byte length of one uncut answer of `talker` on a fresh thread. */
async function measure(transport: HttpTransport, proxy: CutProxy): Promise<number> {
  await send(transport, "measure");
  return proxy.served[proxy.served.length - 1];
}

const noWait: ReconnectConfig = { delay: 0 };

test("a cut mid-run: reconnecting, then connected; the /connect carries the last id received and the run's id; the updates are the uncut run's", async () => {
  const { seen, proxy, url } = await setUp(talker);
  const transport = new HttpTransport(url, { reconnect: noWait });
  const length = await measure(transport, proxy);
  const uncut = await send(transport, "uncut");
  proxy.cutNext(Math.floor(length * 0.6));
  const { updates, session } = await send(transport, "cut");
  const connection = updates.filter((update) => update.kind === "connection");
  expect(connection).toEqual([
    { kind: "connection", status: "reconnecting", attempt: 1 },
    { kind: "connection", status: "connected", attempt: 1 },
  ]);
  expect(canonicalIds(updates.filter((update) => update.kind !== "connection"))).toEqual(canonicalIds(uncut.updates));
  expect(session.rawState).toEqual({ words: 8 });
  const reconnect = seen[seen.length - 1];
  expect(reconnect).toMatchObject({ method: "POST", path: "/agent/connect" });
  expect(JSON.parse(reconnect.body)).toEqual({ threadId: "cut", runId: expect.any(String) });
  expect(reconnect.lastEventId).toEqual(expect.any(String));
});

test("without a store nothing is retried: the cut run fails exactly as with reconnect: false, and nothing more is asked", async () => {
  const { seen, proxy, url } = await setUp(talker, { withStore: false });
  const length = await measure(new HttpTransport(url), proxy);
  const failures: Update[][] = [];
  for (const reconnect of [undefined, false] as const) {
    proxy.cutNext(Math.floor(length * 0.6));
    const before = seen.length;
    failures.push((await send(new HttpTransport(url, reconnect === false ? { reconnect: false } : {}), "t")).updates);
    expect(seen.slice(before).map((request) => request.path)).toEqual(["/agent"]);
  }
  const [withDefault, without] = failures;
  expect(withDefault.some((update) => update.kind === "connection")).toBe(false);
  // the same updates, the same failure (its message quotes a random id, so kinds and codes are compared)
  const shape = (updates: Update[]) =>
    canonicalIds(
      updates.map((update) =>
        update.kind === "error" ? { error: update.error.kind, code: update.error.code } : update.kind === "done" ? { done: update.end.kind } : update,
      ),
    );
  expect(shape(withDefault)).toEqual(shape(without));
  expect(withDefault[withDefault.length - 1]).toMatchObject({ kind: "done", end: { kind: "failed" } });
});

test("cut before any answer: a fresh transport asks the capabilities once, then joins the run from its snapshot (a server without a store: fails as before)", async () => {
  for (const withStore of [true, false]) {
    const { seen, proxy, url } = await setUp(talker, { withStore });
    proxy.cutNext(0);
    const { updates, session } = await send(new HttpTransport(url, { reconnect: noWait }), "t");
    if (withStore) {
      expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /agent", "GET /agent/capabilities", "POST /agent/connect"]);
      expect(seen[2].lastEventId).toBeNull();
      expect(JSON.parse(seen[2].body)).toMatchObject({ threadId: "t", runId: expect.any(String) });
      expect(errorsOf(updates)).toEqual([]);
      expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
      expect(session.messages.map((message) => message.content)).toEqual(["go", "one two three four five six seven eight "]);
    } else {
      expect(seen.map((request) => `${request.method} ${request.path}`)).toEqual(["POST /agent", "GET /agent/capabilities"]);
      expect(errorsOf(updates).map((error) => error.kind)).toEqual(["transport"]);
    }
  }
});

test("a reconnect answered 404 (no such route, or a run the store never began) ends the run with the cut itself; other failures are retried up to count, with the delay asked each time", async () => {
  const { proxy, url } = await setUp(talker);
  const length = await measure(new HttpTransport(url, { reconnect: noWait }), proxy);
  proxy.cutNext(Math.floor(length * 0.5));
  const asked: [string, number, number | undefined][] = [];
  const failing = new HttpTransport(url, {
    reconnect: {
      count: 3,
      delay: (error, attempt, retryMs) => {
        asked.push([error instanceof Error ? error.name : String(error), attempt, retryMs]);
        return of(0);
      },
    },
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the transport calls fetch with a URL string
    fetch: (input, init) => (String(input).endsWith("/connect") ? Promise.resolve(new Response("busy", { status: 503 })) : fetch(input, init)),
  });
  const { updates } = await send(failing, "t1");
  expect(updates.filter((update) => update.kind === "connection")).toEqual(
    [1, 2, 3].map((attempt) => ({ kind: "connection", status: "reconnecting", attempt })),
  );
  expect(asked.map(([, attempt]) => attempt)).toEqual([1, 2, 3]);
  const [error] = errorsOf(updates);
  expect(error).toMatchObject({ kind: "transport" });
  expect(error.message).toMatch(/the connection was lost .* and 3 reconnects failed; the last: POST .* answered 503/);

  proxy.cutNext(Math.floor(length * 0.5));
  const gone = new HttpTransport(url, {
    reconnect: noWait,
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the transport calls fetch with a URL string
    fetch: (input, init) => (String(input).endsWith("/connect") ? Promise.resolve(new Response("{}", { status: 404 })) : fetch(input, init)),
  });
  const lost = await send(gone, "t2");
  expect(lost.updates.filter((update) => update.kind === "connection")).toEqual([{ kind: "connection", status: "reconnecting", attempt: 1 }]);
  // the cut (the body ended inside a frame), not the 404
  expect(errorsOf(lost.updates).map((failure) => [failure.kind, failure.code])).toEqual([["decode", "truncated"]]);
});

test("a reconnect to a thread deleted meanwhile fails at once with the server's gone (410, code gone), never an empty thread", async () => {
  const { store, seen, proxy, url } = await setUp(talker);
  const length = await measure(new HttpTransport(url, { reconnect: noWait }), proxy);
  proxy.cutNext(Math.floor(length * 0.5));
  // the wait before the first attempt deletes the thread, as another tab (or the store's expiry) would
  const deleting = new HttpTransport(url, { reconnect: { count: 3, delay: () => from(store?.remove("gone-1") ?? Promise.resolve(false)) } });
  const { updates, session } = await send(deleting, "gone-1");
  expect(updates.filter((update) => update.kind === "connection")).toEqual([{ kind: "connection", status: "reconnecting", attempt: 1 }]);
  const [error] = errorsOf(updates);
  expect(errorsOf(updates)).toHaveLength(1);
  expect(error).toMatchObject({ kind: "http", status: 410, code: "gone" });
  expect(error.message).toMatch(/answered 410 .*gone-1.*no longer knows it: it was deleted, evicted or expired/);
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "failed", code: "gone", message: error.message } });
  expect(seen.filter((request) => request.path.endsWith("/connect")).map((request) => request.lastEventId !== null)).toEqual([true]); // one attempt, after a cursor
  expect(session.messages.length).toBeGreaterThan(1); // what arrived before the cut stays
});

test("resetOnSuccess: a run cut twice survives one attempt per cut; without it, the second cut exhausts the budget", async () => {
  const { url } = await setUp(talker);
  for (const resetOnSuccess of [true, false]) {
    // the answer after 3 frames, then the reconnect's answer after 2 more
    const cutting = cuttingFetch(3, { path: "/agent", times: 1 }).fetch;
    const cuttingAgain = cuttingFetch(2, { path: "/agent/connect", times: 1 }).fetch;
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the transport calls fetch with a URL string
    const fetchBoth: typeof fetch = (input, init) => (new URL(String(input)).pathname.endsWith("/connect") ? cuttingAgain(input, init) : cutting(input, init));
    const { updates } = await send(new HttpTransport(url, { fetch: fetchBoth, reconnect: { count: 1, delay: 0, resetOnSuccess } }), `t-${resetOnSuccess}`);
    const end = updates[updates.length - 1];
    if (resetOnSuccess) expect(end).toEqual({ kind: "done", end: { kind: "success" } });
    else expect(end).toMatchObject({ kind: "done", end: { kind: "failed", message: expect.stringMatching(/1 reconnects failed/) } });
  }
});

test("the server's retry: reaches the delay; the default delay grows exponentially from it, with jitter, capped", async () => {
  // A hand-written SSE server: retry: 1234, one frame with an id, then the connection dies; /connect answers 503.
  const server: Server = createServer((req, res) => {
    if (req.url?.endsWith("/connect")) {
      res.writeHead(503);
      res.end();
      return;
    }
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write(`retry: 1234\n\nid: c1\n${encodeSse(ev.runStarted("t", "r"))}`, () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo; // a TCP listener's address
  const retries: (number | undefined)[] = [];
  const delay = (_error: unknown, _attempt: number, retryMs: number | undefined) => {
    retries.push(retryMs);
    return of(0);
  };
  const transport = new HttpTransport(`http://127.0.0.1:${port}/agent`, { reconnect: { count: 2, delay } });
  const failure = await lastValueFrom(
    transport.run({ threadId: "t", runId: "r", messages: [], tools: [], context: [] }, { connection: true }).pipe(toArray()),
  ).catch((error: unknown) => error);
  expect(failure).toMatchObject({ kind: "transport", message: expect.stringMatching(/2 reconnects failed/) });
  expect(retries).toEqual([1234, 1234]);

  expect(reconnectDelay(1, 1234, () => 0)).toBe(617);
  expect(reconnectDelay(1, undefined, () => 0.999999)).toBeCloseTo(500, 0);
  expect([1, 2, 3, 4].map((attempt) => reconnectDelay(attempt, undefined, () => 0))).toEqual([250, 500, 1000, 2000]);
  expect(reconnectDelay(20, undefined, () => 0)).toBe(5000); // capped at 10 s before jitter
  for (let i = 0; i < 100; i++) {
    const delay = reconnectDelay(3, 100);
    expect(delay).toBeGreaterThanOrEqual(200);
    expect(delay).toBeLessThan(400);
  }
});

test("a cursor the store no longer keeps: the reconnect gets the snapshot, the Session restarts its checks, and the run ends as it did on the server", async () => {
  const halfway = gate();
  const resume = gate();
  const wordy: Agent = {
    async run(ctx) {
      const message = ctx.assistantMessage();
      message.delta("start ");
      halfway.open();
      await resume.opened;
      for (let i = 0; i < 60; i++) message.delta(`word${i} `.padEnd(60, "."));
      message.end();
      ctx.setState({ done: true });
      return success();
    },
  };
  // Small enough that another thread's run drops this run's events while the client is away (a live run's never are).
  const store = memoryStore({ maxBytes: 30_000, maxRunBytes: 22_000 });
  const { url } = await setUp(wordy, { store });
  const trimmed = gate();
  const reconnecting = gate();
  const transport = new HttpTransport(url, {
    fetch: cuttingFetch(2, { path: "/agent", times: 1 }).fetch, // after RUN_STARTED and TEXT_MESSAGE_START
    reconnect: {
      delay: () => {
        reconnecting.open();
        return from(trimmed.opened);
      },
    },
  });
  const session = new Session(transport, { threadId: "t", newId: counter("u") });
  const updates = lastValueFrom(session.send("go").pipe(toArray()));
  await halfway.opened;
  await reconnecting.opened;
  resume.open();
  await until(() => store.stats().liveRuns === 0, "the run to end on the server");
  const other = await store.beginRun(runAgentInput("other", "r1"));
  await other.append([ev.textMessageStart("o1")]);
  for (let i = 0; i < 20 && store.stats().droppedRunLogs === 0; i++) await other.append([ev.textMessageContent("o1", "o".repeat(1000))]);
  expect(store.stats().droppedRunLogs).toBe(1); // the run's events, the only ended ones
  const read = await store.read("t");
  if (read?.kind !== "snapshot") throw new Error("expected the snapshot path");
  trimmed.open();
  const seen = await updates;
  expect(errorsOf(seen)).toEqual([]);
  expect(seen.filter((update) => update.kind === "done")).toEqual([{ kind: "done", end: { kind: "success" } }]);
  const connected = seen.findIndex((update) => update.kind === "connection" && update.status === "connected");
  expect(seen[connected + 1]).toMatchObject({ kind: "messages" }); // the snapshot's MESSAGES_SNAPSHOT, in a pipeline of its own
  expect(session.messages).toEqual(read.snapshot.messages);
  expect(session.rawState).toEqual({ done: true });
});
