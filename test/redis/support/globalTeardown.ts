/**
 * The Redis suite's global teardown: stops the `redis-server` the global setup started, if it
 * started one, and removes the instance bundles the multi-instance tests built (instances.ts).
 */
import { rmSync } from "node:fs";
import { INSTANCE_BUNDLES } from "./instances";

export default async function globalTeardown(): Promise<void> {
  const server = globalThis.__aguiRedisServer;
  globalThis.__aguiRedisServer = undefined;
  if (server !== undefined) await server.stop();
  rmSync(INSTANCE_BUNDLES, { recursive: true, force: true });
}
