/**
 * Sending a request again while it gets no usable answer (docs/durability.md#stores-and-routes, docs/client.md § Retries):
 * RxJS `retry({ count, delay })` over a cold request, bounded and backed off like the reconnect,
 * honouring the server's `Retry-After`, on an injectable scheduler.
 */
import {
  asyncScheduler,
  catchError,
  from,
  retry,
  tap,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
  type Observable,
  type ObservableInput,
  type SchedulerLike,
} from "rxjs";
import { operate } from "../../rx/operate";
import { ClientError } from "../../thread/ClientError";
import { DEFAULT_RECONNECT_ATTEMPTS, reconnectDelay } from "./reconnecting";
import { askedWait, UNANSWERED_CODE } from "./requestFailure";

/**
 * How often and after how long a request is sent again (RxJS `retry`'s `RetryConfig`).
 *
 * @example
 * new HttpTransport(url, { retry: { count: 3, delay: (error, attempt) => timer(attempt * 1000) } });
 */
export interface RetryConfig {
  /** Attempts after the first before the request fails (default 5, as the reconnect); `0` never tries again. */
  readonly count?: number | undefined;
  /**
   * The wait before each attempt: ms (never less than the server's `Retry-After`), or a function
   * of the failure and the attempt (1, 2, …) returning a notifier whose first value starts it
   * (completing without one gives up). Default: `reconnectDelay` (exponential backoff with jitter
   * from 500 ms), or the server's `Retry-After` when longer (at most `MAX_RETRY_AFTER_MS`).
   */
  readonly delay?: number | ((error: unknown, attempt: number) => ObservableInput<unknown>) | undefined;
}

/**
 * What `retryUnanswered` may retry and how it reports.
 *
 * @example
 * const rule: RetryRule<Response> = { retryable: worthAnotherTry, config: {}, scheduler: undefined, what: `GET ${url}` };
 */
export interface RetryRule<T> {
  /** Whether a failure leaves the request safe and worth sending again. */
  readonly retryable: (error: unknown) => boolean;
  readonly config: RetryConfig;
  /** Where the waits are timed (default `asyncScheduler`; a test passes a virtual one). */
  readonly scheduler: SchedulerLike | undefined;
  /** The request, for the message of a failure that used up the attempts (`POST https://…/agent`). */
  readonly what: string;
  /** Whether an item is the answer: from then on nothing is retried (a body that fails later is not this operator's). */
  readonly answered?: (item: T) => boolean;
  /** An item to emit when attempt `attempt` is about to be made (`reconnecting`) and when it got its answer (`connected`). */
  readonly notice?: (status: "reconnecting" | "connected", attempt: number) => T | undefined;
}

/**
 * The source, subscribed again (it must be cold: one subscription, one request) after each
 * failure before the answer that `rule.retryable` accepts, up to `count` more times, waiting
 * `delay` between; the source's items pass unchanged. A failure it does not accept, or one after
 * the answer, ends the output at once. When the attempts are used up the output errors with the
 * last failure, its message saying how many tries were made (kind, status, code and body kept).
 * Per-subscription state; unsubscribing stops the request and any pending wait.
 *
 * @example
 * defer(() => fetchOnce()).pipe(retryUnanswered({ retryable: worthAnotherTry, config: {}, scheduler: undefined, what: `POST ${url}` }))
 */
export function retryUnanswered<T>(rule: RetryRule<T>): MonoTypeOperatorFunction<T> {
  const count = rule.config.count ?? DEFAULT_RECONNECT_ATTEMPTS;
  return operate<T, T>((source, subscriber) => {
    let answered = false;
    let attempts = 0;
    const notify = (status: "reconnecting" | "connected", attempt: number): void => {
      const notice = rule.notice?.(status, attempt);
      if (notice !== undefined) subscriber.next(notice);
    };
    return source
      .pipe(
        tap((item) => {
          if (answered || rule.answered === undefined || !rule.answered(item)) return;
          answered = true;
          if (attempts > 0) notify("connected", attempts);
        }),
        retry({
          count,
          delay: (error: unknown, attempt: number) => {
            if (answered || !rule.retryable(error)) return throwError(() => error);
            attempts = attempt;
            notify("reconnecting", attempt);
            return wait(error, attempt, rule.config.delay, rule.scheduler ?? asyncScheduler);
          },
        }),
        catchError((error: unknown) => throwError(() => (!answered && attempts > 0 && rule.retryable(error) ? usedUp(rule.what, attempts + 1, error) : error))),
      )
      .subscribe(subscriber);
  });
}

/** The wait before attempt `attempt`: the configured delay, never shorter than what the server asked for. */
function wait(error: unknown, attempt: number, delay: RetryConfig["delay"], scheduler: SchedulerLike): Observable<unknown> {
  if (typeof delay === "function") return from(delay(error, attempt));
  return timer(Math.max(delay ?? reconnectDelay(attempt, undefined), askedWait(error)), scheduler);
}

/**
 * The last failure, saying that `tries` requests were made; what a caller reads from it (kind,
 * status, body, code) unchanged, except that a network failure without a code gets `unanswered`.
 */
function usedUp(what: string, tries: number, error: unknown): unknown {
  if (!ClientError.isInstance(error)) return error;
  const { kind, status, body, retryAfterMs } = error;
  const code = error.code ?? (kind === "transport" ? UNANSWERED_CODE : undefined);
  return new ClientError(kind, `${what} was tried ${tries} times without an answer to go on with; the last: ${error.message}`, {
    cause: error,
    ...(status === undefined ? {} : { status }),
    ...(body === undefined ? {} : { body }),
    ...(code === undefined ? {} : { code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}
