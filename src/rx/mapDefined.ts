/** `map` and `filter` in one step: a value mapped to `undefined` is dropped. */
import type { OperatorFunction } from "rxjs";
import { operate, SourceObserver } from "./operate";

/**
 * Emits `project(value)` for each value of the source, except where it returns `undefined`: then
 * nothing. The same as `map(project)` then `filter((v) => v !== undefined)`, with one subscriber
 * where that chain costs two; errors, completion and unsubscription pass straight through, and a
 * throw from `project` errors the output. For hot paths that both shape and drop items.
 *
 * @example
 * of(1, 2, 3).pipe(mapDefined((n) => (n % 2 === 1 ? n * 10 : undefined))).subscribe(console.log); // 10, 30
 */
export function mapDefined<T, R>(project: (value: T) => R | undefined): OperatorFunction<T, R> {
  return operate<T, R>((source, subscriber) => {
    source.subscribe(
      new SourceObserver<T>(subscriber, {
        next(value) {
          const result = project(value);
          if (result !== undefined) subscriber.next(result);
        },
      }),
    );
  });
}
