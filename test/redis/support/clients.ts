/**
 * Connections to the suite's Redis (`REDIS_URL`, set by the global setup) for the live tests:
 * node-redis clients made, connected and closed per test, each with an `error` listener (node-redis
 * throws error events nobody listens to) and a name, so `CLIENT LIST` can tell them apart.
 */
import { createClient } from "redis";

/** A connected node-redis client of the suite's server (or of `url`). */
export type TestClient = ReturnType<typeof createClient>;

/** The suite's Redis URL; set by the global setup, so a missing one is a broken setup. */
export function redisUrl(): string {
  const url = process.env.REDIS_URL;
  if (url === undefined || url === "") throw new Error("expected REDIS_URL to be set by the Redis suite's global setup (npm run test:redis), but it is not");
  return url;
}

/** Connection errors seen by the clients of this worker (a test that kills a server expects some). */
export const connectionErrors: Error[] = [];

/**
 * Creates and connects a client named `name`.
 *
 * @example
 * const client = await connectClient("contract");
 */
export async function connectClient(name: string, url = redisUrl(), options: { disableOfflineQueue?: boolean; reconnect?: boolean } = {}): Promise<TestClient> {
  const client = createClient({
    url,
    name,
    disableOfflineQueue: options.disableOfflineQueue ?? false,
    // A test that kills its server must not have clients retrying in the background forever.
    socket: options.reconnect === false ? { reconnectStrategy: false } : { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 500) },
  });
  client.on("error", (error: Error) => connectionErrors.push(error));
  await client.connect();
  return client;
}

/** Closes a client, whatever state it is in. */
export async function closeClient(client: TestClient): Promise<void> {
  if (client.isOpen) await client.close().catch(() => client.destroy());
}

/** A prefix no other test file or run shares, so tests never see each other's keys. */
export function uniquePrefix(name: string): string {
  return `test:${name}:${process.pid}:${Date.now().toString(36)}:`;
}
