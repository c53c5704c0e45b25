/** `ThreadStore.queueChanges` in process (docs/queue.md#in-the-store): each thread's queue changes and run ends, heard only by that thread's listeners. */
import type { Observable } from "rxjs";
import { KeyedListeners } from "./KeyedListeners";
import type { QueueChange } from "../ThreadStore";

/**
 * The queue changes of each thread, by its key (`threadKey(owner, threadId)`, so another owner's
 * thread of the same id is another key), delivered synchronously to that thread's listeners.
 * Hot: a subscriber hears what happens from its subscription on, also of a thread created or
 * deleted meanwhile. Only listened keys are held, so memory follows the subscribers.
 *
 * @example
 * const changes = new QueueChanges();
 * changes.listen(threadKey("alice", "t1")).subscribe(console.log);
 * changes.announce(threadKey("alice", "t1"), { kind: "enqueued", id: "r3" }); // logged
 */
export class QueueChanges {
  private readonly threads = new KeyedListeners<QueueChange>();

  /** The changes of the thread `key` from now on. */
  listen(key: string): Observable<QueueChange> {
    return this.threads.listen(key);
  }

  /** Tells the thread `key`'s listeners of `change`. */
  announce(key: string, change: QueueChange): void {
    this.threads.tell(key, () => change);
  }
}
