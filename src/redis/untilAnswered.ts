/**
 * A run's store call retried while Redis does not answer (docs/durability.md §8, "Failure
 * behaviour"): a lost connection, a command given up on, or Redis still loading after a restart
 * leave the call's outcome unknown, and the calls a writer retries are idempotent (an append names
 * its first sequence number; a renewal sets a deadline), so the same call is sent again, with a
 * bounded backoff, until Redis answers or the time the caller allows is up. An error reply (the
 * script ran and refused, or failed) is an answer: never retried.
 */
import { StoreError } from "../server/store/StoreError";
import { systemClock } from "../server/store/StoreClock";

/**
 * The backoff between attempts: `firstMs`, doubling, at most `maxMs`. An attempt made while the
 * client reconnects waits in its offline queue and goes out as soon as the connection is back, so
 * the backoff only spaces attempts that fail at once (a client without an offline queue, a refused
 * connection); the cap keeps a run's resumption within half a second of Redis answering again.
 *
 * @example
 * const waits = [0, 1, 2, 3, 4, 5].map((retry) => Math.min(RETRY_BACKOFF.firstMs * 2 ** retry, RETRY_BACKOFF.maxMs)); // 25, 50, 100, 200, 400, 500
 */
export const RETRY_BACKOFF = { firstMs: 25, maxMs: 500 } as const;

/** Error replies that say Redis did not run the command yet and will (after a restart, a long script, a failover). */
const NOT_YET = new Set(["LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN"]);

/**
 * Error replies Redis gives only to a command of another kind than the scripts' EVAL and EVALSHA
 * (a `CLIENT SETINFO` that Redis before 7.2 does not know): received for a script, they are the
 * reply to another command, handed to this one by a client whose replies got out of step with its
 * commands (node-redis, reconnecting while Redis restarts, was seen handing its own handshake's
 * replies to commands it had queued), so what became of the script is unknown.
 */
const NOT_A_SCRIPT_REPLY = /^ERR unknown (?:sub)?command\b/;

/**
 * What `untilAnswered` may do: how many more milliseconds it may retry for (asked at the first
 * failure), and whether the call is still wanted (a closed store's writer stops retrying).
 *
 * @example
 * const limits: RetryLimits = { remainingMs: () => deadline - clock.now(), wanted: () => live };
 */
export interface RetryLimits {
  readonly remainingMs: () => number;
  readonly wanted: () => boolean;
}

/**
 * Runs `attempt`, and again after each failure that left its outcome unknown, until it resolves,
 * fails with an answer from Redis, is no longer wanted, or the limit is up; then rejects with the
 * last failure (a StoreError `unavailable` saying how long it retried, when it retried at all).
 *
 * @example
 * const reply = await untilAnswered(() => calls.script(port, renewScript, keys, context, args), { remainingMs: () => 30_000, wanted: () => true });
 */
export async function untilAnswered<T>(attempt: () => Promise<T>, limits: RetryLimits): Promise<T> {
  let startedAt = 0;
  let giveUpAt = 0;
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      if (retry === 0) {
        startedAt = Date.now();
        giveUpAt = startedAt + Math.max(0, limits.remainingMs());
      }
      if (!isUnanswered(error) || !limits.wanted()) throw error;
      const wait = Math.min(RETRY_BACKOFF.firstMs * 2 ** retry, RETRY_BACKOFF.maxMs);
      if (Date.now() + wait >= giveUpAt) throw gaveUp(error, Date.now() - startedAt, retry);
      await new Promise<void>((resolve) => systemClock.setTimer(wait, resolve));
      if (!limits.wanted()) throw error;
    }
  }
}

/**
 * Whether a failed call left its outcome unknown: a failure that carries no error reply (a lost
 * connection, a refused one, the command's deadline, a reply of a shape the script never gives), a
 * reply saying Redis is not ready yet, or one only another kind of command gets (`ERR unknown
 * subcommand`: a reply handed to the wrong command).
 * An error reply is told by its RESP error code (an upper-case word starting the message, as
 * `ERR`, `NOSCRIPT`, `LOADING`) on the error or its causes; a client's own errors start otherwise.
 *
 * @example
 * isUnanswered(new Error("Socket closed unexpectedly")); // true
 * isUnanswered(new Error("ERR unknown subcommand 'SETINFO'. Try CLIENT HELP.")); // true
 * isUnanswered(new Error("ERR user_script:12: Script attempted to access nonexistent global variable")); // false
 */
export function isUnanswered(error: unknown): boolean {
  const reply = errorReply(error);
  if (reply === undefined) return true;
  return NOT_YET.has(reply.code) || NOT_A_SCRIPT_REPLY.test(reply.message);
}

/** The first error reply in `error`'s cause chain (its RESP code and its message), if there is one. */
function errorReply(error: unknown): { readonly code: string; readonly message: string } | undefined {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 4; depth++) {
    const message: unknown = "message" in current ? current.message : undefined;
    const code = typeof message === "string" ? /^([A-Z][A-Z0-9_]+)(?: |$)/.exec(message)?.[1] : undefined;
    if (code !== undefined && typeof message === "string") return { code, message };
    current = "cause" in current ? current.cause : undefined;
  }
  return undefined;
}

function gaveUp(error: unknown, ms: number, retries: number): unknown {
  if (!StoreError.isInstance(error) || retries === 0) return error;
  const details = {
    cause: error,
    ...(error.threadId === undefined ? {} : { threadId: error.threadId }),
    ...(error.runId === undefined ? {} : { runId: error.runId }),
  };
  return new StoreError(error.code, `${error.message} (sent again ${retries} times over ${ms} ms, until the run's lease was up)`, details);
}
