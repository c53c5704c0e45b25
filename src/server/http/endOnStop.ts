/** A stop for run functions (docs/durability.md#stores-and-routes, `POST {url}/stop`): what the driver's `stop` option does for an `Agent`, for any verified stream. */
import type { MonoTypeOperatorFunction } from "rxjs";
import { ev } from "../../protocol/build";
import type { Event } from "../../protocol/events";
import { OpenSpans } from "../../thread/OpenSpans";
import { isTerminal } from "../../thread/isTerminal";
import { operate, SourceObserver } from "../../rx/operate";
import { closeOpenSpans } from "../../thread/closeOpenSpans";

/**
 * Passes a run's events (normalized and verified: what the strict operators let through) and,
 * when `stop` aborts before the run's terminal event, ends the run itself: unsubscribes the
 * source, emits the events that close what it left open (innermost first), then RUN_FINISHED of
 * `threadId`/`runId` with outcome `{ type: "cancelled" }`, and completes. A stop after the
 * terminal, or after the source ended, changes nothing; a stop given before subscription ends the
 * run at once, without subscribing the source. Per-subscription state; a throw of the source
 * reaches the output's error.
 *
 * @example
 * runFunction(input, request).pipe(normalizeChunks(), verifyEvents(), endOnStop(stop.signal, input.threadId, input.runId))
 */
export function endOnStop(stop: AbortSignal, threadId: string, runId: string): MonoTypeOperatorFunction<Event> {
  return operate<Event, Event>((source, subscriber) => {
    const spans = new OpenSpans();
    let over = false;
    const onStop = (): void => {
      if (over) return;
      over = true;
      upstream.unsubscribe();
      for (const closer of closeOpenSpans(spans.reopeners())) subscriber.next(closer);
      subscriber.next(ev.runFinished(threadId, runId, { outcome: { type: "cancelled" } }));
      subscriber.complete();
    };
    const upstream = new SourceObserver<Event>(subscriber, {
      next(event) {
        if (over) return;
        spans.apply(event);
        if (isTerminal(event)) over = true;
        subscriber.next(event);
      },
      error(error: unknown) {
        over = true;
        subscriber.error(error);
      },
      complete() {
        over = true;
        subscriber.complete();
      },
    });
    // Whatever ends the output lets the source go (the SourceObserver closes with it), also from inside a synchronous source's emission.
    if (stop.aborted) {
      onStop(); // stopped before it began: the source is never subscribed
      return;
    }
    stop.addEventListener("abort", onStop, { once: true });
    source.subscribe(upstream);
    return () => {
      stop.removeEventListener("abort", onStop);
      upstream.unsubscribe();
    };
  });
}
