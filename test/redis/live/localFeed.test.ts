/**
 * Tails of a run on the instance that produces it are fed by its writer, not read back from Redis
 * (src/redis/TailReader.ts, `own`): 1,000 tails joining at every point of a run are each exact and
 * the instance never opens its reader; a tail waiting after the last run's end gets the next run
 * fed; and when the run ends without its writer (ABANDONED by another instance, the end signal
 * lost) the thread goes back to being read from Redis, so the local tails still end with it.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { StoredEvent } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "../../server/store/manualClock";
import { connectionsOf } from "../support/connections";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { deafPort } from "../support/ports";
import { until } from "../support/until";
import { asLogged } from "../../support/storedEvents";

const prefix = uniquePrefix("feed");
const opened: { store: RedisStore; client: TestClient }[] = [];
let admin: TestClient;

beforeAll(async () => {
  admin = await connectClient("feed-admin");
});

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

afterAll(async () => {
  await closeClient(admin);
});

async function instance(name: string, options: { clock?: ManualClock; lease?: number; deaf?: boolean } = {}): Promise<RedisStore> {
  const client = await connectClient(name);
  const settings = {
    prefix,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.lease === undefined ? {} : { lease: options.lease }),
  };
  const store = options.deaf === true ? redisStore({ port: deafPort(client), ...settings }) : redisStore({ client, ...settings });
  opened.push({ store, client });
  return store;
}

test("1,000 tails on the producing instance, joining from every cursor while the run goes on, are each exact; the run is never read back (no reader connection)", async () => {
  const store = await instance("feed-one");
  const writer = await store.beginRun(runAgentInput("feed-one", "r1"));
  const log: StoredEvent[] = [writer.started];
  const tails: { from: number; done: Promise<StoredEvent[]> }[] = [];
  for (let i = 0; i < 1000; i++) {
    const from = i % log.length;
    tails.push({ from, done: lastValueFrom(store.tail("feed-one", log[from].cursor).pipe(toArray())) });
    if (i % 10 === 9) {
      const batch = [ev.custom("tick", i), ev.custom("tock", i)];
      const cursors = await writer.append(batch);
      batch.forEach((event, k) => log.push({ cursor: cursors[k], event }));
    }
  }
  await until(() => store.stats().tails === 1000, "every tail follows");
  const finished = ev.runFinished("feed-one", "r1");
  log.push({ cursor: (await writer.append([finished]))[0], event: finished });
  for (const tail of tails) expect((await tail.done).map(asLogged)).toEqual(log.slice(tail.from + 1));
  expect(await connectionsOf(admin, "feed-one", store.instance)).toEqual([`agui-rx:${store.instance}:signals`, "feed-one"]);
});

test("a tail waiting after the last run's end, on the producing instance, gets the next run fed through its end", async () => {
  const store = await instance("feed-next");
  const first = await store.beginRun(runAgentInput("feed-next", "r1"));
  const [end] = await first.append([ev.runFinished("feed-next", "r1")]);
  const tail = lastValueFrom(store.tail("feed-next", end).pipe(toArray()));
  await until(() => store.stats().tails === 1, "the tail follows");
  const second = await store.beginRun(runAgentInput("feed-next", "r2"));
  const events = [ev.textMessageStart("m1"), ev.textMessageContent("m1", "again"), ev.textMessageEnd("m1"), ev.runFinished("feed-next", "r2")];
  const cursors = [...(await second.append(events.slice(0, 2))), ...(await second.append(events.slice(2)))];
  expect((await tail).map(asLogged)).toEqual([second.started, ...events.map((event, i) => ({ cursor: cursors[i], event }))]);
});

test("a run ended ABANDONED by another instance while its writer is quiet (the end signal lost): the producing instance's tails end with the RUN_ERROR, logged once", async () => {
  const clock = new ManualClock();
  const lease = 1000;
  const producer = await instance("feed-quiet", { clock, lease, deaf: true });
  const other = await instance("feed-other", { clock, lease });
  const writer = await producer.beginRun(runAgentInput("feed-quiet", "r1"));
  const [cursor] = await writer.append([ev.textMessageStart("m1")]);
  const local = lastValueFrom(producer.tail("feed-quiet", writer.started.cursor).pipe(toArray()));
  await until(() => producer.stats().tails === 1, "the local tail follows");
  clock.jump(lease); // past the deadline; no timer has run yet
  const read = await other.read("feed-quiet"); // the other instance notices first and ends the run
  expect(read?.kind === "snapshot" && read.snapshot.run.status).toBe("failed");
  clock.advance(1); // the producer's timers now look: the run is over, its thread is read from Redis again
  const events = await local;
  expect(events.map((stored) => stored.event.type)).toEqual(["TEXT_MESSAGE_START", "RUN_ERROR"]);
  expect(events[0].cursor).toBe(cursor);
  expect(events[1].event).toMatchObject({ type: "RUN_ERROR", code: "ABANDONED" });
  const entries: unknown = await admin.sendCommand(["XRANGE", `${prefix}{feed-quiet}:events`, "-", "+"]);
  expect((entries as unknown[]).length).toBe(3); // RUN_STARTED, the message start, one RUN_ERROR (test-only: XRANGE's reply is an array)
  await expect(writer.append([ev.textMessageEnd("m1")])).rejects.toMatchObject({ code: "run-ended" });
});
