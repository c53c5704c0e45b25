/**
 * Several server instances on one Redis, for real (issue #11 §3): three child processes, each a
 * `createHandler` with a `redisStore` on its own loopback port, behind a loopback balancer that
 * picks the instance of every connection. A run started on A and cut mid-stream resumes on B with
 * Last-Event-ID and ends exactly as an uncut run; `/stop` sent to B cancels the agent running on
 * A; the official HttpAgent works against every instance; each instance holds at most three Redis
 * connections.
 */
import { HttpAgent } from "@ag-ui/client";
import { lastValueFrom, Observable, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { counter } from "../../client/support";
import { startBalancer, type Balancer } from "../../support/balancer";
import { threadKeys } from "../../../src/redis/keys";
import { boardTurn, COMMAND, comparable, withoutConnection } from "../../support/boardTurns";
import { connectionsOf } from "../support/connections";
import { closeClient, connectClient, redisUrl, uniquePrefix, type TestClient } from "../support/clients";
import { killAll, startInstance, type Instance } from "../support/instances";

const prefix = uniquePrefix("multi");
let a: Instance;
let b: Instance;
let c: Instance;
let balancer: Balancer;
let admin: TestClient;

beforeAll(async () => {
  const config = { redisUrl: redisUrl(), prefix, typingDelayMs: 5, researchDelayMs: 40 };
  [a, b, c] = await Promise.all(["A", "B", "C"].map((name) => startInstance({ ...config, name })));
  balancer = await startBalancer(() => ({ port: a.port }));
  admin = await connectClient("multi-admin");
});

afterAll(async () => {
  await balancer?.close();
  await killAll();
  await closeClient(admin);
});

const since = (from: number) =>
  balancer.connections.slice(from).map(({ method, path, port, cut, headers }) => ({ method, path, port, cut, lastEventId: headers["last-event-id"] }));

test("a run started on A, cut mid-stream and reconnected to B with Last-Event-ID, ends exactly as an uncut run", async () => {
  const transport = new HttpTransport(balancer.url("/agent"), { reconnect: { delay: 0 } });
  balancer.route(() => ({ port: a.port }));
  const reference = await boardTurn(transport, "uncut");
  const answerLength = balancer.connections[balancer.connections.length - 1].bytes;
  expect(reference.updates[reference.updates.length - 1]).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });

  for (const share of [0.3, 0.5, 0.7]) {
    const from = balancer.connections.length;
    balancer.route(({ path }) => (path === "/agent/connect" ? { port: b.port } : { port: a.port, cutAt: Math.floor(answerLength * share) }));
    // When the reconnect to B took, is A's run still live? (B then tails it live, not only replays it.)
    let liveAtReconnect: Promise<unknown> | undefined;
    const cut = await boardTurn(transport, `cut-${share}`, COMMAND, (update) => {
      if (update.kind === "connection" && update.status === "connected")
        liveAtReconnect ??= admin.sendCommand(["HGET", threadKeys(prefix, `cut-${share}`).meta, "live"]);
    });
    expect(await liveAtReconnect).toEqual(expect.stringMatching(/.+/));
    const log = since(from);
    expect(log).toEqual([
      { method: "POST", path: "/agent", port: a.port, cut: true, lastEventId: undefined },
      { method: "POST", path: "/agent/connect", port: b.port, cut: false, lastEventId: expect.stringMatching(/^\d+-\d+$/) },
    ]);
    // Exactly once: the updates (every text delta, tool call, state change, subagent event) are the uncut run's, in order.
    expect(withoutConnection(cut.updates).length).toBe(reference.updates.length);
    expect(comparable(withoutConnection(cut.updates))).toBe(comparable(reference.updates));
    expect(cut.updates.filter((update) => update.kind === "connection").map((update) => update.kind === "connection" && update.status)).toEqual([
      "reconnecting",
      "connected",
    ]);
    expect(comparable(cut.messages)).toBe(comparable(reference.messages));
    expect(cut.state).toEqual(reference.state);
  }
});

