/**
 * Connections to the suite's Redis Cluster (`REDIS_CLUSTER_NODES`, set by the global setup): node-redis
 * cluster clients made, connected and closed per test, and stores on them.
 */
import { createCluster } from "redis";
import { redisStore, type RedisStore, type RedisStoreSettings } from "../../../../src/redis/redisStore";
import type { ThreadStore } from "../../../../src/server/store/ThreadStore";
import type { StoreFactory } from "../../../server/store/threadStoreContract";
import { contractStoresOn } from "../../support/contractStores";

/** A connected node-redis cluster client. */
export type TestCluster = ReturnType<typeof createCluster>;

/** The addresses of the suite's cluster nodes (`127.0.0.1:<port>`); set by the global setup, so a missing one is a broken setup. */
export function clusterNodes(): string[] {
  const nodes = process.env.REDIS_CLUSTER_NODES;
  if (nodes === undefined || nodes === "")
    throw new Error("expected REDIS_CLUSTER_NODES to be set by the cluster suite's global setup (npm run test:cluster), but it is not");
  return nodes.split(",");
}

/** Connection errors seen by the cluster clients of this worker (a test that fails a node over expects some). */
export const clusterErrors: Error[] = [];

/**
 * Creates and connects a cluster client over the suite's nodes.
 *
 * @example
 * const cluster = await connectCluster();
 */
export async function connectCluster(options: { name?: string } = {}, nodes: readonly string[] = clusterNodes()): Promise<TestCluster> {
  const cluster = createCluster({
    rootNodes: nodes.map((node) => ({ url: `redis://${node}` })),
    // named, so that CLIENT LIST on every node can count one client's connections
    defaults: {
      ...(options.name === undefined ? {} : { name: options.name }),
      socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 500) },
    },
  });
  cluster.on("error", (error: Error) => clusterErrors.push(error));
  await cluster.connect();
  return cluster;
}

/**
 * Stores over cluster clients of their own, closed together by `closeAll`.
 *
 * @example
 * const stores = clusterStores("cut");
 * const a = await stores.open();
 * afterEach(() => stores.closeAll());
 */
export function clusterStores(name: string): {
  prefix: string;
  open(settings?: RedisStoreSettings & { clientName?: string }): Promise<RedisStore>;
  closeAll(): Promise<void>;
} {
  const prefix = `test:${name}:${process.pid}:${Date.now().toString(36)}:`;
  const opened: { store: RedisStore; cluster: TestCluster }[] = [];
  return {
    prefix,
    async open({ clientName, ...settings } = {}) {
      const cluster = await connectCluster(clientName === undefined ? {} : { name: clientName });
      const store = redisStore({ client: cluster, prefix, ...settings });
      opened.push({ store, cluster });
      return store;
    },
    async closeAll() {
      for (const { store, cluster } of opened.splice(0)) {
        await store.close();
        await cluster.close().catch(() => cluster.destroy());
      }
    },
  };
}

/**
 * The `make` and `close` a ThreadStore contract suite takes (test/server/store), for `redisStore()`
 * over a cluster client of its own per store, under one prefix of the suite's own.
 *
 * @example
 * describeBranches("redisStore on a cluster", ...contractClusterStores("branches"));
 */
export function contractClusterStores(name: string): [make: StoreFactory, close: (store: ThreadStore) => Promise<void>] {
  const prefix = `test:${name}:${process.pid}:${Date.now().toString(36)}:`;
  return contractStoresOn(prefix, connectCluster, (cluster) => cluster.close().catch(() => cluster.destroy()));
}
