/** The Redis suite's global teardown: stops the `redis-server` the global setup started, if it started one. */
export default async function globalTeardown(): Promise<void> {
  const server = globalThis.__aguiRedisServer;
  globalThis.__aguiRedisServer = undefined;
  if (server !== undefined) await server.stop();
}
