/**
 * A waiting message's watcher on the instance that stored it (docs/queue.md#redis-keys): another
 * instance's change of the entry reaches it only through the signal channel, so the channel is
 * subscribed before the entry exists. On a store that had never subscribed, a change made while
 * its first subscription was still opening was lost: the message's stream then learnt that its
 * steer was taken only at the run's end (test/redis/live/queueHttp.test.ts, once in CI).
 * Real redis-server, two store instances on one prefix.
 */
import { nodeRedisPort } from "../../../src/redis/nodeRedisPort";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { QueueChange } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "../../server/store/manualClock";
import { beginOn, changed, enqueue, entryOf, finish, newQueueThread, scopeOf, type QueueThread } from "../../server/store/queueSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const prefix = uniquePrefix("queue-watch");
const opened: { store: RedisStore; client: TestClient }[] = [];

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

async function instance(name: string): Promise<RedisStore> {
  const client = await connectClient(`queue-watch-${name}`);
  const store = redisStore({ port: nodeRedisPort(client), prefix, ttl: 600_000, lease: 1000, clock: new ManualClock() });
  opened.push({ store, client });
  return store;
}

/** How many markers the other instance enqueues at most while waiting for the watcher to hear one. */
const MARKERS = 200;

test("a fresh instance's enqueue resolves with the channel subscribed: the entry's watcher there hears another instance's cancel made at once", async () => {
  const a = await instance("a");
  const b = await instance("b");
  const onA = newQueueThread(a);
  const onB: QueueThread = { store: b, owner: onA.owner, threadId: onA.threadId };
  // The run lives on B (beginning one subscribes the channel of the instance that begins it); A only stores a message.
  const live = await beginOn(onB, "r1");
  expect(await enqueue(onA, entryOf(onA, "q1"))).toBe("queued");

  const heard: string[] = [];
  const watching = a.queueChanges(onA.threadId, scopeOf(onA)).subscribe((change: QueueChange) => heard.push(changed(change)));
  // B cancels the entry at once: a change A can only hear through the channel.
  expect(await b.cancelQueued(onB.threadId, "q1", "changed my mind", scopeOf(onB))).toBe("cancelled");
  // Then B enqueues markers (announced on the same channel, after the cancel) until A hears one: by then A
  // is subscribed, and a subscription that was live for the cancel heard it first.
  const heardMarker = () => heard.some((change) => change.startsWith("enqueued marker-"));
  for (let i = 0; i < MARKERS && !heardMarker(); i++) await enqueue(onB, entryOf(onB, `marker-${i}`), { max: MARKERS + 1 });
  watching.unsubscribe();

  expect(heardMarker()).toBe(true);
  expect(heard[0]).toBe("cancelled q1");
  await finish(live);
});
