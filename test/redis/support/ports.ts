/**
 * Ports for the live tests, over a real node-redis client: one that records every command the
 * store sends (to count round trips), and one that loses pub/sub messages (a subscription that
 * missed a signal while it reconnected). Both pass everything else through to the real Redis.
 */
import { nodeRedisPort, type NodeRedisClient } from "../../../src/redis/nodeRedisPort";
import type { RedisPort } from "../../../src/redis/RedisPort";

/** A port that records the commands sent on the caller's connection (not the reader's). */
export interface RecordingPort extends RedisPort {
  readonly sent: (readonly string[])[];
}

/** The EVAL calls of one script among `sent` (matched by a line of its Lua). */
export function scriptCalls(sent: readonly (readonly string[])[], marker: string): (readonly string[])[] {
  return sent.filter((args) => args[0] === "EVAL" && args[1].includes(marker));
}

/**
 * Records every command sent through `send`.
 *
 * @example
 * const port = recordingPort(client);
 * redisStore({ port });
 */
export function recordingPort(client: NodeRedisClient): RecordingPort {
  const inner = nodeRedisPort(client);
  const sent: (readonly string[])[] = [];
  return {
    sent,
    send: (args, signal) => {
      sent.push(args);
      return inner.send(args, signal);
    },
    connect: (name, signal) => inner.connect(name, signal),
    subscribe: (name, channel, listener, signal) => inner.subscribe(name, channel, listener, signal),
  };
}

/**
 * Subscribes for real but hands no message on (as if every signal was lost while reconnecting).
 *
 * @example
 * redisStore({ port: deafPort(client) });
 */
export function deafPort(client: NodeRedisClient): RedisPort {
  const inner = nodeRedisPort(client);
  return {
    send: (args, signal) => inner.send(args, signal),
    connect: (name, signal) => inner.connect(name, signal),
    subscribe: (name, channel, _listener, signal) => inner.subscribe(name, channel, () => undefined, signal),
  };
}
