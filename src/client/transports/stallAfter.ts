/** A silent event stream taken as a cut (docs/http.md#heartbeats): how long a silence may last, and the operator that cuts the body after it. */
import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from "rxjs";
import { heartbeatIntervalMs } from "../../protocol/heartbeat";
import { ClientError } from "../../thread/ClientError";

/** The `code` of the `transport` error of a stream cut for its silence. */
export const STALLED_CODE = "stalled";

/** How many announced heartbeat intervals of silence make a stall: a beat may be late, two in a row rarely are. */
export const STALL_INTERVALS = 3;

/**
 * The longest silence a stream may keep, in ms, or `undefined` for no limit: the client's
 * `stallMs` when it set one (`false`: no limit, whatever the server announced), else three times
 * the interval the server announced in its `AGUI-Heartbeat` header, else none: a server that
 * announces no heartbeat may be slow and quiet, and is never cut for it.
 *
 * @example
 * stallLimit(undefined, response.headers.get(HEARTBEAT_HEADER)); // 45000 for "15"
 */
export function stallLimit(option: number | false | undefined, announced: string | null): number | undefined {
  if (option === false) return undefined;
  if (option !== undefined) return option > 0 && option < Infinity ? option : undefined;
  const interval = heartbeatIntervalMs(announced);
  return interval === undefined ? undefined : interval * STALL_INTERVALS;
}

/**
 * Errors the body's chunks with a `transport` `ClientError` (code `stalled`, naming `what` and the
 * silence) when no chunk arrives for `ms` (from the subscription, then from each chunk), so that
 * a stream cut without a word (a server that hangs, a proxy that holds the connection) is a cut
 * like any other; without `ms` the chunks pass as they are. Any byte counts, heartbeat comments
 * included: the check is on the connection, before decoding.
 *
 * @example
 * responseBytes(response, failure).pipe(stallAfter(45_000, asyncScheduler, "the response of POST /agent"), decodeSse());
 */
export function stallAfter<T>(ms: number | undefined, scheduler: SchedulerLike | undefined, what: string): MonoTypeOperatorFunction<T> {
  if (ms === undefined) return (source) => source;
  const clock = scheduler ?? asyncScheduler;
  // Written out rather than RxJS `timeout`: the same few lines, without the operator's error class
  // and options in the browser bundle (about 1.5 kB minified).
  return (source) =>
    new Observable<T>((subscriber) => {
      let silence: Subscription | undefined;
      const restart = (): void => {
        silence?.unsubscribe();
        silence = clock.schedule(
          () =>
            subscriber.error(
              new ClientError("transport", `${what} was silent for ${ms} ms (no event, no heartbeat): taken as a cut connection`, { code: STALLED_CODE }),
            ),
          ms,
        );
      };
      restart();
      const body = source.subscribe({
        next: (chunk) => {
          restart();
          subscriber.next(chunk);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        silence?.unsubscribe();
        body.unsubscribe();
      };
    });
}
