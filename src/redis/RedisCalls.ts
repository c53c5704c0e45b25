/**
 * Every command the store sends goes through here (docs/durability.md, "Redis": failure
 * behaviour): a deadline per command, so that nothing waits on Redis forever, and one mapping of
 * every failure (a lost connection, an error reply, no answer in time) to StoreError `unavailable`
 * that names the command, the thread and the cause.
 */
import { StoreError, type StoreErrorDetails } from "../server/store/StoreError";
import { commandRoute } from "./commands/route";
import { evalArguments, evalshaArguments, isNoScript, type ScriptKeys, type StoreScript } from "./commands/EVAL";
import type { CommandRoute, RedisConnection } from "./RedisPort";
import { scriptDigest } from "./scriptDigests";
import { notifyingScript } from "./scripts/notifyingScript";
import type { ScriptContext } from "./scripts/prelude";

/**
 * Sends commands with a deadline and maps failures to StoreError `unavailable`.
 *
 * @example
 * const calls = new RedisCalls(10_000);
 * const reply = await calls.command(port, ["XRANGE", key, "-", "+"], "XRANGE", { threadId });
 */
export class RedisCalls {
  /**
   * @param timeout milliseconds a command may take before the store gives up on it
   * @param notifying whether scripts announce what they log on the thread's sharded channel (a Redis Cluster: `notifyingScript`)
   */
  constructor(
    readonly timeout: number,
    readonly notifying = false,
  ) {}

  /**
   * Sends `args` on `connection`; rejects with StoreError `unavailable` when it fails or has not
   * answered within the timeout (plus `extraMs`: a blocking read's own block time). A command
   * given up on before it was written is withdrawn (the port's abort signal), so it never runs late.
   * `route` says which node a cluster sends it to: by default its own first key (`commandRoute`);
   * a keyless command that must follow another on its node (`WAIT` after a script) names that one's.
   */
  command(
    connection: RedisConnection,
    args: readonly string[],
    what: string,
    details: StoreErrorDetails = {},
    extraMs = 0,
    route: CommandRoute = commandRoute(args),
  ): Promise<unknown> {
    const limit = this.timeout + extraMs;
    return within(limit, (signal) => sendRetrying(connection, args, signal, route), what, details, `it did not answer within ${limit} ms`);
  }

  /**
   * Opens a connection (`open` gets the abort signal to pass to the port) within the timeout; when
   * the timeout passes first, the attempt is aborted (the port destroys the connection) and this
   * rejects with StoreError `unavailable`.
   */
  open<T>(open: (signal: AbortSignal) => Promise<T>, what: string): Promise<T> {
    return within(this.timeout, open, what, {}, `it did not connect within ${this.timeout} ms`);
  }

  /**
   * Runs a store script for the thread whose keys are `keys`: by its digest (EVALSHA) once that is
   * known, sent whole (EVAL) before, and again whole when Redis answers NOSCRIPT (nothing of it ran).
   */
  script(
    connection: RedisConnection,
    script: StoreScript,
    keys: ScriptKeys,
    context: ScriptContext,
    args: readonly string[],
    details: StoreErrorDetails = {},
  ): Promise<unknown> {
    if (this.notifying) script = notifyingScript(script);
    const what = `the ${script.name} script`;
    const on = { threadId: context.threadId, ...details };
    const whole = (): Promise<unknown> => this.command(connection, evalArguments(script, keys, context, args), what, on);
    const digest = scriptDigest(script);
    if (digest === undefined) return whole();
    return this.command(connection, evalshaArguments(digest, keys, context, args), what, on).catch((error: unknown) => {
      if (isNoScript(error)) return whole();
      throw error;
    });
  }
}

/** How often a command that met `TRYAGAIN` or `CLUSTERDOWN` is sent again (about 7.5 s in all: a slot move or a failover, within the command deadline), and the pause before the first retry (doubled each time, at most 200 ms). */
const CLUSTER_RETRIES = 40;
const CLUSTER_RETRY_MS = 10;

/**
 * Sends `args`, and sends them again (bounded, with growing pauses, within the command's deadline)
 * while a Redis Cluster answers `TRYAGAIN` (a multi-key command or script met a slot whose keys are
 * half migrated: docs/durability.md#redis-cluster) or `CLUSTERDOWN` (a failover under way). Both
 * answers mean nothing of the command ran, so sending it again is safe, scripts included.
 */
async function sendRetrying(connection: RedisConnection, args: readonly string[], signal: AbortSignal, route: CommandRoute): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await connection.send(args, signal, route);
    } catch (error) {
      if (attempt >= CLUSTER_RETRIES || signal.aborted || !isClusterRetry(error)) throw error;
    }
    const pause = Math.min(CLUSTER_RETRY_MS * 2 ** attempt, 200);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pause);
      if (typeof timer === "object" && typeof timer.unref === "function") timer.unref();
    });
    if (signal.aborted) throw new Error("the command was given up on while it waited to be sent again");
  }
}

/**
 * Whether a failed command met a Redis Cluster in the middle of moving a slot or failing over (its
 * error reply starts `TRYAGAIN` or `CLUSTERDOWN`): nothing of it ran.
 *
 * @example
 * isClusterRetry(new Error("TRYAGAIN Multiple keys request during rehashing of slot")); // true
 */
export function isClusterRetry(error: unknown): boolean {
  const message = typeof error === "object" && error !== null && "message" in error ? error.message : undefined;
  return typeof message === "string" && (message.startsWith("TRYAGAIN") || message.startsWith("CLUSTERDOWN"));
}

/**
 * Starts `start` with an abort signal and settles as it does, unless `limit` ms pass first: then
 * the signal aborts and this rejects with StoreError `unavailable` saying `late`. A start that
 * throws instead of rejecting (a closed client, say) fails the same way as a rejection.
 */
function within<T>(limit: number, start: (signal: AbortSignal) => Promise<T>, what: string, details: StoreErrorDetails, late: string): Promise<T> {
  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(unavailable(what, late, details, undefined));
    }, limit);
    // A deadline is bookkeeping, never a reason for a Node process to stay up.
    if (typeof timer === "object" && typeof timer.unref === "function") timer.unref();
    let started: Promise<T>;
    try {
      started = start(controller.signal);
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(unavailable(what, error instanceof Error ? error.message : String(error), details, error));
      },
    );
  });
}

/**
 * The StoreError for a failed Redis command.
 *
 * @example
 * unavailable("XRANGE", "Socket closed unexpectedly", { threadId: "t1" }, cause);
 */
export function unavailable(what: string, why: string, details: StoreErrorDetails, cause: unknown): StoreError {
  const on = details.threadId === undefined ? "" : ` for thread "${details.threadId}"`;
  return new StoreError("unavailable", `expected Redis to answer ${what}${on}, but ${why}`, { ...details, ...(cause === undefined ? {} : { cause }) });
}
