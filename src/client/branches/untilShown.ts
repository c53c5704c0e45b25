/** When a re-read of a thread shows its path (docs/client.md#branches): what `Session.selectBranch` waits for. */
import type { Observable, Subscription } from "rxjs";
import { ClientError } from "../../thread/ClientError";
import type { Update } from "../../thread/Update";

/**
 * Subscribes to `updates` (a `connect()`), and settles `promise` once the thread is shown: at the
 * prelude's first `state` update (its STATE_SNAPSHOT comes right after the MESSAGES_SNAPSHOT, so
 * messages, groups and state are in place), at `done`, or when the stream ends (an unknown thread
 * shows nothing). A `done` failed before that rejects with the stream's last `error` (or one
 * naming the end). The stream itself goes on (a run in progress is followed live) until it ends
 * or `subscription` is unsubscribed (which rejects a promise not settled yet).
 *
 * @example
 * const { promise, subscription } = untilShown(session.connect());
 * await promise;
 */
export function untilShown(updates: Observable<Update<unknown>>): { readonly promise: Promise<void>; readonly subscription: Subscription } {
  let settle: { resolve: () => void; reject: (error: unknown) => void } | undefined;
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  let error: ClientError | undefined;
  const shown = () => settle?.resolve();
  const subscription = updates.subscribe({
    next: (update) => {
      if (update.kind === "error" && update.error.kind !== "warning") error = update.error;
      else if (update.kind === "state") shown();
      else if (update.kind === "done") {
        if (update.end.kind === "failed") settle?.reject(error ?? new ClientError("transport", `reading the thread again failed: ${update.end.message}`));
        else shown();
      }
    },
    error: (failure: unknown) => settle?.reject(ClientError.from(failure)),
    complete: shown,
  });
  // let go before it was shown (Session.close()): the promise does not hang
  subscription.add(() => settle?.reject(new ClientError("config", "the session was closed before the thread was read again")));
  return { promise, subscription };
}
