import type { Config } from "jest";
import base from "./jest.config";

/**
 * `npm run test:cluster`: the suites that need a real Redis Cluster (test/redis/cluster,
 * docs/durability.md#redis-cluster). The global setup uses `REDIS_CLUSTER_NODES` when set, else
 * starts six `redis-server --cluster-enabled yes` on loopback (three primaries, three replicas),
 * stopped by the global teardown.
 */
const config: Config = {
  ...base,
  roots: ["<rootDir>/test/redis/cluster"],
  testPathIgnorePatterns: ["/node_modules/", "/support/"],
  globalSetup: "<rootDir>/test/redis/cluster/support/globalSetup.ts",
  globalTeardown: "<rootDir>/test/redis/cluster/support/globalTeardown.ts",
  // Real servers and slot moves and failovers, which take seconds.
  testTimeout: 90_000,
  maxWorkers: 1,
};

export default config;
