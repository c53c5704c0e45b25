/**
 * Retries that cannot run an agent twice (issue #20 A3), over real loopback HTTP: `/connect`
 * answered 503 with Retry-After is tried again and the join succeeds; a refused connection is
 * tried again once a server appears and the run happens once; a connection cut after the server
 * read the body is never POSTed again (the run is resumed through `/connect`, or fails); a 500 or
 * a 409 is never tried again. The transport's waits run on a virtual clock turned by the test.
 */
import { VirtualTimeScheduler } from "rxjs";
import { ClientError } from "../../src/thread/ClientError";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Update } from "../../src/thread/Update";
import { serve, type Served } from "../../src/node/serve";
import { success, type Agent } from "../../src/server/Agent";
import { createHandler, type FetchHandler, type HandlerOptions } from "../../src/server/http/createHandler";
import { errorResponse } from "../../src/server/http/errorResponse";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { startCutProxy } from "../support/cutProxy";
import { collect, counter, endOf, errorsOf } from "../client/support";
import { until } from "./durable/support";

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** An agent that answers "done" and counts its calls. */
function countingAgent(): { agent: Agent; calls: () => number } {
  let calls = 0;
  const agent: Agent = {
    async run(ctx) {
      calls++;
      ctx.say("done");
      return success();
    },
  };
  return { agent, calls: () => calls };
}

/** `inner` with every request recorded as "METHOD /path", and an optional answer of its own for a request. */
function recorded(
  inner: FetchHandler,
  answer: (path: string, method: string) => Response | undefined = () => undefined,
): { handler: FetchHandler; seen: string[] } {
  const seen: string[] = [];
  const handler: FetchHandler = async (request) => {
    const path = new URL(request.url).pathname;
    seen.push(`${request.method} ${path}`);
    return answer(path, request.method) ?? inner(request);
  };
  return { handler, seen };
}

async function serveOn(handler: FetchHandler, port?: number): Promise<Served> {
  const served = await serve(handler, port === undefined ? {} : { port });
  closing.push(() => served.close());
  return served;
}

/** A store-backed handler for `agent` (one answer per connection, so a cut proxy's offsets are per answer). */
function storedHandler(agent: Agent, options: HandlerOptions = {}): FetchHandler {
  return createHandler(agent, { onRunError: () => undefined, store: memoryStore(), headers: { Connection: "close" }, ...options });
}

/**
 * A virtual clock the test turns: `drive` awaits a promise, and each time the transport waits (a
 * retry's or a reconnect's timer) runs `beforeWait`, then the wait at once, recording its length.
 */
function handClock() {
  const scheduler = new VirtualTimeScheduler();
  const waits: number[] = [];
  return {
    scheduler,
    waits,
    async drive<T>(promise: Promise<T>, beforeWait: () => Promise<void> = async () => undefined): Promise<T> {
      let settled = false;
      const done = promise.finally(() => (settled = true));
      done.catch(() => undefined); // awaited below; this only keeps it from counting as unhandled meanwhile
      for (;;) {
        await until(() => settled || scheduler.actions.length > 0, "the request to end or to wait");
        if (settled) return done;
        await beforeWait();
        const from = scheduler.frame;
        scheduler.flush();
        waits.push(scheduler.frame - from);
      }
    },
  };
}

const connections = (updates: readonly Update[]) => updates.flatMap((update) => (update.kind === "connection" ? [`${update.status} ${update.attempt}`] : []));
const storeRestarting = () =>
  errorResponse(503, { error: "unavailable", message: "expected Redis to answer, but the connection is closed" }, { "Retry-After": "1" });

test("/connect answered 503 with Retry-After: 1 twice, then 200: session.connect() succeeds after two waits of 1 s", async () => {
  const { agent } = countingAgent();
  let refusals = 2;
  const { handler, seen } = recorded(storedHandler(agent), (path) => (path.endsWith("/connect") && refusals-- > 0 ? storeRestarting() : undefined));
  const served = await serveOn(handler);
  const url = `${served.url}agent`;
  const writer = new Session(new HttpTransport(url), { threadId: "restart", newId: counter("w") });
  await collect(writer.send("hello"));

  const clock = handClock();
  const reader = new Session(new HttpTransport(url, { scheduler: clock.scheduler }), { threadId: "restart" });
  const updates = await clock.drive(collect(reader.connect()));
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect(reader.messages).toEqual(writer.messages);
  expect(clock.waits).toEqual([1000, 1000]); // the Retry-After, longer than the backoff's 250–500 and 500–1000 ms
  expect(seen.filter((request) => request.endsWith("/connect"))).toHaveLength(3);
  expect(connections(updates)).toEqual(["reconnecting 1", "reconnecting 2", "connected 2"]);
});

