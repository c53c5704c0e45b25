/**
 * The `RedisPort` over a node-redis client (`redis` 5, the client Redis maintains; docs/durability.md,
 * "Redis"): commands through `sendCommand` (which pipelines what is sent in one tick), and the two
 * extra connections as `duplicate()`s of the caller's client, with its options. Over a node-redis
 * cluster (`createCluster`; docs/durability.md#redis-cluster): commands routed by their first key,
 * the signal subscription and the sharded notifications on the cluster's own pub/sub connections.
 */
import type { OwnedConnection, OwnedSubscription, RedisPort } from "./RedisPort";

/**
 * The few members of a node-redis client (`createClient()` from `redis` 5) the store uses, typed
 * structurally so that the package does not import `redis` at run time or in its types.
 *
 * @example
 * const client: NodeRedisClient = createClient({ url: process.env.REDIS_URL });
 */
export interface NodeRedisClient {
  sendCommand(args: readonly string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  duplicate(overrides?: { name?: string; disableOfflineQueue?: boolean }): NodeRedisClient;
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: "error", listener: (error: Error) => void): unknown;
  SUBSCRIBE(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>;
}

/**
 * The few members of a node-redis cluster client (`createCluster()` from `redis` 5) the store uses:
 * commands by first key (node-redis follows `MOVED` and `ASK` and keeps one connection per primary),
 * pub/sub (one connection for `SUBSCRIBE`, one per primary for `SSUBSCRIBE`, moved with their slots).
 * `masters` tells it apart from a single client.
 *
 * @example
 * const cluster: NodeRedisCluster = createCluster({ rootNodes: [{ url: "redis://10.0.0.1:7000" }] });
 */
export interface NodeRedisCluster {
  readonly masters: readonly unknown[];
  sendCommand(firstKey: string | undefined, isReadonly: boolean | undefined, args: string[], options?: { abortSignal?: AbortSignal }): Promise<unknown>;
  SUBSCRIBE(channel: string, listener: (message: string | Uint8Array, channel: string | Uint8Array) => unknown): Promise<void>;
  /** (node-redis types this listener for both its string and its buffer mode) */
  UNSUBSCRIBE(channel: string, listener: (message: string | Uint8Array, channel: string | Uint8Array) => unknown): Promise<void>;
  SSUBSCRIBE(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>;
  SUNSUBSCRIBE(channel: string, listener: (message: string, channel: string) => unknown): Promise<void>;
}

/**
 * Options of `nodeRedisPort`.
 *
 * @example
 * nodeRedisPort(client, { onConnectionError: (error) => log.warn(error) });
 */
export interface NodeRedisPortOptions {
  /**
   * Called with each error event of the connections the store opens (node-redis emits one per
   * failed connection attempt while it reconnects). The store itself learns of a failure from the
   * commands it had pending, which reject; this is for logs. Default: nothing.
   */
  readonly onConnectionError?: ((error: Error) => void) | undefined;
}

/**
 * The port over `client`, which the caller creates, connects, gives an `error` listener (node-redis
 * throws an error event nobody listens to) and closes. The reader's connection is a duplicate with
 * `disableOfflineQueue`, so that a blocking read fails at once while Redis is unreachable instead
 * of waiting to be sent.
 *
 * @example
 * const client = createClient({ url: process.env.REDIS_URL });
 * client.on("error", (error) => log.warn(error));
 * await client.connect();
 * const store = redisStore({ client });
 */
export function nodeRedisPort(client: NodeRedisClient | NodeRedisCluster, options: NodeRedisPortOptions = {}): RedisPort {
  if ("masters" in client) return clusterPort(client);
  const onError = options.onConnectionError ?? ((): void => undefined);
  const open = async (
    name: string,
    disableOfflineQueue: boolean,
    signal: AbortSignal | undefined,
    ready: (connection: NodeRedisClient) => Promise<unknown>,
  ): Promise<NodeRedisClient> => {
    const connection = client.duplicate({ name, disableOfflineQueue });
    connection.on("error", onError);
    // A client reconnecting to a server that is down would try forever: the store's give-up ends it.
    const abort = (): void => connection.destroy();
    signal?.addEventListener("abort", abort, { once: true });
    try {
      await connection.connect();
      await ready(connection);
      if (signal?.aborted) throw new Error("the connection was given up on while it opened");
    } catch (error) {
      connection.destroy();
      throw error;
    } finally {
      signal?.removeEventListener("abort", abort);
    }
    return connection;
  };
  return {
    send: (args, signal) => client.sendCommand(args, signal === undefined ? undefined : { abortSignal: signal }),
    async connect(name, signal): Promise<OwnedConnection> {
      const connection = await open(name, true, signal, async () => undefined);
      return {
        send: (args, signal) => connection.sendCommand(args, signal === undefined ? undefined : { abortSignal: signal }),
        close: async () => connection.destroy(),
      };
    },
    async subscribe(name, channel, listener, signal): Promise<OwnedSubscription> {
      const connection = await open(name, false, signal, (opened) => opened.SUBSCRIBE(channel, (message) => listener(message)));
      return { close: async () => connection.destroy() };
    },
  };
}

/**
 * The port over a node-redis cluster, which the caller creates, connects, gives an `error` listener
 * and closes. Nothing is duplicated: the cluster already keeps its pub/sub apart from its commands,
 * so an instance adds no connection of its own (docs/durability.md#redis-cluster: the bound).
 * `connect` is never called by the store over a cluster (its tails are read by `XRANGE`); it
 * refuses, so that nothing blocks a shared connection.
 */
function clusterPort(cluster: NodeRedisCluster): RedisPort {
  const send = (args: readonly string[], signal: AbortSignal | undefined, key: string | undefined, readOnly: boolean): Promise<unknown> =>
    cluster.sendCommand(key, readOnly, [...args], signal === undefined ? undefined : { abortSignal: signal });
  // One wrapper per store listener, so that unsubscribing takes off exactly that one.
  const wrappers = new WeakMap<() => void, (message: string, channel: string) => void>();
  return {
    send: (args, signal, route) => send(args, signal, route?.key, route?.readOnly ?? false),
    connect: async () => {
      throw new Error("expected no blocking reader over a Redis Cluster: its tails are read by XRANGE on sharded notifications");
    },
    async subscribe(_name, channel, listener, signal): Promise<OwnedSubscription> {
      const wrapped = (message: string | Uint8Array): void => listener(typeof message === "string" ? message : new TextDecoder().decode(message));
      await cluster.SUBSCRIBE(channel, wrapped);
      if (signal?.aborted) {
        await cluster.UNSUBSCRIBE(channel, wrapped);
        throw new Error("the subscription was given up on while it opened");
      }
      return { close: () => cluster.UNSUBSCRIBE(channel, wrapped) };
    },
    shards: {
      listen: (channel, listener) => {
        const wrapped = (): void => listener();
        wrappers.set(listener, wrapped);
        return cluster.SSUBSCRIBE(channel, wrapped);
      },
      unlisten: async (channel, listener) => {
        const wrapped = wrappers.get(listener);
        if (wrapped === undefined) return;
        wrappers.delete(listener);
        await cluster.SUNSUBSCRIBE(channel, wrapped);
      },
    },
  };
}
