/** `ThreadStore.listEvents` in process (docs/threads.md#in-the-store): each owner's list changes, heard only by that owner's listeners. */
import { EMPTY, type Observable } from "rxjs";
import { KeyedListeners } from "./KeyedListeners";
import type { ThreadListEvent } from "../../../thread/threadList";

/**
 * The changes to each owner's thread list, delivered synchronously to that owner's listeners and
 * no one else's: listeners are kept per owner, so an event is built only when its owner listens and
 * reaches nobody else by construction. Hot: a subscriber hears what happens from its subscription
 * on; nothing is kept or replayed.
 *
 * @example
 * const changes = new ListChanges();
 * changes.listen("alice").subscribe(console.log);
 * changes.announce("alice", () => ({ type: "deleted", threadId: "t1" })); // logged
 * changes.announce("bob", () => ({ type: "deleted", threadId: "t1" }));   // not built, not heard
 */
export class ListChanges {
  private readonly owners = new KeyedListeners<ThreadListEvent>();

  /** `owner`'s list changes from now on; without an owner, nothing (no list holds ownerless threads), complete at once. */
  listen(owner: string | undefined): Observable<ThreadListEvent> {
    return owner === undefined ? EMPTY : this.owners.listen(owner);
  }

  /** Tells `owner`'s listeners (if any: `event` is built only then) of a change; ownerless threads are nobody's. */
  announce(owner: string | undefined, event: () => ThreadListEvent): void {
    if (owner !== undefined) this.owners.tell(owner, event);
  }
}
