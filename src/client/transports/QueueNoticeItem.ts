/** What a transport tells the Session in-band about a message sent while the agent works (docs/queue.md#on-the-wire): its queue notices. */
import type { QueueNotice } from "../../protocol/queueMeta";

/**
 * One `agui-rx-queue` frame of a queued message's stream (`AGUI-Queued` answer), decoded: the
 * message's new status (`queued`, `waiting`, `steering`) or how its wait ended (`taken`,
 * `started`: the run's events follow, `cancelled`). A transport interleaves these with a run's
 * items when asked with `{ queue: true }` (`TransportRunOptions`), as it does `ConnectionNotice`s.
 *
 * @example
 * if (isQueueNoticeItem(item)) console.log(item.notice.id, item.notice.status);
 */
export class QueueNoticeItem {
  readonly kind = "queue-notice" as const;
  constructor(readonly notice: QueueNotice) {}
}

/**
 * Whether a transport's item is a `QueueNoticeItem` rather than an event, a decode warning or a
 * connection notice.
 *
 * @example
 * transport.run(input, { queue: true }).pipe(filter((item) => !isQueueNoticeItem(item)));
 */
export function isQueueNoticeItem(value: unknown): value is QueueNoticeItem {
  return value instanceof QueueNoticeItem;
}
