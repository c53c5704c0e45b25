/**
 * Sending while the agent works across instances on one Redis (issue #24, docs/queue.md): the
 * live run on B, the messages sent through A. A queued message starts after B's run ends, a steer
 * sent through A reaches B's agent (`ctx.incoming$` of the task board's count) and is recorded once
 * in B's run, and after `kill -9` of B a queued message starts once B's run was ended `ABANDONED`,
 * exactly once. Real child processes, real HTTP over loopback, real redis-server.
 */
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Message } from "../../../src/protocol/messages";
import type { Update } from "../../../src/thread/Update";
import { threadKeys } from "../../../src/redis/keys";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { counter } from "../../client/support";
import { follow } from "../../support/boardTurns";
import { closeClient, connectClient, redisUrl, uniquePrefix, type TestClient } from "../support/clients";
import { killAll, startInstance } from "../support/instances";

const LEASE_MS = 1500;
let admin: TestClient;

beforeAll(async () => {
  admin = await connectClient("queue-http-admin");
});

afterEach(async () => {
  await killAll();
});

afterAll(async () => {
  await closeClient(admin);
});

/** A session on `url` for `threadId`, its ids prefixed so that two sessions never mint the same one. */
function sessionOn(url: string, threadId: string, ids: string): Session<Board> {
  return new Session<Board>(new HttpTransport(url, { reconnect: { delay: 0 } }), { threadId, state: boardSpec, newId: counter(ids) });
}

/** Each logged event's type and run id, in log order (XRANGE of the thread's stream). */
async function loggedRuns(prefix: string, threadId: string): Promise<{ readonly type: string; readonly runId?: string; readonly code?: string }[]> {
  const entries: unknown = await admin.sendCommand(["XRANGE", threadKeys(prefix, threadId).events, "-", "+"]);
  return (entries as [string, string[]][]).map(([, fields]) => {
    // test-only: XRANGE's reply shape and the entry's `e` field (src/redis/entries.ts)
    const event = JSON.parse(fields[fields.indexOf("e") + 1]) as { type: string; runId?: string; code?: string };
    return { type: event.type, ...(event.runId === undefined ? {} : { runId: event.runId }), ...(event.code === undefined ? {} : { code: event.code }) };
  });
}

const userTexts = (messages: readonly Message[]): string[] =>
  messages.filter((message) => message.role === "user").map((message) => (typeof message.content === "string" ? message.content : "(parts)"));

test("the run lives on B: a steer through A is taken by B's agent and recorded once; a message queued through A runs after it, begun once", async () => {
  const prefix = uniquePrefix("queue-http");
  const config = { redisUrl: redisUrl(), prefix, leaseMs: 10_000, typingDelayMs: 20 };
  const [a, b] = await Promise.all([startInstance({ ...config, name: "A" }), startInstance({ ...config, name: "B" })]);
  const threadId = "steered";
  const runner = sessionOn(b.url, threadId, "b");
  const runnerUpdates: Update<Board>[] = [];
  let counting!: () => void;
  const started = new Promise<void>((resolve) => (counting = resolve));
  const runnerDone = follow(runner.send("count to 8"), runnerUpdates, (update) => {
    if (update.kind === "message" && update.message.role === "assistant") counting();
  });
  await started;

  const other = sessionOn(a.url, threadId, "a");
  const steerUpdates: Update<Board>[] = [];
  await follow(other.send("also say hi", { whileRunning: "steer" }), steerUpdates);
  const queueUpdates: Update<Board>[] = [];
  const queuedDone = follow(other.send("add buy milk", { whileRunning: "queue" }), queueUpdates);
  await runnerDone;
  await queuedDone;

  const notices = (updates: readonly Update<Board>[]) => updates.flatMap((update) => (update.kind === "queued" ? [update.notice.status] : []));
  // Taken by B's count (perhaps before A's stream sent its first notice: the first notice is the status then).
  expect(notices(steerUpdates).filter((status) => status !== "steering")).toEqual(["taken"]);
  expect(steerUpdates[steerUpdates.length - 1]).toEqual({ kind: "done", end: { kind: "success" } });
  expect(notices(queueUpdates)).toEqual(expect.arrayContaining(["queued", "started"]));
  expect(queueUpdates[queueUpdates.length - 1]).toMatchObject({ kind: "done", end: { kind: "success" } });

  // The steer is in B's run (the runner saw it once, where the count took it), the queued message after it.
  expect(userTexts(runner.messages)).toEqual(["count to 8", "also say hi"]);
  const reader = sessionOn(a.url, threadId, "r");
  await follow(reader.connect(), []);
  expect(userTexts(reader.messages)).toEqual(["count to 8", "also say hi", "add buy milk"]);
  expect(reader.rawState).toEqual({ tasks: [{ id: 1, title: "buy milk", done: false }] });
  const queuedId = queueUpdates.flatMap((update) => (update.kind === "queued" ? [update.notice.id] : []))[0];
  const logged = await loggedRuns(prefix, threadId);
  expect(logged.filter((event) => event.type === "RUN_STARTED").map((event) => event.runId)).toEqual([expect.any(String), queuedId]);
  expect(a.stderr()).toBe("");
  expect(b.stderr()).toBe("");
});

