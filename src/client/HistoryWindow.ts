/**
 * The part of a thread's history a Session holds when it joined with a message limit
 * (docs/threads.md#in-the-client): whether older messages exist, older pages put in front, and a
 * later MESSAGES_SNAPSHOT read so that the pages already loaded do not vanish.
 */
import type { MessagesSnapshotEvent } from "../protocol/events";
import type { Message } from "../protocol/messages";
import type { HistoryPage } from "../thread/threadList";
import { ClientError } from "../thread/ClientError";
import type { MessageList } from "../thread/reducers/MessageList";

/**
 * A Session's history window. Until the session joins with a limit or loads an older page it is
 * not windowed, and a MESSAGES_SNAPSHOT replaces the messages as AG-UI says. Once windowed:
 * - a snapshot whose first message the session holds keeps the held messages before it in front
 *   of it (older pages survive a snapshot-path reconnect or a second join), and `hasOlder` stays;
 * - a snapshot that starts with a message the session does not hold cannot be joined to what is
 *   held: it replaces the messages, and `hasOlder` becomes what its answer said (so `loadOlder`
 *   reads the older pages again), or `false` for an answer that said nothing (the whole thread).
 *
 * @example
 * const window = new HistoryWindow();
 * window.answered(true); // the join's AGUI-History-Older header
 * const event = window.widen(snapshotEvent, store.messages.snapshot());
 */
export class HistoryWindow {
  /** Whether the server holds messages older than the first one held. */
  hasOlder = false;
  private windowed = false;
  /** What the answer being read said about older messages (its `AGUI-History-Older`), until its snapshot. */
  private said: boolean | undefined;

  /** A join's answer said whether older messages exist than those its snapshot carries. */
  answered(hasOlder: boolean): void {
    this.windowed = true;
    this.said = hasOlder;
  }

  /** The MESSAGES_SNAPSHOT the session applies instead of `event`, given the messages it holds (see the class). */
  widen(event: MessagesSnapshotEvent, held: readonly Message[]): MessagesSnapshotEvent {
    if (!this.windowed) return event;
    const said = this.said;
    this.said = undefined;
    const first = event.messages[0];
    const at = first === undefined ? -1 : held.findIndex((message) => message.id === first.id);
    if (at < 0) {
      this.hasOlder = said ?? false;
      return event;
    }
    return at === 0 ? event : { ...event, messages: [...held.slice(0, at), ...event.messages] };
  }

  /**
   * Puts `page` in front of `list` when its first message is still `before` (a snapshot may have
   * replaced it while the page was read: then the page is dropped), leaving out messages already
   * held. Returns the messages put in front, or `undefined` when the page was dropped.
   */
  prepend(list: MessageList, page: HistoryPage, before: string): readonly Message[] | undefined {
    if (list.length === 0 || list.at(0).id !== before) return undefined;
    this.windowed = true;
    this.hasOlder = page.hasOlder;
    const older = page.messages.filter((message) => list.indexOf(message.id) < 0);
    if (older.length > 0) list.reset([...older, ...list.snapshot()]);
    return older;
  }
}

/**
 * Why a message limit cannot be asked for (`config`), or `undefined` for a whole number of at least 1.
 *
 * @example
 * checkLimit(0, "connect") // ClientError: connect: expected a limit of at least 1 whole message, but got 0
 */
export function checkLimit(limit: number, what: string): ClientError | undefined {
  if (Number.isInteger(limit) && limit >= 1) return undefined;
  return new ClientError("config", `${what}: expected a limit of at least 1 whole message, but got ${String(limit)}`);
}
