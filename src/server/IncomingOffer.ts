/** One steered message offered to a live run (docs/queue.md#steer): what `ctx.offers$` emits. */
import type { UserMessage } from "../protocol/messages";

/**
 * A user message steered into the live run (docs/queue.md#steer), not yet taken. `take()` records
 * it in the run's events where the run is now (TEXT_MESSAGE_START with role `user` and the
 * message's id, TEXT_MESSAGE_CONTENT with its text, TEXT_MESSAGE_END) and returns `true`; it
 * returns `false`, recording nothing, when the message was taken already (by this or another
 * subscriber), when its sender cancelled it meanwhile (`RunAgentOptions.withdrawn`), when the run
 * is over (its terminal is written, it was stopped or cancelled), or when the run's verifier
 * refuses the message where the run is now (its id is the id of a message the run has open). A message never taken stays in the store's queue and becomes a queued run when
 * the live one ends.
 *
 * @example
 * ctx.offers$.subscribe((offer) => {
 *   if (readyForMore) offer.take(); // recorded here; `offer.message` is now part of the run
 * });
 */
export interface IncomingOffer {
  /** The user message as it was sent; its content is text only (a string, or text parts). */
  readonly message: UserMessage;
  /** Records the message where the run is now; `true` the first time, `false` afterwards or once the run is over. */
  take(): boolean;
}
