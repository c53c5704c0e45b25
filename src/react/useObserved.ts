/** The one bridge from a Session to React: useSyncExternalStore over an Observable of change ticks. */
import { useCallback, useSyncExternalStore } from "react";
import type { Observable } from "rxjs";

/**
 * Reads `read()` during render and re-reads it whenever `changes$` emits. `read` must return the
 * same object until something changed (the Session's reads do: its snapshots are cached and
 * structurally shared), which is what lets React skip renders and `memo` rows keep their props.
 * `changes$` is subscribed once per component and unsubscribed on unmount.
 *
 * @example
 * const messages = useObserved(sessionTicks(session), () => session.messages);
 */
export function useObserved<T>(changes$: Observable<unknown>, read: () => T): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const subscription = changes$.subscribe({ next: () => onChange(), error: () => onChange() });
      return () => subscription.unsubscribe();
    },
    [changes$],
  );
  return useSyncExternalStore(subscribe, read, read);
}
