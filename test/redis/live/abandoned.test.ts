/**
 * Abandoned runs across store instances on one real Redis, each instance on its own client
 * connection: whoever notices an expired lease first ends the run ABANDONED, exactly once, however
 * many instances notice at the same moment; tails on another instance end with it; and on Redis's
 * own clock (the heartbeat key's TTL) a run whose producer is gone ends within its lease.
 */
import { lastValueFrom, toArray, type Observable } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { StoredEvent } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "../../server/store/manualClock";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { until } from "../support/until";

const LEASE = 1000;
const prefix = uniquePrefix("abandoned");
const opened: { store: RedisStore; client: TestClient }[] = [];
let threads = 0;
const newThread = (): string => `abandoned-${threads++}`;

async function instance(options: { clock?: ManualClock; lease?: number } = {}): Promise<RedisStore> {
  const client = await connectClient("abandoned");
  const store = redisStore({ client, prefix, lease: options.lease ?? LEASE, ...(options.clock === undefined ? {} : { clock: options.clock }) });
  opened.push({ store, client });
  return store;
}

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

const collect = <T>(source: Observable<T>): Promise<T[]> => lastValueFrom(source.pipe(toArray()));
const errorsIn = (events: readonly StoredEvent[]): Event[] => events.map((s) => s.event).filter((event) => event.type === "RUN_ERROR");

test("three instances notice 20 expired leases at the same moment: each run is ended ABANDONED exactly once, and one new run begins per thread", async () => {
  const clock = new ManualClock();
  const [producer, b, c] = await Promise.all([instance({ clock }), instance({ clock }), instance({ clock })]);
  const ids = Array.from({ length: 20 }, newThread);
  const writers = await Promise.all(ids.map((threadId) => producer.beginRun(runAgentInput(threadId, "r1"))));
  await Promise.all(writers.map((writer) => writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "half")])));
  clock.jump(LEASE); // past every deadline, before any timer runs: only the operations below can notice
  const noticed = await Promise.all(
    ids.map((threadId, i) =>
      Promise.allSettled([
        b.read(threadId),
        c.read(threadId),
        b.stop(threadId, "r1"),
        c.stop(threadId, "r1"),
        writers[i].renewLease(),
        b.beginRun(runAgentInput(threadId, "r2")),
        c.beginRun(runAgentInput(threadId, "r3")),
      ]),
    ),
  );
  for (const [i, results] of noticed.entries()) {
    expect(results.slice(2, 5)).toEqual([
      { status: "fulfilled", value: "ended" },
      { status: "fulfilled", value: "ended" },
      { status: "fulfilled", value: false },
    ]);
    const begun = results.slice(5).filter((result) => result.status === "fulfilled");
    const refused = results.slice(5).filter((result) => result.status === "rejected");
    expect([begun.length, refused.length]).toEqual([1, 1]);
    expect(refused[0]).toMatchObject({ reason: { code: "run-active" } });
    const log = await collect(c.tail(ids[i], writers[i].started.cursor)); // through r1's terminal
    expect(errorsIn(log)).toEqual([expect.objectContaining({ type: "RUN_ERROR", code: "ABANDONED" })]);
  }
});

test("two instances' tail timers fire at once: one ABANDONED, and both instances' tails end with it", async () => {
  const clock = new ManualClock();
  const [producer, b, c] = await Promise.all([instance({ clock }), instance({ clock }), instance({ clock })]);
  const threadId = newThread();
  const writer = await producer.beginRun(runAgentInput(threadId, "r1"));
  await writer.append([ev.stepStarted("think")]);
  await producer.close(); // the producer's process is gone: its own lease timer with it
  const tails = [collect(b.tail(threadId, writer.started.cursor)), collect(c.tail(threadId, writer.started.cursor))];
  // Both readers follow the thread and have asked for its lease once: each set one timer for its deadline.
  await until(() => b.stats().followedThreads === 1 && c.stats().followedThreads === 1 && clock.pending === 2, "both readers watch the lease");
  clock.advance(LEASE);
  const [seenByB, seenByC] = await Promise.all(tails);
  expect(seenByB).toEqual(seenByC);
  expect(seenByB.map((s) => s.event.type)).toEqual(["STEP_STARTED", "RUN_ERROR"]);
  expect(errorsIn(seenByB)).toEqual([expect.objectContaining({ code: "ABANDONED", message: expect.stringContaining(`run "r1" was abandoned`) })]);
  const read = await b.read(threadId);
  expect(read?.kind === "snapshot" && read.snapshot.run).toMatchObject({ runId: "r1", status: "failed", errorCode: "ABANDONED" });
});

test("on Redis's own clock, a run whose producer is gone is ended ABANDONED for another instance's tail within its lease", async () => {
  const lease = 400;
  const [producer, watcher] = await Promise.all([instance({ lease }), instance({ lease })]);
  const threadId = newThread();
  const writer = await producer.beginRun(runAgentInput(threadId, "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  const appended = Date.now();
  await producer.close(); // no more heartbeats: the lease key expires in Redis after `lease` ms
  const log = await collect(watcher.tail(threadId, writer.started.cursor)); // completes only through the RUN_ERROR
  const elapsed = Date.now() - appended;
  expect(log.map((s) => s.event)).toEqual([ev.textMessageStart("m1"), expect.objectContaining({ type: "RUN_ERROR", code: "ABANDONED" })]);
  expect(elapsed).toBeGreaterThanOrEqual(lease - 50); // not before the lease ran out (Redis's clock, not ours: a little slack)
  expect(elapsed).toBeLessThan(lease + 2000); // and soon after, never a hang
});

test("a producer whose run another instance ended ABANDONED learns it: stopRequested completes, append is refused run-ended", async () => {
  const clock = new ManualClock();
  const [producer, other] = await Promise.all([instance({ clock }), instance({ clock })]);
  const threadId = newThread();
  const writer = await producer.beginRun(runAgentInput(threadId, "r1"));
  const stopped = collect(writer.stopRequested);
  clock.jump(LEASE);
  expect(await other.stop(threadId, "r1")).toBe("ended"); // the other instance noticed first and ended it
  expect(await stopped).toEqual([]); // the end was announced: no stop, just the end
  await expect(writer.append([ev.stepStarted("late")])).rejects.toMatchObject({ code: "run-ended" });
  expect(producer.stats().liveRuns).toBe(0);
});
