/** How an exchange that cannot go on ends: its error, then `done` failed. */
import { from, type Observable } from "rxjs";
import type { ClientError } from "../thread/ClientError";
import type { RunEnd, Update } from "../thread/Update";

/**
 * The two updates that end an exchange with `error` (docs/rules.md#E3): an `error` update, then a
 * `done` whose end is `failed` with the error's message and, when it has one, its code.
 *
 * @example
 * failedExchange(new ClientError("config", "a run is already active on this session")); // error, then done { kind: "failed", … }
 */
export function failedExchange<S>(error: ClientError): Observable<Update<S>> {
  return from(failedUpdates<S>(error));
}

/**
 * The same two updates as an array, for an exchange that emits them itself.
 *
 * @example
 * for (const update of failedUpdates(error)) subscriber.next(update);
 */
export function failedUpdates<S>(error: ClientError): readonly Update<S>[] {
  const end: RunEnd = error.code === undefined ? { kind: "failed", message: error.message } : { kind: "failed", message: error.message, code: error.code };
  return [
    { kind: "error", error },
    { kind: "done", end },
  ];
}
