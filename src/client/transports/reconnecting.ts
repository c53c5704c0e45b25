/**
 * Resuming a run's stream after a cut (docs/durability.md#stores-and-routes): the transport's connection is resubscribed
 * through `{url}/connect` with the last `id:` it saw, bounded, with backoff, so that the consumer
 * sees one continuous run. Shaped like RxJS `retry({ count, delay, resetOnSuccess })`, where each
 * resubscription is a cold source made with the new position.
 */
import { asyncScheduler, from, Observable, take, timer, type ObservableInput, type SchedulerLike, type Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import { DecodeError } from "../../wire/DecodeError";
import { isDecodeWarning, type DecodeWarning } from "../../wire/DecodeWarning";
import { isSseControl } from "../../wire/SseControl";
import { ClientError } from "../../thread/ClientError";
import { ConnectionNotice, isConnectionNotice } from "./ConnectionNotice";
import { StreamOpened, type StreamItem } from "./fetchEventStream";
import { askedWait, REFUSED_CODE, UNANSWERED_CODE } from "./requestFailure";
import { isTerminal } from "../../thread/isTerminal";

/**
 * How a cut stream is resumed, as RxJS `retry`'s `RetryConfig`.
 *
 * @example
 * new HttpTransport(url, { reconnect: { count: 3, delay: (error, attempt) => timer(attempt * 1000) } });
 */
export interface ReconnectConfig {
  /** Attempts after a cut before the run fails (default 5); `0` never reconnects. */
  readonly count?: number;
  /**
   * The wait before each attempt: a number of ms, or a function of the cut, the attempt (1, 2, …)
   * and the server's last `retry:` (ms, if it sent one) returning a notifier whose first value
   * starts the attempt (completing without one gives up: the run fails with the cut; erroring
   * fails it with that error). Default: `reconnectDelay` (exponential backoff with jitter from the
   * server's `retry:`, or 500 ms). The default and a number are never shorter than the failed
   * attempt's `Retry-After` (a 503's, at most `MAX_RETRY_AFTER_MS`).
   */
  readonly delay?: number | ((error: unknown, attempt: number, retryMs: number | undefined) => ObservableInput<unknown>);
  /** A reconnect that delivered an event resets the attempt count, so every cut gets `count` attempts (default `true`). */
  readonly resetOnSuccess?: boolean;
}

/**
 * Where a reconnect resumes: after `lastEventId` (the last `id:` of a frame received whole), on run
 * `runId` (the one being followed, once known).
 *
 * @example
 * const position: ResumePosition = { lastEventId: "c17", runId: "run-2", attempt: 1 };
 */
export interface ResumePosition {
  readonly lastEventId: string | undefined;
  readonly runId: string | undefined;
  readonly attempt: number;
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

/** How a connection ended without its run's terminal event: an error, or a body that simply ended. */
type Cut = { readonly kind: "error"; readonly error: unknown } | { readonly kind: "complete" };

/**
 * Follows one run across connections: the first connection's items, then after each cut (a body
 * that fails, ends inside a frame, or ends before the run's terminal event; a request that gets
 * no answer) another connection made by `plan.again` after the last `id:` seen, until the run's
 * terminal event. Events are passed on exactly once and in order: a resumed answer continues
 * after the cursor; a snapshot answer (the cursor was not kept) is announced with a restart
 * notice when events of the run were already passed on.
 *
 * Resumes only a server that can: one whose answer said `AGUI-Resumable: true` or carried an
 * `id:`; when a request got no answer at all, one that `plan.resumable()` says is (what earlier
 * answers showed, else its capabilities). An answer with neither is a server that keeps no
 * threads: its cut ends the run exactly as without reconnects, and nothing more is asked. A reconnect answered 404 or 405 (no store, no such thread)
 * ends the run with the first cut, exactly as without reconnects; other failed attempts are
 * retried up to `count`, then the run fails with a `transport` error naming the attempts.
 * Per-subscription state; unsubscribing stops the connection and any pending wait.
 *
 * @example
 * reconnecting(plan).subscribe((item) => (isConnectionNotice(item) ? showStatus(item) : apply(item)));
 */
export function reconnecting(plan: ReconnectPlan): Observable<Event | DecodeWarning | ConnectionNotice> {
  const count = plan.config.count ?? DEFAULT_RECONNECT_ATTEMPTS;
  const resetOnSuccess = plan.config.resetOnSuccess ?? true;
  return new Observable<Event | DecodeWarning | ConnectionNotice>((subscriber) => {
    let lastEventId: string | undefined;
    let retryMs: number | undefined;
    /** An answer showed that the server resumes streams (an `AGUI-Resumable` header, an `id:`). */
    let resumable = false;
    let runId = plan.runId;
    let attempt = 0;
    /** An event of the run was passed on. */
    let passed = false;
    /** The run's terminal event was passed on. */
    let ended = false;
    /** The cut that started the current streak of attempts: what the run fails with if it cannot resume. */
    let firstCut: Cut | undefined;
    let connection: Subscription | undefined;
    let waiting: Subscription | undefined;
    let closed = false;

    const give = (cut: Cut): void => {
      if (cut.kind === "complete") subscriber.complete();
      else subscriber.error(cut.error);
    };

    const open = (source: Observable<StreamItem | ConnectionNotice>, reconnect: boolean): void => {
      let opened = false;
      let announced = !reconnect;
      let first = true;
      let snapshot = false;
      const announce = (restart: boolean): void => {
        announced = true;
        if (plan.notices) subscriber.next(new ConnectionNotice("connected", attempt, restart));
      };
      connection = source.subscribe({
        next(item) {
          if (isConnectionNotice(item)) {
            if (plan.notices) subscriber.next(item);
            return;
          }
          if (item instanceof StreamOpened) {
            opened = true;
            if (item.resumable && !resumable) {
              resumable = true;
              plan.learned();
            }
            if (item.mode !== undefined && !announced) {
              snapshot = item.mode === "snapshot";
              if (snapshot && passed && !plan.notices) return subscriber.error(unrestartable());
              announce(snapshot && passed);
            }
            return;
          }
          if (isSseControl(item)) {
            if (item.kind === "id") {
              lastEventId = item.id === "" ? undefined : item.id;
              if (!resumable) {
                resumable = true;
                plan.learned();
              }
            } else retryMs = item.ms;
            return;
          }
          if (isDecodeWarning(item)) {
            subscriber.next(item);
            return;
          }
          if (first) {
            first = false;
            if (reconnect) {
              if (!announced) {
                // No mode header (a page on another origin may not read it): only a snapshot starts with RUN_STARTED.
                snapshot = item.type === "RUN_STARTED";
                if (snapshot && passed && !plan.notices) return subscriber.error(unrestartable());
                announce(snapshot && passed);
              }
              if (resetOnSuccess) attempt = 0;
              firstCut = undefined;
              if (snapshot && item.type === "RUN_STARTED" && runId !== undefined && item.runId !== runId) return subscriber.error(missed(runId, item.runId));
            }
          }
          if (item.type === "RUN_STARTED") runId ??= item.runId;
          if (isTerminal(item)) ended = true;
          passed = true;
          subscriber.next(item);
        },
        error(error: unknown) {
          if (ended) return subscriber.complete();
          cut({ kind: "error", error }, opened, reconnect);
        },
        complete() {
          if (ended) return subscriber.complete();
          cut({ kind: "complete" }, opened, reconnect);
        },
      });
    };

    /** A connection ended before the run did: try again if this is a cut and the server can resume, else end as the cut says. */
    const cut = (what: Cut, opened: boolean, reconnect: boolean): void => {
      connection = undefined;
      if (what.kind === "error" && !isCut(what.error, opened, reconnect)) {
        // A reconnect refused with 404 or 405: the server keeps no such thread (or no threads at
        // all), so the run ends as the first cut would have ended it without reconnects.
        return give(reconnect && refusesResume(what.error) ? (firstCut ?? what) : what);
      }
      firstCut ??= what;
      if (count <= 0) return give(firstCut);
      // An answer without the header and without an id is a server that does not resume: it is not asked.
      const decide = resumable ? Promise.resolve(true) : opened ? Promise.resolve(false) : plan.resumable().catch(() => false);
      void decide.then((can) => {
        if (closed) return;
        if (!can) return give(firstCut ?? what);
        attempt++;
        if (attempt > count) return subscriber.error(exhausted(count, what, firstCut));
        if (plan.notices) subscriber.next(new ConnectionNotice("reconnecting", attempt));
        wait(what, () => open(plan.again({ lastEventId, runId, attempt }), true));
      });
    };

    const wait = (what: Cut, then: () => void): void => {
      const cause = what.kind === "error" ? what.error : undefined;
      const delay = plan.config.delay;
      let notifier: Observable<unknown>;
      try {
        // a 503's Retry-After (capped, MAX_RETRY_AFTER_MS) is a floor under the backoff; a delay function decides for itself
        const scheduler = plan.scheduler ?? asyncScheduler;
        notifier =
          typeof delay === "function" ? from(delay(cause, attempt, retryMs)) : timer(Math.max(delay ?? reconnectDelay(attempt, retryMs), askedWait(cause)), scheduler);
      } catch (error) {
        subscriber.error(error); // a delay function that throws ends the run with its error, as a per-value callback must
        return;
      }
      let started = false;
      waiting = notifier.pipe(take(1)).subscribe({
        next: () => {
          started = true;
          waiting = undefined;
          then();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (!started) give(firstCut ?? what); // the notifier gave up
        },
      });
    };

    open(plan.first(), false);
    return () => {
      closed = true;
      connection?.unsubscribe();
      waiting?.unsubscribe();
    };
  });
}

/**
 * Whether `error` is a cut a reconnect may mend: the request got no answer, the body failed or ended
 * inside a frame; and on a reconnect, also a failed answer other than 404/405 (a server that is
 * restarting, a store that is down: 5xx). A first request that never reached the server
 * (`refused`), or whose own retries were used up (`unanswered`), is not: there is nothing to resume.
 */
function isCut(error: unknown, opened: boolean, reconnect: boolean): boolean {
  if (error instanceof DecodeError) return error.code === "truncated";
  if (!ClientError.isInstance(error)) return false;
  if (error.kind === "transport") return reconnect || (error.code !== REFUSED_CODE && error.code !== UNANSWERED_CODE);
  return reconnect && !opened && error.kind === "http" && !refusesResume(error);
}

function refusesResume(error: unknown): boolean {
  return ClientError.isInstance(error) && error.kind === "http" && (error.status === 404 || error.status === 405);
}

function exhausted(count: number, last: Cut, first: Cut | undefined): ClientError {
  const why = (cut: Cut | undefined) => (cut === undefined ? "" : cut.kind === "complete" ? "the body ended before the run did" : cut.error instanceof Error ? cut.error.message : String(cut.error));
  return new ClientError("transport", `the connection was lost (${why(first)}) and ${count} reconnects failed; the last: ${why(last)}`, {
    cause: last.kind === "error" ? last.error : undefined,
  });
}

function missed(followed: string, found: string): ClientError {
  return new ClientError(
    "transport",
    `the connection was lost and the thread has moved on: expected run "${followed}" on reconnecting, but the server's last run is "${found}", so how "${followed}" ended is not known`,
  );
}

function unrestartable(): ClientError {
  return new ClientError(
    "transport",
    "the connection was lost and the server no longer keeps the run's events after the last one received: it can only send the thread as a snapshot, which a consumer that does not ask for connection notices cannot apply (run with { connection: true }, as the Session does)",
  );
}
