/**
 * Store scripts acknowledged by replicas (docs/durability.md#failover-and-acknowledged-events): the
 * script and a `WAIT <count> <timeoutMs>` go out together, in one turn of the event loop, so that
 * they are written on the same connection one after the other and `WAIT` counts the replicas that
 * hold what the script wrote (WAIT cannot run inside a script). A script Redis does not have
 * (`NOSCRIPT`, after a failover or a restart) is loaded with `SCRIPT LOAD` (which runs nothing) and
 * the pair sent again; it is never sent whole with EVAL ahead of its WAIT.
 */
import { StoreError, type StoreErrorDetails } from "../server/store/StoreError";
import { commandRoute } from "./commands/route";
import { evalArguments, evalshaArguments, isNoScript, type ScriptKeys, type StoreScript } from "./commands/EVAL";
import type { RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import { scriptDigest } from "./scriptDigests";
import { notifyingScript } from "./scripts/notifyingScript";
import type { ScriptContext } from "./scripts/prelude";

/**
 * The `replicas` setting of `redisStore()`: how many replicas must hold an append before its events
 * go to anyone, and how long to wait for them.
 *
 * @example
 * redisStore({ client, replicas: { count: 1, timeoutMs: 500 } });
 */
export interface ReplicaAcknowledgement {
  /** Replicas that must acknowledge each append (`WAIT <count>`): at least 1. */
  readonly count: number;
  /** Milliseconds `WAIT` may take; fewer replicas by then fail the append (`unavailable`, cause `NOREPLICAS`). */
  readonly timeoutMs: number;
}

/**
 * Runs `script` on `connection` and resolves with its reply once `replicas.count` replicas
 * acknowledged it; rejects with StoreError `unavailable` whose cause is a `NOREPLICAS` error when
 * fewer did within `replicas.timeoutMs` (an answer, not a lost reply: never retried), and as
 * `RedisCalls.command` does for any other failure.
 *
 * @example
 * const reply = await scriptAcknowledged(calls, port, appendScript, keys, context, args, { count: 1, timeoutMs: 500 }, { runId });
 */
export async function scriptAcknowledged(
  calls: RedisCalls,
  connection: RedisConnection,
  script: StoreScript,
  keys: ScriptKeys,
  context: ScriptContext,
  args: readonly string[],
  replicas: ReplicaAcknowledgement,
  details: StoreErrorDetails = {},
): Promise<unknown> {
  const what = `the ${script.name} script`;
  const on = { threadId: context.threadId, ...details };
  // the script as RedisCalls sends it: over a cluster, the variant that announces what it logs
  const sent = calls.notifying ? notifyingScript(script) : script;
  const digest = scriptDigest(sent);
  const call = digest === undefined ? evalArguments(sent, keys, context, args) : evalshaArguments(digest, keys, context, args);
  const wait = ["WAIT", String(replicas.count), String(replicas.timeoutMs)];
  // Over a Redis Cluster, WAIT (no key) and SCRIPT LOAD go where the script goes: its thread's primary.
  const route = commandRoute(call);
  const pair = (): Promise<[unknown, unknown]> =>
    Promise.all([calls.command(connection, call, what, on), calls.command(connection, wait, `WAIT after ${what}`, on, replicas.timeoutMs, route)]);
  let replies: [unknown, unknown];
  try {
    replies = await pair();
  } catch (error) {
    if (!isNoScript(error)) throw error;
    await calls.command(connection, ["SCRIPT", "LOAD", sent.source], `SCRIPT LOAD of ${what}`, on, 0, route);
    replies = await pair();
  }
  checkAcknowledged(replies[1], replicas, what, on);
  return replies[0];
}

/**
 * Makes sure the replicas hold everything `connection` has read so far before it is handed to
 * anyone: a write of the thread's `sync` key (a short TTL) and `WAIT <count> <timeoutMs>`, together
 * on that connection. Redis replicates in one order, so a replica that acknowledges this write
 * holds every entry the connection read before it, whoever wrote them (another instance's
 * producer, an `ABANDONED` logged by any script). What a tail or read on an instance other than
 * the producer's hands on is thus acknowledged as the producer's own answers are. Rejects like
 * `scriptAcknowledged` when fewer replicas acknowledge in time.
 *
 * @example
 * await confirmReplicated(calls, port, keys, { count: 1, timeoutMs: 500 }, { threadId: "t1" });
 */
export async function confirmReplicated(
  calls: RedisCalls,
  connection: RedisConnection,
  keys: { readonly sync: string },
  replicas: ReplicaAcknowledgement,
  details: StoreErrorDetails = {},
): Promise<void> {
  const write = ["SET", keys.sync, "1", "PX", String(SYNC_TTL_MS)];
  const wait = ["WAIT", String(replicas.count), String(replicas.timeoutMs)];
  const replies = await Promise.all([
    calls.command(connection, write, "SET of the sync key", details),
    calls.command(connection, wait, "WAIT after a read", details, replicas.timeoutMs, commandRoute(write)),
  ]);
  checkAcknowledged(replies[1], replicas, "what was read", details);
}

/** How long a thread's sync key lives after a reading instance's last write of it. */
const SYNC_TTL_MS = 60_000;

/** Rejects with `unavailable` (cause `NOREPLICAS`) when `reply` (WAIT's) counts fewer replicas than asked. */
function checkAcknowledged(reply: unknown, replicas: ReplicaAcknowledgement, what: string, on: StoreErrorDetails): void {
  const acknowledged = Number(reply);
  if (acknowledged >= replicas.count) return;
  const cause = new Error(`NOREPLICAS ${acknowledged} of ${replicas.count} replicas acknowledged within ${replicas.timeoutMs} ms`);
  throw new StoreError(
    "unavailable",
    `expected ${replicas.count} replica(s) to acknowledge ${what}${on.threadId === undefined ? "" : ` for thread "${on.threadId}"`} within ${replicas.timeoutMs} ms, but ${acknowledged} did: its events are not handed to anyone`,
    { ...on, cause },
  );
}
