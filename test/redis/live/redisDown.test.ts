/**
 * Redis down mid-run, over HTTP (issue #11 §5, failure behaviour): two instances on a redis-server
 * of the test's own, which is killed (SIGKILL) while an agent on A streams and a second client
 * follows the run through B. A's writer sends its batch again while the run's lease lasts (Redis
 * might come back), then the run fails with a clear error on A's stderr (`onRunError`, naming the
 * run, the thread and the command), both clients see a transport failure and a failed `done`
 * naming the 503 the store's failure answers — never a hang: every step is bounded by the lease
 * and the store's command timeout — and the instances stay up and answer.
 */
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { counter } from "../../client/support";
import { inputFor, postJson } from "../../http/durable/support";
import { follow } from "../../support/boardTurns";
import { killAll, startInstance } from "../support/instances";
import { startRedisServer, type RedisServer } from "../support/redisServer";

/** The store's command timeout in the instances. */
const TIMEOUT_MS = 1000;
/** Their lease: how long A's writer sends a batch again before the run fails. */
const LEASE_MS = 2000;
/** Reconnect attempts of the clients. */
const ATTEMPTS = 2;

let server: RedisServer | undefined;

afterEach(async () => {
  await killAll();
  await server?.stop();
});

test("Redis killed mid-run: the run fails with a clear error, both clients see a transport failure within the timeouts, the instances stay up", async () => {
  const redis = await startRedisServer();
  server = redis;
  const config = { redisUrl: redis.url, prefix: "down:", timeoutMs: TIMEOUT_MS, leaseMs: LEASE_MS, typingDelayMs: 5, researchDelayMs: 30 };
  const [a, b] = await Promise.all([startInstance({ ...config, name: "A" }), startInstance({ ...config, name: "B" })]);
  const reconnect = { delay: 0, count: ATTEMPTS };

  const runner = new Session<Board>(new HttpTransport(a.url, { reconnect }), { threadId: "down", state: boardSpec, newId: counter("u") });
  const runnerUpdates: Update<Board>[] = [];
  let researching!: () => void;
  const midRun = new Promise<void>((resolve) => (researching = resolve));
  const runnerDone = follow(runner.send("add buy milk; research rxjs; research bees"), runnerUpdates, (update) => {
    if (update.kind === "subagent") researching();
  });
  await midRun;
  const watcher = new Session<Board>(new HttpTransport(b.url, { reconnect }), { threadId: "down", state: boardSpec });
  const watcherUpdates: Update<Board>[] = [];
  let joined!: () => void;
  const tailing = new Promise<void>((resolve) => (joined = resolve));
  const watcherDone = follow(watcher.connect(), watcherUpdates, (update) => {
    if (update.kind === "message" && watcherUpdates.some((earlier) => earlier.kind === "messages")) joined();
  });
  await tailing;

  const killedAt = Date.now();
  await redis.kill();
  const ends = await Promise.all([runnerDone, watcherDone]);

  // The runner's stream waits while A's writer retries (the lease and one timeout); then each
  // reconnect's /connect answers 503 once the store gives up (within its timeout): bounded.
  const bound = LEASE_MS + TIMEOUT_MS + (ATTEMPTS + 1) * (TIMEOUT_MS + 1000);
  for (const [who, updates, endedAt] of [
    ["runner", runnerUpdates, ends[0]],
    ["watcher", watcherUpdates, ends[1]],
  ] as const) {
    const errors = updates.filter((update) => update.kind === "error");
    expect({ who, errors: errors.map((update) => update.kind === "error" && update.error.kind) }).toEqual({ who, errors: ["transport"] });
    const last = updates[updates.length - 1];
    expect({ who, last }).toEqual({
      who,
      last: {
        kind: "done",
        end: {
          kind: "failed",
          message: expect.stringMatching(
            new RegExp(
              `^the connection was lost \\(the body ended before the run did\\) and ${ATTEMPTS} reconnects failed; the last: POST \\S+/agent/connect answered 503 Service Unavailable: .*expected Redis to answer the read script for thread`,
            ),
          ),
        },
      },
    });
    expect({ who, bounded: endedAt - killedAt < bound }).toEqual({ who, bounded: true });
    expect(updates.filter((update) => update.kind === "connection").length).toBe(ATTEMPTS);
  }
  // What arrived before the crash stays applied.
  expect(runner.rawState).toEqual({ tasks: [{ id: 1, title: "buy milk", done: false }] });
  expect(watcher.rawState).toEqual(runner.rawState);

  // The run failed on A, and A says so: the run, the thread, and what Redis did not answer.
  expect(a.stderr()).toMatch(
    /agui-rx server: recording run "u-\d+" of thread "down" failed: StoreError: expected Redis to answer the (quiet append|append|renew) script for thread "down", but /,
  );

  // Both instances are still up: capabilities answer, a new run is refused 503 within the timeout.
  for (const instance of [a, b]) {
    const capabilities = await fetch(`${instance.url}/capabilities`);
    expect(capabilities.status).toBe(200);
    const started = Date.now();
    const refused = await postJson(instance.url, inputFor(`after-${instance.name}`, "r1"));
    expect(refused.response.status).toBe(503);
    expect(JSON.parse(refused.text)).toEqual({ error: "unavailable", message: expect.stringMatching(/^expected Redis to answer /) });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 3 + 1000);
  }
});
