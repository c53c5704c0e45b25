/** One run's checking and applying across the reconnects of its stream (docs/durability.md#stores-and-routes): connection notices become updates, and a snapshot answer gets a pipeline of its own. */
import { Observable, type OperatorFunction, type Subscriber } from "rxjs";
import type { Event } from "../protocol/events";
import { operate, SourceObserver } from "../rx/operate";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { isConnectionNotice, type ConnectionNotice } from "./transports/ConnectionNotice";
import type { Update } from "../thread/Update";

/** What a transport hands the Session's pipeline: events, decode warnings, connection notices. */
export type TransportItem = Event | DecodeWarning | ConnectionNotice;

/**
 * Runs the transport's items through `pipeline` (the Session's normalize → verify → apply), with
 * every `ConnectionNotice` taken out and emitted as a `connection` update where it stood. A notice
 * with `restart` (the reconnect was answered with a snapshot, after events of the run were already
 * applied) ends the current pipeline without its `done` and starts a fresh one for what follows, a
 * stream of its own from its RUN_STARTED (its MESSAGES_SNAPSHOT and STATE_SNAPSHOT then replace
 * what the cut left half-built: `followRun` takes the messages back to those held before the run
 * first). The output completes when the pipeline does (after its `done`),
 * which lets the transport go, a synchronous one included. Per-subscription state. `hear`, when
 * given, sees every update just before the output does (in the same step: no subscriber between).
 *
 * @example
 * transport.run(input, { connection: true }).pipe(followConnection((events) => events.pipe(normalizeAndVerify(), applyEvents({ state }))))
 */
export function followConnection<S>(
  pipeline: (events: Observable<Event | DecodeWarning>) => Observable<Update<S>>,
  hear?: (update: Update<S>) => void,
): OperatorFunction<TransportItem, Update<S>> {
  return operate<TransportItem, Update<S>>((source, subscriber) => {
    let segment: Subscriber<Event | DecodeWarning> | undefined;
    let inner: SourceObserver<Update<S>> | undefined;
    const emit = (update: Update<S>): void => {
      hear?.(update);
      subscriber.next(update);
    };
    // The transport's subscriber: it closes with the output, so a synchronous transport sees the run is over and stops.
    const upstream = new SourceObserver<TransportItem>(subscriber, {
      next(item) {
        if (isConnectionNotice(item)) {
          if (item.restart) open();
          emit({ kind: "connection", status: item.status, attempt: item.attempt });
          return;
        }
        segment?.next(item);
      },
      error: (error: unknown) => segment?.error(error),
      complete: () => segment?.complete(),
    });
    const open = (): void => {
      inner?.unsubscribe();
      segment = undefined;
      // A single-subscriber hand-off: the pipeline subscribes synchronously, and `segment` is its end.
      const events = new Observable<Event | DecodeWarning>((target) => {
        segment = target;
      });
      // Chained to the output after `upstream`, so the transport is let go before the pipeline (and a restart's unsubscribe unchains it).
      inner = new SourceObserver<Update<S>>(subscriber, { next: emit });
      pipeline(events).subscribe(inner);
    };
    open();
    if (!subscriber.closed) source.subscribe(upstream);
  });
}
