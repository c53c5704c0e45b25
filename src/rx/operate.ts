/**
 * The one way an operator in this library is written (docs/architecture.md#packages): `operate` gives
 * the body its source and its subscriber per subscription, and `SourceObserver` is what the body
 * subscribes to the source with.
 */
import { Observable, Subscription, type Observer, type OperatorFunction, type Subscriber, type TeardownLogic } from "rxjs";

/**
 * What a `SourceObserver` does with each notification of its source. `next` is required; `error`
 * and `complete` default to passing the notification on to the destination.
 */
export interface SourceHandlers<T> {
  /** Handles one value of the source. A throw errors the destination (the source's `next` never sees it). */
  readonly next: (value: T) => void;
  /** Handles the source's error; a throw errors the destination with the thrown value instead. */
  readonly error?: (error: unknown) => void;
  /** Handles the source's completion; a throw errors the destination. */
  readonly complete?: () => void;
}

/**
 * An operator from its body: `body` runs once per subscription, with the source and the output's
 * subscriber, so per-subscription state lives in its locals; what it returns is torn down when the
 * output closes. A throw from `body` errors the output.
 *
 * @example
 * const double = operate<number, number>((source, subscriber) => {
 *   source.subscribe(new SourceObserver(subscriber, { next: (n) => subscriber.next(n * 2) }));
 * });
 */
export function operate<T, R>(body: (source: Observable<T>, subscriber: Subscriber<R>) => TeardownLogic): OperatorFunction<T, R> {
  return (source) => new Observable<R>((subscriber) => body(source, subscriber));
}

/**
 * The observer an operator subscribes to its source with: an Observer that is also a Subscription,
 * chained to the output's subscriber. RxJS hands such an observer to the source as the subscriber
 * itself, so the moment the output errors, completes or is unsubscribed, the source sees it closed
 * and stops (a synchronous source does not run on to its end), and the source's teardown runs.
 *
 * - A throw from a handler errors the destination, as in RxJS's own operators: it never escapes to
 *   the producer's `next()`, and it is never reported out of band.
 * - After `error` or `complete` it closes itself (running the source's teardown), as a Subscriber does.
 * - Nothing reaches a handler once it is closed.
 *
 * @example
 * operate<Event, Event>((source, subscriber) => {
 *   source.subscribe(new SourceObserver(subscriber, { next: (event) => subscriber.next(event) }));
 * });
 */
export class SourceObserver<T> extends Subscription implements Observer<T> {
  constructor(
    private readonly destination: Observer<never>,
    private readonly handlers: SourceHandlers<T>,
  ) {
    super();
    // Closing the output closes this observer, and with it the source (RxJS's chaining of subscribers).
    if (destination instanceof Subscription) destination.add(this);
  }

  next(value: T): void {
    if (this.closed) return;
    try {
      this.handlers.next(value);
    } catch (thrown) {
      this.destination.error(thrown);
    }
  }

  error(error: unknown): void {
    if (this.closed) return;
    const handler = this.handlers.error;
    try {
      if (handler === undefined) this.destination.error(error);
      else handler(error);
    } catch (thrown) {
      this.destination.error(thrown);
    } finally {
      this.unsubscribe();
    }
  }

  complete(): void {
    if (this.closed) return;
    const handler = this.handlers.complete;
    try {
      if (handler === undefined) this.destination.complete();
      else handler();
    } catch (thrown) {
      this.destination.error(thrown);
    } finally {
      this.unsubscribe();
    }
  }
}
