/**
 * Ports for the live tests, over a real node-redis client: one that records every command the
 * store sends (to count round trips), and one that loses pub/sub messages (a subscription that
 * missed a signal while it reconnected). Both pass everything else through to the real Redis.
 */
import { createHash } from "node:crypto";
import { nodeRedisPort, type NodeRedisClient } from "../../../src/redis/nodeRedisPort";
import { appendScript } from "../../../src/redis/scripts/appendBatch";
import { quietAppendScript } from "../../../src/redis/scripts/quietAppend";
import { beginScript } from "../../../src/redis/scripts/beginRun";
import { checkpointScript } from "../../../src/redis/scripts/checkpointSnapshot";
import { noticeScript, renewScript } from "../../../src/redis/scripts/leaseScripts";
import { idsAbsentScript } from "../../../src/redis/scripts/idsAbsent";
import { readScript } from "../../../src/redis/scripts/readThread";
import { stopScript } from "../../../src/redis/scripts/stopRun";
import { selectScript } from "../../../src/redis/scripts/selectBranch";
import { cancelQueuedScript, enqueueScript, queueEntryScript, waitingScript } from "../../../src/redis/scripts/queueScripts";
import type { RedisPort } from "../../../src/redis/RedisPort";

/** A port that records the commands sent on the caller's connection (not the reader's). */
export interface RecordingPort extends RedisPort {
  readonly sent: (readonly string[])[];
  /** The size of each reply to `send` (its JSON's length), in the order they came. */
  readonly replied: number[];
}

/** Every store script, by its SHA-1 digest (as EVALSHA names it). */
const SCRIPTS_BY_DIGEST = new Map(
  [
    appendScript,
    quietAppendScript,
    beginScript,
    checkpointScript,
    renewScript,
    noticeScript,
    readScript,
    stopScript,
    idsAbsentScript,
    selectScript,
    enqueueScript,
    cancelQueuedScript,
    queueEntryScript,
    waitingScript,
  ].map((script) => [createHash("sha1").update(script.source).digest("hex"), script.source]),
);

/** The Lua a script call sends (EVAL) or names (EVALSHA), or `undefined` for any other command. */
export function scriptSource(args: readonly string[]): string | undefined {
  if (args[0] === "EVAL") return args[1];
  if (args[0] === "EVALSHA") return SCRIPTS_BY_DIGEST.get(args[1]);
  return undefined;
}

/** A line only the append scripts have, the full one and the quiet one (a writer's batches go through either): `scriptCalls(sent, APPEND_MARK)`. */
export const APPEND_MARK = "tostring(first + i - 1), 'e', ARGV[";

/** The calls of one script among `sent`, whole (EVAL) or by digest (EVALSHA), matched by a line of its Lua. */
export function scriptCalls(sent: readonly (readonly string[])[], marker: string): (readonly string[])[] {
  return sent.filter((args) => scriptSource(args)?.includes(marker) === true);
}

/**
 * Records every command sent through `send`, and the size of its reply.
 *
 * @example
 * const port = recordingPort(client);
 * redisStore({ port });
 */
export function recordingPort(client: NodeRedisClient): RecordingPort {
  const inner = nodeRedisPort(client);
  const sent: (readonly string[])[] = [];
  const replied: number[] = [];
  return {
    sent,
    replied,
    send: async (args, signal) => {
      sent.push(args);
      const reply = await inner.send(args, signal);
      replied.push(JSON.stringify(reply)?.length ?? 0);
      return reply;
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

/**
 * A port that hands some commands another command's reply (`misdirect`).
 *
 * @example
 * const port: MisdirectingPort = misdirectingPort(client);
 */
export interface MisdirectingPort extends RedisPort {
  /**
   * The next command on the caller's connection whose arguments contain `marker` runs on Redis,
   * but its caller gets `reply` instead of Redis's answer: resolved with it, or rejected with it
   * when it is an Error. Each call arms one.
   */
  misdirect(marker: string, reply: unknown): void;
  /** Replies handed out instead so far. */
  readonly misdirected: number;
}

/**
 * A client whose replies got out of step with its commands, as node-redis 5 was seen after
 * reconnecting to a restarting Redis: a queued script call was handed the reply to the client's own
 * handshake (`OK` to `CLIENT SETNAME`, `ERR unknown subcommand 'SETINFO'` from Redis 7.0), while
 * the script itself had run.
 *
 * @example
 * const port = misdirectingPort(client);
 * port.misdirect("TEXT_MESSAGE_START", "OK");
 */
export function misdirectingPort(client: NodeRedisClient): MisdirectingPort {
  const inner = nodeRedisPort(client);
  const armed: { marker: string; reply: unknown }[] = [];
  let misdirected = 0;
  return {
    misdirect: (marker, reply) => {
      armed.push({ marker, reply });
    },
    get misdirected() {
      return misdirected;
    },
    send: async (args, signal) => {
      const index = armed.findIndex(({ marker }) => args.some((arg) => arg.includes(marker)));
      if (index < 0) return inner.send(args, signal);
      const [{ reply }] = armed.splice(index, 1);
      await inner.send(args, signal); // Redis runs it; its answer goes elsewhere
      misdirected++;
      if (reply instanceof Error) throw reply;
      return reply;
    },
    connect: (name, signal) => inner.connect(name, signal),
    subscribe: (name, channel, listener, signal) => inner.subscribe(name, channel, listener, signal),
  };
}
