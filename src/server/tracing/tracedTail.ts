/** A store's live tail followed by a response, as one span (docs/observability.md#store-work). */
import { Observable } from "rxjs";
import type { OtelContext } from "../../telemetry/OtelApi";
import type { Telemetry } from "../../telemetry/Telemetry";

/** The span a followed tail is reported in: from its subscription to its end. */
export const STORE_TAIL_SPAN = "agui_rx.store.tail";

/** How many events the tail delivered (`agui_rx.store.events`), and how it ended (`agui_rx.store.tail.end`: `complete`, `error`, `left`). */
const EVENTS = "agui_rx.store.events";
const END = "agui_rx.store.tail.end";

/**
 * `tail` (a store's `tail`, or anything that follows the log) in one span, `agui_rx.store.tail`, a
 * child of `parent`'s span, started when it is subscribed and ended when it completes, fails, or
 * is let go, with the number of events it delivered: a count, never a span or an event per event.
 * `read`: how many values come first from a read already made (a connect's planned frames), not
 * counted as the tail's. `tail` itself when there is no tracer or `parent` has no recording span;
 * a tracer that throws leaves the tail untraced, never failed.
 *
 * @example
 * const frames = tracedTail(store.tail(threadId, cursor, scope), context.telemetry, requestContext);
 */
export function tracedTail<T>(tail: Observable<T>, telemetry: Telemetry, parent: OtelContext | undefined, read = 0): Observable<T> {
  if (parent === undefined || telemetry.spanOf(parent)?.isRecording() !== true) return tail;
  const tracer = telemetry.tracer();
  if (tracer === undefined) return tail;
  return new Observable<T>((subscriber) => {
    let span: ReturnType<typeof tracer.startSpan> | undefined;
    try {
      span = tracer.startSpan(STORE_TAIL_SPAN, { kind: 0 }, parent);
    } catch {
      span = undefined; // a tracer that throws never breaks a tail
    }
    let events = 0;
    let ended = false;
    const end = (how: "complete" | "error" | "left"): void => {
      if (ended) return;
      ended = true;
      try {
        span?.setAttributes({ [EVENTS]: Math.max(0, events - read), [END]: how });
        if (how === "error") span?.setStatus({ code: 2 });
        span?.end();
      } catch {
        // as above
      }
    };
    const subscription = tail.subscribe({
      next: (value) => {
        events++;
        subscriber.next(value);
      },
      error: (error: unknown) => {
        end("error");
        subscriber.error(error);
      },
      complete: () => {
        end("complete");
        subscriber.complete();
      },
    });
    return () => {
      subscription.unsubscribe();
      end("left");
    };
  });
}
