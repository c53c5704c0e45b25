/** A tail that the store can no longer follow ends the response instead of failing the run (docs/durability.md#stores-and-routes: the client reconnects). */
import { catchError, EMPTY, throwError, type MonoTypeOperatorFunction } from "rxjs";
import { StoreError } from "../store/StoreError";

/**
 * Completes (without a terminal event) where the source errors with a `StoreError` `evicted` (the
 * thread or the cursor left the store while it was followed) or `unavailable` (the backend
 * failed): the response body then just ends, and a client that can resume reconnects through
 * `/connect` (an evicted cursor gets the snapshot path; a store that is down answers 503 until it
 * is back). Any other error passes on, to become the stream's in-band RUN_ERROR.
 *
 * @example
 * store.tail(threadId, cursor).pipe(cutOnStoreFailure())
 */
export function cutOnStoreFailure<T>(): MonoTypeOperatorFunction<T> {
  return catchError((error: unknown) =>
    StoreError.isInstance(error) && (error.code === "evicted" || error.code === "unavailable") ? EMPTY : throwError(() => error),
  );
}
