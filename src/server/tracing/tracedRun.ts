/** A run's events, as a handler streams or records them, traced by `RunSpans` (docs/observability.md#traces). */
import { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import { SLOW_CONSUMER_CODE, SlowConsumerError } from "../http/SlowConsumerError";
import type { RunSpans } from "./RunSpans";

/**
 * The events `events()` makes, traced by `spans`: made and subscribed with the run span's context
 * active (so that a run function's own spans, and a `run()` inside it, find the run), each event observed (RUN_STARTED
 * gains the run's trace), and the stream's end told. A stream cut before its terminal event ends
 * the run span `cancelled`, or with the code its client was sent: `SLOW_CONSUMER` when `signal`
 * (the response's) aborted for a slow client, `STREAM_ERROR` when the stream failed.
 *
 * @example
 * toEventStream((ready, signal) => tracedRun(() => runFunction(input, { request, ready, signal, setThreadTitle }), spans, signal));
 */
export function tracedRun(events: () => Observable<Event>, spans: RunSpans, signal?: AbortSignal): Observable<Event> {
  return new Observable<Event>((subscriber) => {
    const subscription = spans.enter(() =>
      events().subscribe({
        next: (event) => subscriber.next(spans.observe(event)),
        error: (error: unknown) => {
          if (isAbort(error)) spans.streamEnded("cancelled");
          else spans.streamEnded("error", error instanceof SlowConsumerError ? SLOW_CONSUMER_CODE : "STREAM_ERROR");
          subscriber.error(error);
        },
        complete: () => {
          spans.streamEnded("cancelled"); // a stream that completes without a terminal event ended without an outcome
          subscriber.complete();
        },
      }),
    );
    return () => {
      subscription.unsubscribe();
      const reason: unknown = signal?.aborted === true ? signal.reason : undefined;
      if (reason instanceof SlowConsumerError) spans.streamEnded("error", SLOW_CONSUMER_CODE);
      else spans.streamEnded("cancelled");
    };
  });
}

function isAbort(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}
