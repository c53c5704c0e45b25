/** The thread's waiting messages above the composer (docs/queue.md#in-the-client): each as queued, waiting or steering, with a Cancel. */
import { useState } from "react";
import { ClientError } from "../../../src/thread/ClientError";
import { waitingHeading, waitingRow, type WaitingEntry } from "../../shared/queuedMessages";

/** What the list shows and does. */
export interface WaitingMessagesProps {
  /** The thread's waiting messages in the order they will run (`useRun(session).queued`). */
  readonly queued: readonly WaitingEntry[];
  /** Cancels one (`useRun(session).cancelQueued`); a refusal (its run started meanwhile) is shown under the list. */
  readonly onCancel: (id: string) => PromiseLike<unknown> | void;
}

/**
 * Nothing while no message waits. Each row says its status in a word ("Queued", "Waiting",
 * "Steering") and what comes next; its Cancel is named after the message, and is off while that
 * cancel is on its way. A message leaves the list when its run starts, its steer is taken or it
 * is cancelled: the session removes it, not this component. The rows' words are
 * examples/shared/queuedMessages.ts, shared with the Angular page.
 *
 * @example
 * <WaitingMessages queued={run.queued} onCancel={run.cancelQueued} />
 */
export function WaitingMessages({ queued, onCancel }: WaitingMessagesProps) {
  const [cancelling, setCancelling] = useState<ReadonlySet<string>>(new Set());
  const [refused, setRefused] = useState<string | undefined>(undefined);
  if (queued.length === 0) return null;
  const done = (id: string) =>
    setCancelling((current) => {
      const next = new Set(current);
      next.delete(id);
      return next;
    });
  const cancel = (id: string) => {
    setRefused(undefined);
    setCancelling((current) => new Set(current).add(id));
    Promise.resolve(onCancel(id)).then(
      () => done(id),
      (error: unknown) => {
        done(id);
        setRefused(ClientError.from(error).message);
      },
    );
  };
  return (
    <section className="waiting" data-testid="waiting-messages" aria-label="Waiting messages">
      <h2>{waitingHeading(queued.length)}</h2>
      <ol>
        {queued.map(waitingRow).map((row) => (
          <li key={row.id} data-testid="waiting-message" data-status={row.status}>
            <span className="waiting-status">{row.label}</span>
            <span className="waiting-text" title={row.text}>
              {row.text}
            </span>
            <span className="waiting-detail">{row.detail}</span>
            <button type="button" className="waiting-cancel" aria-label={row.cancelLabel} disabled={cancelling.has(row.id)} onClick={() => cancel(row.id)}>
              Cancel
            </button>
          </li>
        ))}
      </ol>
      {refused !== undefined ? (
        <p className="waiting-error" role="alert">
          {refused}
        </p>
      ) : null}
    </section>
  );
}