test("POST /stop sent to B stops the run whose agent runs on A: it ends cancelled, and what it sent is kept", async () => {
  const from = balancer.connections.length;
  balancer.route(({ path }) => ({ port: path === "/agent/stop" ? b.port : a.port }));
  const session = new Session<Board>(new HttpTransport(balancer.url("/agent"), { reconnect: { delay: 0 } }), {
    threadId: "stopped",
    state: boardSpec,
    newId: counter("u"),
  });
  const updates: Update<Board>[] = [];
  let answer: Promise<unknown> | undefined;
  await lastValueFrom(
    new Observable<void>((subscriber) =>
      session.send("add buy milk; research rxjs; research bees; add call mom").subscribe({
        next: (update) => {
          updates.push(update);
          // Mid-run: the researcher has started writing.
          if (answer === undefined && update.kind === "subagent") answer = session.stop();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    ),
    { defaultValue: undefined },
  );
  expect(await answer).toBe("stopping");
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "cancelled" } });
  expect(since(from).map(({ path, port }) => ({ path, port }))).toEqual([
    { path: "/agent", port: a.port },
    { path: "/agent/stop", port: b.port },
  ]);
  // The second "add" never ran: the board has the first task only.
  expect(session.rawState).toEqual({ tasks: [{ id: 1, title: "buy milk", done: false }] });
  // Joined from C, the thread shows everything the run sent before it was stopped.
  const joined = new Session<Board>(new HttpTransport(c.url), { threadId: "stopped", state: boardSpec });
  const joinUpdates = await lastValueFrom(joined.connect().pipe(toArray()));
  expect(joinUpdates[joinUpdates.length - 1].kind).toBe("done");
  expect(comparable(joined.messages)).toBe(comparable(session.messages));
  expect(joined.rawState).toEqual(session.rawState);
});

test("the official HttpAgent (@ag-ui/client 1.0.0) runs against every instance, one thread across all three", async () => {
  const instances = [a, b, c];
  let messages: HttpAgent["messages"] = [];
  let state: unknown = { tasks: [] };
  for (const [index, instance] of instances.entries()) {
    // Each turn on the next instance, carrying on from what the last agent held.
    const agent = new HttpAgent({
      url: instance.url,
      threadId: "official",
      initialMessages: [...messages, { id: `u${index}`, role: "user", content: `add task ${index}` }],
      initialState: state,
    });
    const result = await agent.runAgent({ runId: `official-${index}` });
    expect(result.newMessages.some((message) => message.role === "assistant")).toBe(true);
    expect(agent.state).toEqual({ tasks: instances.slice(0, index + 1).map((_, i) => ({ id: i + 1, title: `task ${i}`, done: false })) });
    messages = agent.messages;
    state = agent.state;
  }
  // The thread the three instances wrote, joined from A: the history HttpAgent holds.
  const joined = new Session<Board>(new HttpTransport(a.url), { threadId: "official", state: boardSpec });
  await lastValueFrom(joined.connect().pipe(toArray()));
  expect(joined.messages.map((message) => message.id)).toEqual(messages.map((message) => message.id));
  expect(joined.rawState).toEqual({ tasks: [0, 1, 2].map((i) => ({ id: i + 1, title: `task ${i}`, done: false })) });
});

test("each instance holds at most three Redis connections: its client, one signal subscription, and one tail reader once it follows a run produced elsewhere", async () => {
  for (const instance of [a, b, c]) {
    const names = await connectionsOf(admin, instance.name, instance.store);
    expect(names).toEqual(expect.arrayContaining([instance.name, `agui-rx:${instance.store}:signals`]));
    expect(names.every((name) => [instance.name, `agui-rx:${instance.store}:signals`, `agui-rx:${instance.store}:reader`].includes(name))).toBe(true);
  }
  // B served the reconnects of A's runs (tails of runs it does not produce): its reader is open. Runs an
  // instance produces feed its own tails without reading back, so A and C may never have needed one.
  expect(await connectionsOf(admin, b.name, b.store)).toEqual([b.name, `agui-rx:${b.store}:reader`, `agui-rx:${b.store}:signals`]);
});