test("without retries (retry: false), the same 503 fails the join at once", async () => {
  const { agent } = countingAgent();
  const { handler } = recorded(storedHandler(agent), (path) => (path.endsWith("/connect") ? storeRestarting() : undefined));
  const served = await serveOn(handler);
  const session = new Session(new HttpTransport(`${served.url}agent`, { retry: false }), { threadId: "restart" });
  const updates = await collect(session.connect());
  expect(errorsOf(updates).map((error) => [error.kind, error.status, error.retryAfterMs])).toEqual([["http", 503, 1000]]);
});

test("a refused connection, then a server appears on that port: the POST is sent again and the agent runs once", async () => {
  const vacated = await serve(async () => new Response(""));
  const port = vacated.port;
  await vacated.close(); // nothing listens on `port` now: a connect is refused
  const { agent, calls } = countingAgent();
  const { handler, seen } = recorded(storedHandler(agent));
  const clock = handClock();
  const session = new Session(new HttpTransport(`http://127.0.0.1:${port}/agent`, { scheduler: clock.scheduler }), { threadId: "late", newId: counter("u") });
  let server: Served | undefined;
  const updates = await clock.drive(collect(session.send("hello")), async () => {
    server ??= await serveOn(handler, port);
  });
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect(calls()).toBe(1);
  expect(seen).toEqual(["POST /agent"]);
  expect(clock.waits).toHaveLength(1);
  expect(connections(updates)).toEqual(["reconnecting 1", "connected 1"]);
  expect(session.messages.map((message) => message.content)).toEqual(["hello", "done"]);
});

test("a 503 with the store's JSON refusal on the run's POST is sent again after its Retry-After; the agent runs once", async () => {
  const { agent, calls } = countingAgent();
  let refusals = 1;
  const { handler, seen } = recorded(storedHandler(agent), (path, method) =>
    method === "POST" && path === "/agent" && refusals-- > 0 ? storeRestarting() : undefined,
  );
  const served = await serveOn(handler);
  const clock = handClock();
  const session = new Session(new HttpTransport(`${served.url}agent`, { scheduler: clock.scheduler }), { threadId: "busy", newId: counter("u") });
  const updates = await clock.drive(collect(session.send("hello")));
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect([calls(), seen, clock.waits]).toEqual([1, ["POST /agent", "POST /agent"], [1000]]);
});

test("a connection cut after the server read the body is never POSTed again: the run is resumed through /connect, and the agent ran once", async () => {
  const { agent, calls } = countingAgent();
  const { handler, seen } = recorded(storedHandler(agent));
  const served = await serveOn(handler);
  const proxy = await startCutProxy(served.port);
  closing.push(() => proxy.close());
  proxy.cutNext(0); // the request goes through whole; the answer is cut before its first byte
  const clock = handClock();
  const session = new Session(new HttpTransport(proxy.url("/agent"), { scheduler: clock.scheduler }), { threadId: "cut", newId: counter("u") });
  const updates = await clock.drive(collect(session.send("hello")));
  expect(calls()).toBe(1);
  expect(seen.filter((request) => request === "POST /agent")).toHaveLength(1);
  expect(seen).toContain("POST /agent/connect");
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect(session.messages.map((message) => message.content)).toEqual(["hello", "done"]);
});

test("the same cut with a server that keeps no threads fails the run: no second POST, the agent ran once, the message stays and the error says why", async () => {
  const { agent, calls } = countingAgent();
  const { handler, seen } = recorded(createHandler(agent, { onRunError: () => undefined, headers: { Connection: "close" } }));
  const served = await serveOn(handler);
  const proxy = await startCutProxy(served.port);
  closing.push(() => proxy.close());
  proxy.cutNext(0);
  const clock = handClock();
  const session = new Session(new HttpTransport(proxy.url("/agent"), { scheduler: clock.scheduler }), { threadId: "cut", newId: counter("u") });
  const updates = await clock.drive(collect(session.send("hello")));
  await until(() => calls() === 1, "the agent to be called");
  expect(seen.filter((request) => request === "POST /agent")).toHaveLength(1);
  const [error] = errorsOf(updates);
  expect(error.kind).toBe("transport");
  expect(error.message).toMatch(/the server may have recorded message "u-1", so the session keeps it/);
  expect(session.messages.map((message) => message.content)).toEqual(["hello"]);
});

