/** The cluster suite's global teardown: stops every node the global setup started, if it started any, and removes the instance bundles. */
import { rmSync } from "node:fs";
import { CLUSTER_BUNDLES } from "./clusterProducer";

export default async function globalTeardown(): Promise<void> {
  const cluster = globalThis.__aguiRedisCluster;
  globalThis.__aguiRedisCluster = undefined;
  if (cluster !== undefined) await cluster.stop();
  rmSync(CLUSTER_BUNDLES, { recursive: true, force: true });
}
