/**
 * Instances that die and instances that restart, on one Redis (issue #11 §3). `kill -9` of the
 * instance running an agent: the clients following the run through another instance see RUN_ERROR
 * `ABANDONED` within the lease (a short one here; nothing waits longer than it: the test waits on
 * the clients' own ends). Every instance stopped and started again: no finished thread is lost,
 * `connect()` shows its history, its cursors still resume, and the thread goes on.
 */
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { CONNECT_MODE_HEADER } from "../../../src/protocol/connectMode";
import { threadKeys } from "../../../src/redis/keys";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { counter } from "../../client/support";
import { framesOf, postJson } from "../../http/durable/support";
import { startBalancer, type Balancer } from "../../support/balancer";
import { comparable, follow, type BoardTurn } from "../../support/boardTurns";
import { closeClient, connectClient, redisUrl, uniquePrefix, type TestClient } from "../support/clients";
import { killAll, startInstance } from "../support/instances";

const LEASE_MS = 1500;
let admin: TestClient;
let balancer: Balancer | undefined;

beforeAll(async () => {
  admin = await connectClient("crash-admin");
});

afterEach(async () => {
  await balancer?.close();
  balancer = undefined;
  await killAll();
});

afterAll(async () => {
  await closeClient(admin);
});

test(`kill -9 of the instance running the agent: clients following through another instance see RUN_ERROR ABANDONED within the lease (${LEASE_MS} ms)`, async () => {
  const prefix = uniquePrefix("crash");
  const config = { redisUrl: redisUrl(), prefix, leaseMs: LEASE_MS, typingDelayMs: 5, researchDelayMs: 30 };
  const [a, b] = await Promise.all([startInstance({ ...config, name: "A" }), startInstance({ ...config, name: "B" })]);
  // The run goes to A; any reconnect (A is about to die) to B.
  balancer = await startBalancer(({ path }) => ({ port: path === "/agent" ? a.port : b.port }));

  const runner = new Session<Board>(new HttpTransport(balancer.url("/agent"), { reconnect: { delay: 0 } }), {
    threadId: "crashed",
    state: boardSpec,
    newId: counter("u"),
  });
  const runnerUpdates: Update<Board>[] = [];
  let researching!: () => void;
  const midRun = new Promise<void>((resolve) => (researching = resolve));
  const runnerDone = follow(runner.send("add buy milk; research rxjs; research bees"), runnerUpdates, (update) => {
    if (update.kind === "subagent") researching();
  });
  await midRun;
  // A second client joins the live run through B.
  const watcher = new Session<Board>(new HttpTransport(b.url, { reconnect: { delay: 0 } }), { threadId: "crashed", state: boardSpec });
  const watcherUpdates: Update<Board>[] = [];
  let joined!: () => void;
  const tailing = new Promise<void>((resolve) => (joined = resolve));
  const watcherDone = follow(watcher.connect(), watcherUpdates, (update) => {
    if (update.kind === "message" && watcherUpdates.some((earlier) => earlier.kind === "messages")) joined(); // a live delta after the prelude
  });
  await tailing;

  const killedAt = Date.now();
  await a.kill();
  const [runnerEnd, watcherEnd] = await Promise.all([runnerDone, watcherDone]);

  for (const [who, updates, endedAt] of [
    ["runner", runnerUpdates, runnerEnd],
    ["watcher", watcherUpdates, watcherEnd],
  ] as const) {
    const last = updates[updates.length - 1];
    expect({ who, last }).toEqual({ who, last: { kind: "done", end: { kind: "failed", message: expect.stringMatching(/lease/i), code: "ABANDONED" } } });
    expect({ who, withinLease: endedAt - killedAt < LEASE_MS + 1000 }).toEqual({ who, withinLease: true });
  }
  process.stdout.write(
    `kill -9 → RUN_ERROR ABANDONED: runner (reconnected to B) after ${runnerEnd - killedAt} ms, watcher (joined on B) after ${watcherEnd - killedAt} ms; lease ${LEASE_MS} ms\n`,
  );
  // The runner was cut by the crash and reconnected to B; it lost nothing it had.
  expect(runnerUpdates.filter((update) => update.kind === "connection").map((update) => update.kind === "connection" && update.status)).toEqual([
    "reconnecting",
    "connected",
  ]);
  expect(comparable(watcher.messages)).toBe(comparable(runner.messages));
  expect(watcher.rawState).toEqual({ tasks: [{ id: 1, title: "buy milk", done: false }] });
  // Logged exactly once, by B (A is gone), as the run's last event.
  const entries: unknown = await admin.sendCommand(["XRANGE", threadKeys(prefix, "crashed").events, "-", "+"]);
  const types = (entries as [string, string[]][]).map(([, fields]) => fields[fields.indexOf("t") + 1]); // test-only: XRANGE's reply shape
  expect(types.filter((type) => type === "RUN_ERROR")).toEqual(["RUN_ERROR"]);
  expect(types[types.length - 1]).toBe("RUN_ERROR");
  expect(b.stderr()).toBe("");
});

