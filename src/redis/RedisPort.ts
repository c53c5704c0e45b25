/**
 * The narrow port through which `redisStore()` reaches Redis (docs/durability.md, "Redis"; STYLE:
 * vercel/resumable-stream's Publisher/Subscriber): raw commands on the caller's connection, one
 * more connection for the blocking tail reader, and one subscribed to the signal channel; for a
 * Redis Cluster (docs/durability.md#redis-cluster), commands routed by their first key, and
 * sharded notifications instead of the blocking reader. `nodeRedisPort` adapts a node-redis client
 * or cluster; any client that can do these things can.
 */

/**
 * Where a command goes in a Redis Cluster: the slot of its first key (`undefined` for a command
 * without keys, such as `PUBLISH`: any node), and whether it only reads. A port to one server may
 * ignore it.
 *
 * @example
 * const route: CommandRoute = { key: "agui:{t1}:events", readOnly: true }; // XRANGE of thread t1
 */
export interface CommandRoute {
  readonly key: string | undefined;
  readonly readOnly: boolean;
}

/**
 * One connection's commands.
 *
 * @example
 * const reply = await connection.send(["XRANGE", "agui:{t1}:events", "-", "+"]);
 */
export interface RedisConnection {
  /**
   * Sends one command and resolves with its reply as the client decodes it (strings, numbers,
   * arrays, `null`), or rejects: an error reply, or a connection failure. Commands sent in one
   * turn of the event loop go out as one pipeline, in call order. `signal`, when it aborts before
   * the command is written (a client queueing commands while it reconnects), withdraws it, so that
   * a command the store gave up on never runs later. `route` names the command's first key and
   * whether it only reads: a port to a Redis Cluster sends the command to the node of that key's
   * slot (following `MOVED` and `ASK` redirections); every key of one command shares that slot.
   */
  send(args: readonly string[], signal?: AbortSignal, route?: CommandRoute): Promise<unknown>;
}

/**
 * A connection the store opened and must close.
 *
 * @example
 * const reader = await port.connect("agui-rx:k3x9:reader");
 * await reader.close();
 */
export interface OwnedConnection extends RedisConnection {
  /** Closes it at once, failing what is pending on it (a blocking read, for one). */
  close(): Promise<void>;
}

/**
 * A subscription the store opened and must close.
 *
 * @example
 * const subscription = await port.subscribe("agui-rx:k3x9:signals", "agui:signals", console.log);
 */
export interface OwnedSubscription {
  close(): Promise<void>;
}

/**
 * Sharded pub/sub of a Redis Cluster (`SSUBSCRIBE`): how the tail reader learns that a followed
 * thread's stream grew (its scripts `SPUBLISH` to a channel named like the thread's events key, so
 * in the thread's slot). The port keeps the subscriptions on the node that owns each slot, and
 * moves them when the slot moves; a message lost meanwhile is made up for by the reader's polls.
 *
 * @example
 * await shards.listen("agui:{t1}:events", onGrown);
 * await shards.unlisten("agui:{t1}:events", onGrown);
 */
export interface ShardNotifications {
  /** Subscribes `listener` to `channel` (resolves once subscribed); several listeners of one channel are kept apart. */
  listen(channel: string, listener: () => void): Promise<void>;
  /** Takes `listener` off `channel`; the channel is unsubscribed once it has no listener left. */
  unlisten(channel: string, listener: () => void): Promise<void>;
}

/**
 * What the store needs of Redis: commands on the caller's connection (`send`), a new connection
 * for blocking reads, and a subscription. Names become `CLIENT SETNAME`, so that the connections an
 * instance opens can be counted in `CLIENT LIST`.
 *
 * @example
 * const store = redisStore({ port: nodeRedisPort(client) });
 */
export interface RedisPort extends RedisConnection {
  /**
   * Opens another connection to the same server, named `name`. `signal` aborts the attempt (the
   * store gave up waiting): the connection is then destroyed, whether it was still connecting or not.
   */
  connect(name: string, signal?: AbortSignal): Promise<OwnedConnection>;
  /** Opens another connection, named `name`, subscribed to `channel`; `listener` gets each message. `signal` as for `connect`. */
  subscribe(name: string, channel: string, listener: (message: string) => void, signal?: AbortSignal): Promise<OwnedSubscription>;
  /**
   * Present when the port reaches a Redis Cluster (docs/durability.md#redis-cluster): the store's
   * scripts then announce each append on the thread's sharded channel, and its tails are read by
   * `XRANGE` when one arrives, instead of by one blocking `XREAD` (which cannot span slots); `connect`
   * is not used. Absent: one server, the blocking reader.
   */
  readonly shards?: ShardNotifications | undefined;
}
