/**
 * A graceful Redis restart under live runs (issue #20 A4; docs/durability.md §8, "Failure
 * behaviour"): a `redis-server` of the test's own with `--appendonly yes --appendfsync always`,
 * reached through a TCP proxy, under 20 paced task-board runs served by `createHandler` over real
 * HTTP with the default lease. Mid-runs the server stops answering (the proxy withholds its replies)
 * until an append was sent to it, is stopped with SIGTERM, and is started again on the same port and
 * directory within 2 s. Every run ends as its uncut version: the same updates,
 * messages and state on its client, the same events in Redis, each once (sequence numbers without
 * a gap or a repeat), none `ABANDONED`, and nothing reported to `onRunError`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { Served } from "../../../src/node/serve";
import { createTaskBoardServer } from "../../../examples/task-board/server";
import { boardTurn, comparable, withoutConnection, type BoardTurn } from "../../support/boardTurns";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { startRedisProxy, type RedisProxy } from "../support/redisProxy";
import { startRedisServer, type RedisServer } from "../support/redisServer";
import { logProblems, threadLog } from "../support/threadLog";
import { until } from "../support/until";

const RUNS = 20;
/** Updates each run has had before the restart: well into the run (a turn has ~120). */
const MID_RUN_UPDATES = 15;

let dir: string | undefined;
let redis: RedisServer | undefined;
let proxy: RedisProxy | undefined;
let client: TestClient | undefined;
let admin: TestClient | undefined;
let store: RedisStore | undefined;
let served: Served | undefined;

afterEach(async () => {
  await served?.close();
  await store?.close();
  if (client !== undefined) await closeClient(client);
  if (admin !== undefined) await closeClient(admin);
  await proxy?.close();
  await redis?.stop();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

test(`a graceful Redis restart (SIGTERM, appendfsync always) of under 2 s during ${RUNS} paced runs: every run ends as its uncut version, no event twice, none ABANDONED`, async () => {
  dir = mkdtempSync(join(tmpdir(), "agui-redis-restart-"));
  redis = await startRedisServer({ appendOnlyDir: dir });
  proxy = await startRedisProxy(redis.port);
  client = await connectClient("graceful-restart", proxy.url);
  admin = await connectClient("graceful-restart-admin", redis.url);
  const prefix = uniquePrefix("graceful");
  store = redisStore({ client, prefix }); // the default lease (30 s) and timeout (10 s)
  const runErrors: string[] = [];
  served = await createTaskBoardServer({
    store,
    typingDelayMs: 10,
    researchDelayMs: 20,
    onRunError: (error, run) => runErrors.push(`${run.threadId}: ${error instanceof Error ? error.message : String(error)}`),
  });
  const url = served.url;
  const transport = (): HttpTransport => new HttpTransport(url, { reconnect: { count: 10, delay: 200 } });
  const reference = await boardTurn(transport(), `${prefix}uncut`);

  const seen = new Array<number>(RUNS).fill(0);
  let restartedAt = Number.POSITIVE_INFINITY;
  const resumedAt = new Array<number>(RUNS).fill(Number.NaN);
  const threads = Array.from({ length: RUNS }, (_, i) => `${prefix}run-${i}`);
  const turns: Promise<BoardTurn>[] = threads.map((threadId, i) =>
    boardTurn(transport(), threadId, undefined, () => {
      seen[i]++;
      if (Date.now() >= restartedAt && Number.isNaN(resumedAt[i])) resumedAt[i] = Date.now();
    }),
  );
  await until(() => seen.every((count) => count >= MID_RUN_UPDATES), "every run is well under way");

  // Redis stops answering first, and goes away once an append was sent to it: without this, a
  // busy machine's paced runs may have nothing in flight at the SIGTERM, and no reply is lost.
  const relay = proxy;
  relay.withholdReplies();
  await until(() => relay.withheldRequests > 0, "an append sent to a Redis that no longer answers");
  const stoppedAt = Date.now();
  await redis.stop(); // SIGTERM: Redis flushes its append-only file and exits
  redis = await startRedisServer({ port: redis.port, appendOnlyDir: dir });
  restartedAt = Date.now();
  const endedAt: number[] = [];
  const ends = await Promise.all(turns.map((turn) => turn.finally(() => endedAt.push(Date.now()))));

  const downMs = restartedAt - stoppedAt;
  const resumed = resumedAt.map((at) => at - restartedAt).sort((a, b) => a - b);
  console.log(
    `graceful restart: Redis down ${downMs} ms; ${proxy.unansweredAtClose} connection(s) cut with a request in flight; ` +
      `restart → each run's next update: median ${resumed[RUNS >> 1]} ms, max ${resumed[RUNS - 1]} ms; ` +
      `restart → the last run's end: ${Math.max(...endedAt) - restartedAt} ms`,
  );
  expect(downMs).toBeLessThan(2000);
  expect(proxy.unansweredAtClose).toBeGreaterThan(0); // an append was in flight when Redis went away
  expect(runErrors).toEqual([]);
  for (const [i, end] of ends.entries()) {
    const run = threads[i];
    expect({ run, updates: comparable(withoutConnection(end.updates)) }).toEqual({ run, updates: comparable(reference.updates) });
    expect({ run, messages: comparable(end.messages), state: end.state }).toEqual({ run, messages: comparable(reference.messages), state: reference.state });
  }
  const uncutLog = await threadLog(admin, prefix, `${prefix}uncut`);
  for (const run of threads) {
    const log = await threadLog(admin, prefix, run);
    expect({ run, problems: logProblems(log) }).toEqual({ run, problems: [] });
    expect({ run, events: comparable(log.map((entry) => entry.event)) }).toEqual({ run, events: comparable(uncutLog.map((entry) => entry.event)) });
  }
});