test("every instance restarted: no finished thread is lost; connect() shows its history, its cursors still resume, it goes on", async () => {
  const prefix = uniquePrefix("restart");
  const config = { redisUrl: redisUrl(), prefix, typingDelayMs: 2 };
  const names = ["A", "B", "C"];
  const first = await Promise.all(names.map((name) => startInstance({ ...config, name })));

  // Three threads, each written by the instances in turn: a finished turn, a second turn, and an interrupted "clear".
  const turns = new Map<string, BoardTurn>();
  const sessions = new Map<string, Session<Board>>();
  for (const [index, threadId] of ["t-a", "t-b", "t-c"].entries()) {
    const session = new Session<Board>(new HttpTransport(first[index].url), { threadId, state: boardSpec, newId: counter(`u-${threadId}`) });
    await lastValueFrom(session.send("add buy milk; research rxjs").pipe(toArray()));
    sessions.set(threadId, session);
  }
  const second = new Session<Board>(new HttpTransport(first[1].url), { threadId: "t-a", state: boardSpec });
  await lastValueFrom(second.connect().pipe(toArray()));
  const interrupted = await lastValueFrom(second.send("add call mom; clear").pipe(toArray()));
  expect(interrupted[interrupted.length - 1]).toMatchObject({ kind: "done", end: { kind: "interrupted" } });
  turns.set("t-a", { updates: interrupted, messages: second.messages, state: second.rawState });
  for (const threadId of ["t-b", "t-c"]) {
    const session = sessions.get(threadId);
    if (session === undefined) throw new Error(`no session for ${threadId}`);
    turns.set(threadId, { updates: [], messages: session.messages, state: session.rawState });
  }
  const firstEntry: unknown = await admin.sendCommand(["XRANGE", threadKeys(prefix, "t-b").events, "-", "+", "COUNT", "1"]);
  const runStartCursor = (firstEntry as [string, string[]][])[0][0]; // test-only: XRANGE's reply shape
  const logged: unknown = await admin.sendCommand(["XLEN", threadKeys(prefix, "t-b").events]);

  // Every instance goes down (gracefully: SIGTERM, exit 0) and new ones come up on other ports.
  expect(await Promise.all(first.map((instance) => instance.stop()))).toEqual([0, 0, 0]);
  const restarted = await Promise.all(names.map((name) => startInstance({ ...config, name: `${name}2` })));
  expect(restarted.map((instance) => instance.store)).not.toContain(first[0].store);

  for (const [index, threadId] of ["t-a", "t-b", "t-c"].entries()) {
    const before = turns.get(threadId);
    if (before === undefined) throw new Error(`no turn for ${threadId}`);
    const instance = restarted[(index + 2) % 3]; // another instance than the one that wrote it last
    const joined = new Session<Board>(new HttpTransport(instance.url), { threadId, state: boardSpec });
    const updates = await lastValueFrom(joined.connect().pipe(toArray()));
    expect({ threadId, end: updates[updates.length - 1] }).toMatchObject({
      threadId,
      end: { kind: "done", end: { kind: threadId === "t-a" ? "interrupted" : "success" } },
    });
    expect({ threadId, messages: comparable(joined.messages) }).toEqual({ threadId, messages: comparable(before.messages) });
    expect({ threadId, state: joined.rawState }).toEqual({ threadId, state: before.state });
  }

  // A cursor from before the restart still resumes (the cursor path: the rest of its run as logged).
  const resumed = await postJson(`${restarted[0].url}/connect`, { threadId: "t-b" }, { "Last-Event-ID": runStartCursor });
  expect(resumed.response.status).toBe(200);
  expect(resumed.response.headers.get(CONNECT_MODE_HEADER)).toBe("resume");
  const frames = await framesOf(resumed.text);
  expect(frames.length).toBe(Number(logged) - 1);
  expect(frames[frames.length - 1].event.type).toBe("RUN_FINISHED");

  // And the thread goes on after the restart: the approval answered on a new instance clears the board.
  const resumedSession = new Session<Board>(new HttpTransport(restarted[2].url), { threadId: "t-a", state: boardSpec, newId: counter("u-again") });
  const join = await lastValueFrom(resumedSession.connect().pipe(toArray()));
  const pending = join[join.length - 1];
  if (pending.kind !== "done" || pending.end.kind !== "interrupted")
    throw new Error(`expected the joined thread to wait on its interrupt, but it ended ${JSON.stringify(pending)}`);
  const cleared = await lastValueFrom(
    resumedSession.resume([{ interruptId: pending.end.interrupts[0].id, status: "resolved", payload: { approved: true } }]).pipe(toArray()),
  );
  expect(cleared[cleared.length - 1]).toMatchObject({ kind: "done", end: { kind: "success" } });
  expect(resumedSession.rawState).toEqual({ tasks: [] });
});
