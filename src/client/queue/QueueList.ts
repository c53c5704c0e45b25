/**
 * The thread's waiting messages as a Session shows them (docs/queue.md#in-the-client): folded from
 * the connect prelude's queue, the session's own queue notices, the thread's `queue-*` events and
 * the events of its runs, so that a message is listed while it waits and shown in `messages` once
 * its recorded events arrive: never both.
 */
import type { Event } from "../../protocol/events";
import { queueOf, type QueuedMessage, type QueueNotice } from "../../protocol/queueMeta";
import type { UserMessage } from "../../protocol/messages";
import type { ThreadNotice } from "../transports/Transport";

/** Nothing waits: the same frozen array every time. */
const EMPTY: readonly QueuedMessage[] = Object.freeze([]);

/**
 * The waiting messages of one thread, in the order they will run (front entries, interrupting
 * messages and steers, before plain queued ones: docs/queue.md#in-the-store), and the ids of
 * those this session sent and still follows (`own`: their run is joined by their own stream, not
 * by the follower). Each method returns whether the list changed; `list` is a frozen array, the
 * same object until it changes.
 *
 * @example
 * const queue = new QueueList();
 * if (queue.notice(notice, fallback)) views.notify("queue");
 * queue.list; // what `session.queued` shows
 */
export class QueueList {
  private entries: readonly QueuedMessage[] = EMPTY;
  private readonly own = new Set<string>();

  /** The waiting messages, in the order they will run. */
  get list(): readonly QueuedMessage[] {
    return this.entries;
  }

  /** Whether the session's own send of `id` still follows it (its run is joined by that send). */
  owns(id: string): boolean {
    return this.own.has(id);
  }

  /** A send of the session follows the waiting message `id` (until `release`). */
  claim(id: string): void {
    this.own.add(id);
  }

  /** The send that followed `id` ended or was unsubscribed. */
  release(id: string): void {
    this.own.delete(id);
  }

  /** A connect prelude's MESSAGES_SNAPSHOT: its `metadata["agui-rx"].queue` replaces the list (none listed: nothing waits). */
  snapshot(metadata: Readonly<Record<string, unknown>> | undefined): boolean {
    return this.replace(queueOf(metadata) ?? EMPTY);
  }

  /**
   * A notice of the session's own queued stream: a waiting status lists (or updates) the entry
   * (`notice.queued`, else `fallback`: what the session posted), an end (`started`, `taken`,
   * `cancelled`) takes it out.
   */
  notice(notice: QueueNotice, fallback: () => QueuedMessage): boolean {
    if (notice.status === "started" || notice.status === "taken" || notice.status === "cancelled") return this.remove((entry) => entry.id === notice.id);
    const entry = notice.queued ?? { ...fallback(), status: notice.status };
    return this.upsert(entry.id === notice.id ? entry : { ...entry, id: notice.id });
  }

  /** A change of the thread's queue heard on its events stream (another tab's, or the session's own). */
  thread(notice: ThreadNotice): boolean {
    const { queued } = notice;
    if (queued === undefined) return false;
    if (notice.type === "queue-enqueued") return this.upsert(queued);
    if (notice.type === "queue-started" || notice.type === "queue-taken" || notice.type === "queue-cancelled")
      return this.remove((entry) => entry.id === queued.id);
    return false;
  }

  /**
   * An event of a run or join: a RUN_STARTED of a waiting message's run (its id), or its message
   * recorded (a taken steer's TEXT_MESSAGE_START, a snapshot or an input holding it) takes it out.
   */
  event(event: Event): boolean {
    if (this.entries.length === 0) return false;
    switch (event.type) {
      case "RUN_STARTED": {
        const ids = new Set((event.input?.messages ?? []).map((message) => message.id));
        return this.remove((entry) => entry.id === event.runId || ids.has(entry.message.id));
      }
      case "TEXT_MESSAGE_START":
        return this.remove((entry) => entry.message.id === event.messageId || entry.id === event.messageId);
      case "MESSAGES_SNAPSHOT": {
        const ids = new Set(event.messages.map((message) => message.id));
        return this.remove((entry) => ids.has(entry.message.id));
      }
      default:
        return false;
    }
  }

  /** Takes the entry `id` out (a cancel the server confirmed). */
  drop(id: string): boolean {
    return this.remove((entry) => entry.id === id);
  }

  private upsert(entry: QueuedMessage): boolean {
    const at = this.entries.findIndex((listed) => listed.id === entry.id);
    if (at >= 0) {
      const next = [...this.entries];
      next[at] = entry;
      return this.replace(next);
    }
    if (entry.policy === "queue") return this.replace([...this.entries, entry]);
    // a front entry goes after the front entries already listed, before the plain queued ones
    const firstPlain = this.entries.findIndex((listed) => listed.policy === "queue");
    const cut = firstPlain < 0 ? this.entries.length : firstPlain;
    return this.replace([...this.entries.slice(0, cut), entry, ...this.entries.slice(cut)]);
  }

  private remove(leaves: (entry: QueuedMessage) => boolean): boolean {
    const kept = this.entries.filter((entry) => !leaves(entry));
    return kept.length !== this.entries.length && this.replace(kept);
  }

  private replace(entries: readonly QueuedMessage[]): boolean {
    if (entries.length === 0 && this.entries.length === 0) return false;
    this.entries = entries.length === 0 ? EMPTY : Object.freeze([...entries]);
    return true;
  }
}

/**
 * The entry a session lists for its own waiting message before the server's notice names one:
 * what it posted, sent now.
 *
 * @example
 * const entry = ownEntry("r3", "queue", "queued", user, Date.now());
 */
export function ownEntry(id: string, policy: QueuedMessage["policy"], status: QueuedMessage["status"], message: UserMessage, at: number): QueuedMessage {
  return { id, policy, status, message, at };
}
