/**
 * The cluster suite's global setup (`npm run test:cluster`): `REDIS_CLUSTER_NODES` when it is set
 * (addresses of a running cluster's nodes, comma-separated), else a cluster of six `redis-server`
 * children started here on loopback (redisCluster.ts), stopped by the global teardown.
 */
import { clusterReady, settle, startRedisCluster, type RedisCluster } from "./redisCluster";

declare global {
  // The cluster this setup started, for the teardown (jest runs both in the same process).
  var __aguiRedisCluster: RedisCluster | undefined;
}

export default async function globalSetup(): Promise<void> {
  const given = process.env.REDIS_CLUSTER_NODES;
  if (given !== undefined && given !== "") {
    // CI's own cluster: ready for the failover tests too (every replica's link up)
    await settle(() => clusterReady(given.split(",")), 60_000, "every node of REDIS_CLUSTER_NODES to be ready");
    return;
  }
  const cluster = await startRedisCluster();
  globalThis.__aguiRedisCluster = cluster;
  process.env.REDIS_CLUSTER_NODES = cluster.nodes.join(","); // the test workers, forked after this, inherit it
}
