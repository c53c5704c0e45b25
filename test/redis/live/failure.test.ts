/**
 * Failure behaviour: a redis-server of the test's own, killed (SIGKILL) in the middle of a run and
 * never started again. The run's writer sends its batch again while the run's lease lasts (Redis
 * might come back), then fails with StoreError `unavailable` (recordRun's output errors with it);
 * its tails error alike, every other operation rejects alike within the store's command timeout,
 * and nothing hangs.
 */
import { lastValueFrom, Subject, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { recordRun } from "../../../src/server/store/recordRun";
import { StoreError } from "../../../src/server/store/StoreError";
import type { StoredEvent } from "../../../src/server/store/ThreadStore";
import { connectClient, type TestClient } from "../support/clients";
import { startRedisServer, type RedisServer } from "../support/redisServer";
import { until } from "../support/until";

const TIMEOUT = 1000;
/** The lease: how long a writer sends a batch again before it gives up (from its last answer). */
const LEASE = 3000;
let server: RedisServer;
let client: TestClient;
let store: RedisStore;

beforeEach(async () => {
  server = await startRedisServer();
  client = await connectClient("failure", server.url);
  store = redisStore({ client, prefix: "failure:", timeout: TIMEOUT, lease: LEASE });
});

afterEach(async () => {
  await store.close();
  client.destroy(); // it may be reconnecting to a server that is gone
  await server.stop();
});

/** Awaits `promise` expecting a StoreError `unavailable` within `bound` ms; returns it and how long the rejection took. */
async function unavailableWithin(promise: Promise<unknown>, bound = TIMEOUT + 1500): Promise<{ error: StoreError; ms: number }> {
  const start = Date.now();
  const outcome = await promise.then(
    (value) => new Error(`expected a rejection, but it resolved with ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  const ms = Date.now() - start;
  if (!StoreError.isInstance(outcome)) throw outcome;
  expect(outcome.code).toBe("unavailable");
  expect(ms).toBeLessThan(bound);
  return { error: outcome, ms };
}

test("Redis killed mid-run: the run's output, its tail and every operation fail unavailable, none hangs", async () => {
  const input = runAgentInput("t1", "r1");
  const writer = await store.beginRun(input);
  const source = new Subject<Event>();
  const recorded: StoredEvent[] = [];
  const output = new Promise<unknown>((resolve, reject) => {
    source.pipe(recordRun(writer)).subscribe({ next: (stored) => recorded.push(stored), error: reject, complete: () => resolve(recorded) });
  });
  const tail = lastValueFrom(store.tail("t1", writer.started.cursor).pipe(toArray())).catch((error: unknown) => error);
  source.next(ev.runStarted("t1", "r1"));
  source.next(ev.textMessageStart("m1"));
  source.next(ev.textMessageContent("m1", "before the crash"));
  await until(() => store.stats().tails === 1, "the tail follows");
  const read = await store.read("t1", writer.started.cursor);
  expect(read?.kind === "resume" && read.events.map((s) => s.event.type)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]);

  await server.kill();
  source.next(ev.textMessageContent("m1", "after the crash"));
  // Sent again until the lease (renewed by the last renewing append) is up, plus the last attempt's timeout;
  // the batch goes quietly when the last renewal is recent (docs/durability.md#the-quiet-append).
  const failed = await unavailableWithin(output, LEASE + TIMEOUT + 1500);
  expect(failed.error.message).toMatch(
    /^expected Redis to answer the (quiet )?append script for thread "t1", but .+ \(sent again \d+ times over \d+ ms, until the run's lease was up\)$/,
  );
  expect(failed.error.threadId).toBe("t1");
  expect(recorded.map((s) => s.event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]); // what was logged before
  const tailed = await tail;
  expect(StoreError.isInstance(tailed) && tailed.code).toBe("unavailable");

  await unavailableWithin(writer.append([ev.textMessageEnd("m1")])); // the writer stays failed
  await unavailableWithin(writer.renewLease());
  await unavailableWithin(store.read("t1"));
  await unavailableWithin(store.stop("t1", "r1"));
  await unavailableWithin(store.beginRun(runAgentInput("t2", "r1")));
  await unavailableWithin(lastValueFrom(store.tail("t1", writer.started.cursor)));
});

test("a client that does not queue commands while disconnected fails each attempt at once: the writer gives up when the lease is up, not a timeout later", async () => {
  const eager = await connectClient("failure-eager", server.url, { disableOfflineQueue: true });
  const lease = 500;
  const eagerStore = redisStore({ client: eager, prefix: "failure:", timeout: TIMEOUT * 4, lease });
  try {
    const writer = await eagerStore.beginRun(runAgentInput("t3", "r1"));
    await server.kill();
    const { ms, error } = await unavailableWithin(writer.append([ev.stepStarted("s")]), TIMEOUT * 4);
    // No attempt waited for the command timeout (4 s here): the lease (0.5 s) and a busy machine's late timers, well under it.
    expect(ms).toBeLessThan(lease + 2 * TIMEOUT);
    expect(error.message).toMatch(/\(sent again \d+ times over \d+ ms, until the run's lease was up\)$/);
  } finally {
    await eagerStore.close();
    eager.destroy();
  }
});
