/** What a followed stream is resumed with (docs/durability.md#stores-and-routes): the reconnect config, the resume position, the plan of one followed stream, and the default backoff. */
import type { Observable, ObservableInput, SchedulerLike } from "rxjs";
import type { ConnectionNotice } from "./ConnectionNotice";
import type { StreamItem } from "./fetchEventStream";

/**
 * How a cut stream is resumed, as RxJS `retry`'s `RetryConfig`.
 *
 * @example
 * new HttpTransport(url, { reconnect: { count: 3, delay: (error, attempt) => timer(attempt * 1000) } });
 */
export interface ReconnectConfig {
  /** Attempts after a cut before the run fails (default 5); `0` never reconnects. */
  readonly count?: number | undefined;
  /**
   * The wait before each attempt: a number of ms, or a function of the cut, the attempt (1, 2, …)
   * and the server's last `retry:` (ms, if it sent one) returning a notifier whose first value
   * starts the attempt (completing without one gives up: the run fails with the cut; erroring
   * fails it with that error). Default: `reconnectDelay` (exponential backoff with jitter from the
   * server's `retry:`, or 500 ms). The default and a number are never shorter than the failed
   * attempt's `Retry-After` (a 503's, at most `MAX_RETRY_AFTER_MS`).
   */
  readonly delay?: number | ((error: unknown, attempt: number, retryMs: number | undefined) => ObservableInput<unknown>) | undefined;
  /** A reconnect that delivered an event resets the attempt count, so every cut gets `count` attempts (default `true`). */
  readonly resetOnSuccess?: boolean | undefined;
}

/**
 * Where a reconnect resumes: after `lastEventId` (the last `id:` of a frame received whole), on run
 * `runId` (the one being followed, once known); for a queued message's stream whose run passed no
 * event yet, `queued`: the message's id (`POST {url}/connect` with `{ threadId, queued }`, docs/queue.md#on-the-wire).
 *
 * @example
 * const position: ResumePosition = { lastEventId: "c17", runId: "run-2", attempt: 1 };
 */
export interface ResumePosition {
  readonly lastEventId: string | undefined;
  readonly runId: string | undefined;
  readonly attempt: number;
  readonly queued?: string;
}

/**
 * One followed stream: how to make its first connection and each reconnect, and how to learn,
 * when the cut came before any `id:`, whether the server can resume at all.
 *
 * @example
 * reconnecting({ first: () => post(input), again: (at) => connect(input.threadId, at), resumable: capabilitiesSayResumable, runId: input.runId, config: {}, notices: true });
 */
export interface ReconnectPlan {
  /** The first request; the notices it emits (its own retries before any answer, `retryUnanswered`) are passed on as they are. */
  readonly first: () => Observable<StreamItem | ConnectionNotice>;
  readonly again: (position: ResumePosition) => Observable<StreamItem>;
  /** Asked only when a request got no answer at all: whether the server resumes streams (a transport remembers what earlier answers showed). */
  readonly resumable: () => Promise<boolean>;
  /** Told when an answer shows the server resumes streams (its `AGUI-Resumable` header, or an `id:`). */
  readonly learned: () => void;
  /** The run followed, when known before its RUN_STARTED (a run the client started); a snapshot of another run then means it was missed. */
  readonly runId: string | undefined;
  readonly config: ReconnectConfig;
  /** Emit `ConnectionNotice`s (and restart notices); without them, a cut that only a snapshot can continue fails the run. */
  readonly notices: boolean;
  /** Emit the queue notices of a queued message's stream (`QueueNoticeItem`s); without it they are read (a `cancelled` ends the stream) and dropped. */
  readonly queue?: boolean;
  /** Where the waits are timed (default `asyncScheduler`; a test passes a virtual one). */
  readonly scheduler?: SchedulerLike;
}

/** The default number of attempts. */
export const DEFAULT_RECONNECT_ATTEMPTS = 5;

/**
 * The default wait before attempt `attempt`: `base · 2^(attempt−1)` ms, at most 10 s, times a
 * random factor in [0.5, 1) (jitter, so clients cut at once do not come back at once); `base` is
 * the server's `retry:` when it sent one, else 500 ms.
 *
 * @example
 * reconnectDelay(3, undefined, () => 0.5) // 1500
 */
export function reconnectDelay(attempt: number, retryMs: number | undefined, random: () => number = Math.random): number {
  const base = retryMs ?? 500;
  return Math.min(10_000, base * 2 ** Math.max(0, attempt - 1)) * (0.5 + random() / 2);
}
