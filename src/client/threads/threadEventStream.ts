/**
 * `GET {url}/threads/events` read as a live stream (docs/client.md#thread-list): the SSE body's
 * frames decoded with the `ThreadListEvent` codec, and the connection made again after every end
 * or cut, with the reconnect's backoff, each new connection announced so that the list resyncs.
 */
import { asyncScheduler, defer, from, Observable, repeat, retry, throwError, timer, type SchedulerLike, type Subscription } from "rxjs";
import { ClientError } from "../../thread/ClientError";
import { DecodeError } from "../../wire/DecodeError";
import { decodeSseFrames } from "../../wire/decodeSseFrames";
import { SseRetryField } from "../../wire/SseControl";
import { responseBytes } from "../../wire/responseBytes";
import { serverRefusal } from "./serverRefusal";
import { DEFAULT_RECONNECT_ATTEMPTS, reconnectDelay } from "../transports/reconnecting";
import type { ReconnectConfig } from "../transports/ReconnectPlan";
import { askedWait, describe, failedRequest, worthAnotherTry } from "../transports/requestFailure";
import type { ThreadStreamOpened } from "./ThreadsTransport";
import { HEARTBEAT_HEADER } from "../../protocol/heartbeat";
import { stallAfter, stallLimit } from "../transports/stallAfter";

/**
 * How to open the events stream, how to read a frame, and how long to keep trying.
 *
 * @example
 * const request: ThreadEventsRequest<ThreadListEvent> = { url, headers: async () => ({}), fetch, maxFrameBytes: undefined, count: 5, scheduler: undefined, decode };
 */
export interface ThreadEventsRequest<T> {
  readonly url: string;
  readonly headers: () => Promise<Record<string, string>>;
  readonly fetch: typeof fetch;
  readonly maxFrameBytes: number | undefined;
  /** Attempts in a row without an answer before the stream fails (an answer resets the count). */
  readonly count: number | undefined;
  /** The wait before each reconnect, as the transport's `reconnect.delay` (default `reconnectDelay`, never shorter than a `Retry-After`). */
  readonly delay?: ReconnectConfig["delay"] | undefined;
  readonly scheduler: SchedulerLike | undefined;
  /** The longest silence of a body before it is taken as cut (`HttpTransportOptions.stallMs`; `undefined`: three announced heartbeats, `stallLimit`). */
  readonly stallMs?: number | false | undefined;
  /**
   * One frame's data as an item, throwing a `ClientError` (`json`, `decode`) naming `what` when it
   * is not one: the thread list decodes whole `ThreadListEvent`s, a Session following one thread
   * only their `type` (so that the Session's bundle does not carry the list's codecs).
   */
  readonly decode: (data: string, what: string) => T;
}

/**
 * The caller's list changes, cold: each subscription opens `GET {url}/threads/events`, emits
 * `{ type: "opened", attempt }` when an answer (2xx `text/event-stream`) arrives, then every
 * frame's item (`decode`: a `ThreadListEvent` for the list). When the server ends the stream, or it is cut, or a 503 or no answer
 * comes, it connects again after `delay` (default `reconnectDelay` from the server's `retry:`; a number or
 * the default is never sooner than a `Retry-After`); `count` attempts in a row without an answer end it with the last failure. Any
 * other refusal (401, 404: the list is off without `identify`) and a frame `decode` refuses end it at once. A body silent for longer
 * than `stallLimit` allows (three announced heartbeats, or `stallMs`) fails `transport`, code
 * `stalled` (docs/http.md#heartbeats), and is connected again as any other failed body. Unsubscribing aborts the request or the wait.
 *
 * @example
 * threadEventStream(request).subscribe((item) => (item.type === "opened" ? resync() : apply(item)));
 */
export function threadEventStream<T>(request: ThreadEventsRequest<T>): Observable<T | ThreadStreamOpened> {
  const scheduler = request.scheduler ?? asyncScheduler;
  return defer(() => {
    // Per subscription: the server's last `retry:` and the connections made so far.
    let retryMs: number | undefined;
    let connections = 0;
    const once = new Observable<T | ThreadStreamOpened>((subscriber) => {
      const controller = new AbortController();
      let body: Subscription | undefined;
      const fail = (error: unknown): void => {
        if (!controller.signal.aborted) subscriber.error(error);
      };
      const start = async (): Promise<void> => {
        const headers = { ...(await request.headers()), Accept: "text/event-stream" };
        let response: Response;
        try {
          const send = request.fetch; // a plain call: a browser's fetch as another object's method throws "Illegal invocation"
          response = await send(request.url, { method: "GET", headers, signal: controller.signal });
        } catch (cause) {
          return fail(failedRequest("GET", request.url, cause));
        }
        if (!response.ok) return fail(serverRefusal("GET", request.url, response, await response.text().catch(() => "")));
        const type = response.headers.get("content-type") ?? "";
        if (!/^text\/event-stream\b/i.test(type.trim())) {
          await response.body?.cancel().catch(() => undefined);
          return fail(new ClientError("decode", `GET ${request.url} answered ${type || "without a content type"}; expected text/event-stream`));
        }
        if (controller.signal.aborted) return;
        subscriber.next({ type: "opened", attempt: connections++ });
        const failure = (cause: unknown) => new ClientError("transport", `reading the response of GET ${request.url} failed: ${describe(cause)}`, { cause });
        const silence = stallLimit(request.stallMs, response.headers.get(HEARTBEAT_HEADER));
        body = responseBytes(response, failure)
          .pipe(stallAfter(silence, scheduler, `the response of GET ${request.url}`), decodeSseFrames({ controls: true, maxFrameBytes: request.maxFrameBytes }))
          .subscribe({
            next: (item) => {
              if (item instanceof SseRetryField) retryMs = item.ms;
              else if ("data" in item) {
                // a frame that is not a list event ends the stream with that error (a throw here would escape to RxJS's unhandled-error hook)
                let event: T;
                try {
                  event = request.decode(item.data, `a frame of GET ${request.url}`);
                } catch (error) {
                  return subscriber.error(error);
                }
                subscriber.next(event);
              }
            },
            error: (error: unknown) => subscriber.error(error),
            complete: () => subscriber.complete(),
          });
      };
      start().catch(fail);
      return () => {
        controller.abort();
        body?.unsubscribe();
      };
    });
    // The wait before attempt `attempt`: the transport's delay (a function decides for itself), else the backoff, never shorter than what the server asked for.
    const wait = (error: unknown, attempt: number): Observable<unknown> => {
      const delay = request.delay;
      if (typeof delay === "function") return from(delay(error, attempt, retryMs));
      return timer(Math.max(delay ?? reconnectDelay(attempt, retryMs), askedWait(error)), scheduler);
    };
    return once.pipe(
      // The server ended the stream (a restart, a proxy's timeout): come back, as an EventSource does.
      repeat({ delay: () => wait(undefined, 1) }),
      retry({
        count: request.count ?? DEFAULT_RECONNECT_ATTEMPTS,
        resetOnSuccess: true,
        delay: (error: unknown, attempt: number) => (worthAnotherTry(error) || isCut(error) ? wait(error, attempt) : throwError(() => error)),
      }),
    );
  });
}

/** A body that failed after its answer (a reset connection), or ended inside a frame: the stream was cut, not refused. */
function isCut(error: unknown): boolean {
  return DecodeError.isInstance(error) && error.code === "truncated";
}