test.each([
  ["500", () => errorResponse(500, { error: "internal", message: "the store failed: boom" }, { "Retry-After": "1" })],
  [
    "503 from a proxy (not the server's JSON)",
    () => new Response("<html>Service Unavailable</html>", { status: 503, headers: { "Content-Type": "text/html", "Retry-After": "1" } }),
  ],
])("a run's POST answered %s is never sent again", async (_, answer) => {
  const { agent, calls } = countingAgent();
  const { handler, seen } = recorded(storedHandler(agent), (path) => (path === "/agent" ? answer() : undefined));
  const served = await serveOn(handler);
  const session = new Session(new HttpTransport(`${served.url}agent`), { threadId: "no", newId: counter("u") });
  const updates = await collect(session.send("hello"));
  expect([calls(), seen]).toEqual([0, ["POST /agent"]]);
  const [error] = errorsOf(updates);
  expect(ClientError.isInstance(error) && error.kind).toBe("http");
});

test("a reconnect's /connect answered 503 waits the Retry-After before the next attempt", async () => {
  const { agent, calls } = countingAgent();
  let refuseConnect = false;
  const { handler, seen } = recorded(storedHandler(agent), (path) => {
    if (!path.endsWith("/connect") || !refuseConnect) return undefined;
    refuseConnect = false;
    return errorResponse(503, { error: "unavailable", message: "the store is restarting" }, { "Retry-After": "3" });
  });
  const served = await serveOn(handler);
  const proxy = await startCutProxy(served.port);
  closing.push(() => proxy.close());
  await collect(new Session(new HttpTransport(proxy.url("/agent")), { threadId: "measure", newId: counter("m") }).send("hello"));
  const whole = proxy.served[proxy.served.length - 1];

  refuseConnect = true;
  proxy.cutNext(whole - 10); // inside the last frame: the run's events are cut before RUN_FINISHED
  const clock = handClock();
  // stallMs: false: every wait on this clock is then a reconnect's (the stall check of the open stream would be one too)
  const transport = new HttpTransport(proxy.url("/agent"), { scheduler: clock.scheduler, stallMs: false });
  const session = new Session(transport, { threadId: "cut-mid", newId: counter("u") });
  const updates = await clock.drive(collect(session.send("hello")));
  expect(endOf(updates)).toEqual({ kind: "success" });
  expect(calls()).toBe(2); // the measuring run and this one
  expect(seen.filter((request) => request.endsWith("/connect"))).toHaveLength(2);
  expect(clock.waits[0]).toBeLessThan(500); // attempt 1: the backoff (250–500 ms)
  expect(clock.waits[1]).toBe(3000); // attempt 2: the 503's Retry-After, longer than the backoff's 500–1000 ms
  expect(connections(updates)).toEqual(["reconnecting 1", "reconnecting 2", "connected 2"]);
});

test("/stop and /capabilities answered 503 once are asked again after the Retry-After", async () => {
  const { agent } = countingAgent();
  const refused = new Set(["/agent/stop", "/agent/capabilities"]);
  const { handler, seen } = recorded(storedHandler(agent), (path) => (refused.delete(path) ? storeRestarting() : undefined));
  const served = await serveOn(handler);
  const clock = handClock();
  const transport = new HttpTransport(`${served.url}agent`, { scheduler: clock.scheduler });
  const capabilities = await clock.drive(transport.capabilities());
  expect(capabilities.transport?.resumable).toBe(true);
  const stopped = await clock.drive(transport.stop({ threadId: "none", runId: "none" }));
  expect(stopped).toBe("unavailable"); // the second answer: the server does not know this run (404)
  expect(seen).toEqual(["GET /agent/capabilities", "GET /agent/capabilities", "POST /agent/stop", "POST /agent/stop"]);
  expect(clock.waits).toEqual([1000, 1000]);
});
