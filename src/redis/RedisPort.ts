/**
 * The narrow port through which `redisStore()` reaches Redis (docs/durability.md, "Redis"; STYLE:
 * vercel/resumable-stream's Publisher/Subscriber): raw commands on the caller's connection, one
 * more connection for the blocking tail reader, and one subscribed to the signal channel.
 * `nodeRedisPort` adapts a node-redis client; any client that can do these three things can.
 */

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
   * a command the store gave up on never runs later.
   */
  send(args: readonly string[], signal?: AbortSignal): Promise<unknown>;
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
}
