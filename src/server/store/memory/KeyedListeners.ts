/** Listeners kept per key, for the memory store's hot announcements (its list changes per owner, its queue changes per thread). */
import { Observable } from "rxjs";

/**
 * Subscribers grouped by key: `listen(key)` is hot (a subscriber hears what is told from its
 * subscription on; nothing is kept or replayed) and `tell(key, value)` reaches that key's
 * subscribers only, synchronously, in subscription order. Only listened keys are held: a key's
 * group goes when its last subscriber does, so memory follows the subscribers.
 *
 * @example
 * const listeners = new KeyedListeners<string>();
 * listeners.listen("alice").subscribe(console.log);
 * listeners.tell("alice", () => "hello"); // logged
 * listeners.tell("bob", () => "hello");   // not built, not heard
 */
export class KeyedListeners<T> {
  private readonly groups = new Map<string, Set<(value: T) => void>>();

  /** What is told to `key` from now on. */
  listen(key: string): Observable<T> {
    return new Observable<T>((subscriber) => {
      const listener = (value: T): void => subscriber.next(value);
      let group = this.groups.get(key);
      if (group === undefined) {
        group = new Set();
        this.groups.set(key, group);
      }
      group.add(listener);
      const mine = group;
      return () => {
        mine.delete(listener);
        if (mine.size === 0 && this.groups.get(key) === mine) this.groups.delete(key);
      };
    });
  }

  /** Tells `key`'s listeners (if any: `value` is built only then). */
  tell(key: string, value: () => T): void {
    const group = this.groups.get(key);
    if (group === undefined) return;
    const built = value();
    for (const listener of [...group]) listener(built);
  }
}