test(`kill -9 of B with a message queued through A: it starts once B's run was ended ABANDONED (lease ${LEASE_MS} ms), begun exactly once`, async () => {
  const prefix = uniquePrefix("queue-kill");
  const config = { redisUrl: redisUrl(), prefix, leaseMs: LEASE_MS, typingDelayMs: 20, queueRecheckMs: 200 };
  const [a, b] = await Promise.all([startInstance({ ...config, name: "A" }), startInstance({ ...config, name: "B" })]);
  const threadId = "orphaned";
  const runner = sessionOn(b.url, threadId, "b");
  let counting!: () => void;
  const started = new Promise<void>((resolve) => (counting = resolve));
  const runnerDone = follow(runner.send("count to 20"), [], (update) => {
    if (update.kind === "message" && update.message.role === "assistant") counting();
  });
  await started;

  const other = sessionOn(a.url, threadId, "a");
  const queueUpdates: Update<Board>[] = [];
  let queued!: () => void;
  const waiting = new Promise<void>((resolve) => (queued = resolve));
  const queuedDone = follow(other.send("add buy milk", { whileRunning: "queue" }), queueUpdates, (update) => {
    if (update.kind === "queued") queued();
  });
  await waiting;
  await b.kill();
  await queuedDone;
  runnerDone.catch(() => undefined); // the runner's reconnects to B fail: its end is not this test's subject

  const statuses = queueUpdates.flatMap((update) => (update.kind === "queued" ? [update.notice.status] : []));
  expect(statuses[0]).toBe("queued");
  expect(statuses[statuses.length - 1]).toBe("started");
  expect(queueUpdates[queueUpdates.length - 1]).toMatchObject({ kind: "done", end: { kind: "success" } });
  const queuedId = queueUpdates.flatMap((update) => (update.kind === "queued" ? [update.notice.id] : []))[0];
  const logged = await loggedRuns(prefix, threadId);
  // B's run ended ABANDONED before the queued one started; the queued one started once and finished.
  const abandonedAt = logged.findIndex((event) => event.type === "RUN_ERROR" && event.code === "ABANDONED");
  const startedAt = logged.findIndex((event) => event.type === "RUN_STARTED" && event.runId === queuedId);
  expect(abandonedAt).toBeGreaterThan(0);
  expect(startedAt).toBeGreaterThan(abandonedAt);
  expect(logged.filter((event) => event.type === "RUN_STARTED" && event.runId === queuedId)).toHaveLength(1);
  expect(logged[logged.length - 1].type).toBe("RUN_FINISHED");
  const reader = sessionOn(a.url, threadId, "r");
  await follow(reader.connect(), []);
  expect(userTexts(reader.messages)).toEqual(["count to 20", "add buy milk"]);
  expect(a.stderr()).toBe("");
});
