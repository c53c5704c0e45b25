/** A stream chosen by a question's first answer, with nothing of its own between that stream and its subscriber. */
import { defer, Observable } from "rxjs";

/**
 * Subscribes to `ask()`, and at its first answer to `then(answer)`, whose values, error and
 * completion become the output's as they are. Later answers are ignored; an error of the question
 * before it answered is the output's error; a question that completes without answering completes
 * the output. A throw from `ask` or `then` errors the output. Unsubscribing ends both.
 *
 * The same as `defer(ask).pipe(take(1), switchMap(then))` for a question that answers once, but the
 * chosen stream is subscribed with the output's own subscriber: no operator's subscriber stands
 * between them, where that chain puts one on the way of every value (a run's every update, in the
 * Session). The question pays its subscriber once.
 *
 * @example
 * afterAnswer(() => ownsHistory(transport), (owned) => (owned ? follow(threadId) : EMPTY)).subscribe(console.log);
 */
export function afterAnswer<A, T>(ask: () => Observable<A>, then: (answer: A) => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    let answered = false;
    return defer(ask).subscribe({
      next: (answer) => {
        if (answered) return;
        answered = true;
        // the chosen stream's teardown joins the output's own
        defer(() => then(answer)).subscribe(subscriber);
      },
      error: (error: unknown) => {
        if (!answered) subscriber.error(error);
      },
      complete: () => {
        if (!answered) subscriber.complete();
      },
    });
  });
}
