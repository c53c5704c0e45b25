/** A source's subscriber that a synchronous source can see close (RxJS uses an Observer that is also a Subscription as the subscriber itself). */
import { Subscription, type Observer } from "rxjs";

/**
 * The source's subscriber: a Subscription as well as an Observer, so RxJS hands it to the source
 * as the subscriber itself, and a synchronous source sees it close (after the terminal event, or
 * on a failure) and stops, instead of running on to its end.
 */
export class SourceObserver<T> extends Subscription implements Observer<T> {
  constructor(private readonly handlers: Observer<T>) {
    super();
  }

  next(value: T): void {
    if (!this.closed) this.handlers.next(value);
  }

  error(error: unknown): void {
    if (!this.closed) this.handlers.error(error);
  }

  complete(): void {
    if (!this.closed) this.handlers.complete();
  }
}
