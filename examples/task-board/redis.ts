/** The task board's threads on Redis (`npm run serve -- --redis <url>`): a node-redis client and `redisStore` over it, opened and closed together. */
import { createClient } from "redis";
import { redisStore, type RedisStore, type RedisStoreSettings } from "../../src/redis/redisStore";

/** A store on Redis and the client under it. */
export interface OpenedRedisStore {
  readonly store: RedisStore;
  /** Closes the store (its reader and subscription), then the client. */
  close(): Promise<void>;
}

/** Options of {@link openRedisStore}: the store's settings, a name for the client's connection, and where connection errors go. */
export interface OpenRedisStoreOptions extends RedisStoreSettings {
  /** `CLIENT SETNAME` of the command connection (default `agui-rx-serve`). */
  readonly clientName?: string;
  /**
   * Hears each connection error (node-redis emits one per failed attempt while it reconnects; the
   * store's commands fail on their own with a StoreError). Default: one line on stderr per
   * distinct message, so that a Redis that is down does not flood the log.
   */
  readonly onConnectionError?: (error: Error) => void;
}

/**
 * Connects to the Redis at `url` and makes a `redisStore` on that connection. Rejects with an
 * error naming the URL when Redis cannot be reached within the store's timeout (default 10 s).
 *
 * @example
 * const { store, close } = await openRedisStore("redis://127.0.0.1:6379");
 * const server = await createTaskBoardServer({ store });
 */
export async function openRedisStore(url: string, options: OpenRedisStoreOptions = {}): Promise<OpenedRedisStore> {
  const { clientName, onConnectionError, ...settings } = options;
  let connected = false;
  const client = createClient({
    url,
    name: clientName ?? "agui-rx-serve",
    socket: {
      connectTimeout: settings.timeout ?? 10_000,
      // node-redis retries a first connection forever, so a wrong URL would hang the start: fail it
      // instead. Once up, a lost connection is retried with a capped backoff (the store's commands
      // fail meanwhile, within its timeout). The store's own connections are duplicates: the same.
      reconnectStrategy: (retries: number) => (connected ? Math.min(100 * 2 ** retries, 2000) : false),
    },
  });
  client.on("error", onConnectionError ?? onceEach());
  try {
    await client.connect();
    connected = true;
  } catch (error) {
    if (client.isOpen) client.destroy(); // the reconnect strategy's refusal already closed it
    throw new Error(`expected a Redis at ${url}, but connecting failed: ${messageOf(error)}`, { cause: error });
  }
  const store = redisStore({ client, ...settings });
  return {
    store,
    close: async () => {
      await store.close();
      await client.close().catch(() => client.destroy()); // a client whose server is gone cannot QUIT
    },
  };
}

/** The message of a thrown value (also of an Error from another realm, which `instanceof Error` misses). */
function messageOf(error: unknown): string {
  return typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : String(error);
}

/** Logs each distinct connection error once (a reconnecting client repeats the same one). */
function onceEach(): (error: Error) => void {
  const seen = new Set<string>();
  return (error) => {
    if (seen.has(error.message)) return;
    seen.add(error.message);
    process.stderr.write(`redis: ${error.message}\n`);
  };
}
