/**
 * The Redis suite's global setup (`npm run test:redis`): `REDIS_URL` when it is set (CI starts
 * its own server), else a `redis-server` child started here on a free loopback port, stopped by the
 * global teardown. Without either, the suite fails here, loudly.
 */
import { startRedisServer, type RedisServer } from "./redisServer";

declare global {
  // The server this setup started, for the teardown (jest runs both in the same process).
  var __aguiRedisServer: RedisServer | undefined;
}

export default async function globalSetup(): Promise<void> {
  if (process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== "") return;
  const server = await startRedisServer();
  globalThis.__aguiRedisServer = server;
  process.env.REDIS_URL = server.url; // the test workers, forked after this, inherit it
}
