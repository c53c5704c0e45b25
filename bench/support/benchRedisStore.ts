/** A `redisStore()` for a bench suite's Redis lanes: over a redis-server of the bench's own, under a key prefix of its own. */
import { createClient } from "redis";
import { redisStore, type RedisStore } from "../../src/redis/redisStore";
import { benchRedis } from "../../test/redis/support/redisServer";

/**
 * Runs `use` with a `redisStore()` on a redis-server started for it (`benchRedis`), under the
 * prefix `bench-<name>-<now>:` (never another run's keys), then closes the store, the client and
 * the server, also when `use` throws. Without a redis-server it says why the Redis lanes are
 * skipped and resolves.
 *
 * @example
 * await withBenchRedisStore("threads", async (store) => rows.push(...(await lanes("redis", store))));
 */
export async function withBenchRedisStore(name: string, use: (store: RedisStore) => Promise<void>): Promise<void> {
  const redis = await benchRedis();
  if ("skipped" in redis) {
    console.log(`Redis lanes skipped: ${redis.skipped}`);
    return;
  }
  const client = createClient({ url: redis.url });
  await client.connect();
  let store: RedisStore | undefined;
  try {
    store = redisStore({ client, prefix: `bench-${name}-${Date.now()}:` });
    await use(store);
  } finally {
    await store?.close();
    await client.quit();
    await redis.stop();
  }
}

/**
 * Runs `use` with `count` `redisStore()`s on one redis-server started for it, each with its own
 * client and all under one prefix, so that they share threads as the instances of separate
 * processes would (a run on one, a request to another); then closes them all, the clients and
 * the server, also when `use` throws. Without a redis-server it says why the lanes are skipped.
 *
 * @example
 * await withBenchRedisStores("queue", 2, async ([a, b]) => rows.push(...(await crossInstance(a, b))));
 */
export async function withBenchRedisStores(name: string, count: number, use: (stores: readonly RedisStore[]) => Promise<void>): Promise<void> {
  const redis = await benchRedis();
  if ("skipped" in redis) {
    console.log(`Redis lanes skipped: ${redis.skipped}`);
    return;
  }
  const prefix = `bench-${name}-${Date.now()}:`;
  const opened: { client: ReturnType<typeof createClient>; store: RedisStore }[] = [];
  try {
    for (let n = 0; n < count; n++) {
      const client = createClient({ url: redis.url });
      await client.connect();
      opened.push({ client, store: redisStore({ client, prefix }) });
    }
    await use(opened.map((instance) => instance.store));
  } finally {
    for (const { client, store } of opened) {
      await store.close();
      await client.quit();
    }
    await redis.stop();
  }
}
