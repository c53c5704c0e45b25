/** The Redis side of the ThreadStore contract suites (test/server/store): a `redisStore()` per test on a client of its own, closed with it. */
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import type { StoreFactory } from "../../server/store/threadStoreContract";
import type { NodeRedisClient, NodeRedisCluster } from "../../../src/redis/nodeRedisPort";
import { closeClient, connectClient, uniquePrefix } from "./clients";

/**
 * The `make` and `close` a contract suite takes, for `redisStore()` on a connection per store:
 * `connect` makes it, `disconnect` lets it go after the store closed; every store under `prefix`,
 * with the suite's clock, lease and run bound.
 *
 * @example
 * contractStoresOn(prefix, () => connectClient(name), closeClient);
 */
export function contractStoresOn<C extends NodeRedisClient | NodeRedisCluster>(
  prefix: string,
  connect: () => Promise<C>,
  disconnect: (client: C) => Promise<void>,
): [make: StoreFactory, close: (store: ThreadStore) => Promise<void>] {
  const clients = new Map<ThreadStore, { store: RedisStore; client: C }>();
  const make: StoreFactory = async ({ clock, lease, maxRunsPerThread }) => {
    const client = await connect();
    const store = redisStore({ client, prefix, clock, lease, maxRunsPerThread });
    clients.set(store, { store, client });
    return store;
  };
  const close = async (store: ThreadStore): Promise<void> => {
    const entry = clients.get(store);
    clients.delete(store);
    if (entry === undefined) return;
    await entry.store.close();
    await disconnect(entry.client);
  };
  return [make, close];
}

/**
 * The `make` and `close` a contract suite takes, for `redisStore()`: each store on a new client
 * named `name`, under one prefix of this file's own, with the suite's clock, lease and run bound.
 *
 * @example
 * describeBranches("redisStore", ...contractRedisStores("branches"));
 */
export function contractRedisStores(name: string): [make: StoreFactory, close: (store: ThreadStore) => Promise<void>] {
  return contractStoresOn(uniquePrefix(name), () => connectClient(name), closeClient);
}
