/** The run's steered messages passed to the AI SDK's own steering (docs/queue.md#steer, docs/ai.md#steering): offered to the model, taken when a step receives them. */
import { experimental_createSteering, type Experimental_Steering } from "ai";
import type { Observable, Subscription } from "rxjs";
import { steerText } from "../protocol/steerText";
import type { IncomingOffer } from "../server/IncomingOffer";

/**
 * One run's bridge from `ctx.offers$` to an AI SDK steering object: each offer is sent with
 * `steering.steer(text, { id })` (the message's id), and taken (`offer.take()`, recorded in the
 * run) when the full stream reports its `steering-message` part, that is when a model step
 * received it, before that step's output. An offer whose outcome is `not-delivered` (the
 * generation ended first, a stop condition, a wait for client tool results, `prepareStep` left it
 * out) is left: it stays in the store's queue and runs as a queued message when the run ends. A
 * steering object serves one generation, so each run makes its own.
 *
 * @example
 * const steered = new RunSteering(ctx.offers$);
 * steered.start();
 * try {
 *   const result = streamText({ ...call, experimental_steering: steered.steering });
 *   return await streamToRun(ctx, result, { steered: (id) => steered.delivered(id) });
 * } finally {
 *   steered.stop();
 * }
 */
export class RunSteering {
  /** The steering object to pass as `experimental_steering`. */
  readonly steering: Experimental_Steering = experimental_createSteering();
  /** Sent to the model and not yet delivered nor refused, by message id. */
  private readonly sent = new Map<string, IncomingOffer>();
  private subscription: Subscription | undefined;

  constructor(private readonly offers$: Observable<IncomingOffer>) {}

  /** Starts passing offers to the steering object: those waiting already first (delivered with the first step), then each as it comes. */
  start(): void {
    this.subscription ??= this.offers$.subscribe((offer) => this.send(offer));
  }

  /**
   * The stream reported the `steering-message` part of `id`: takes the run's offer, recording it
   * there. `true` when `id` was one of the run's offers (taken now, or by someone else before:
   * recorded once either way), `false` when it is not (a steering object of the caller's own,
   * whose message the stream mapping records itself).
   */
  delivered(id: string): boolean {
    const offer = this.sent.get(id);
    if (offer === undefined) return false;
    this.sent.delete(id);
    offer.take();
    return true;
  }

  /** Stops passing offers (the generation is over): what was not delivered stays in the store's queue. */
  stop(): void {
    this.subscription?.unsubscribe();
    this.sent.clear();
  }

  private send(offer: IncomingOffer): void {
    const text = steerText(offer.message);
    if (text === undefined) return; // never offered: the run takes text only
    const { id } = offer.message;
    this.sent.set(id, offer);
    void this.steering.steer(text, { id }).then((outcome) => {
      // Not delivered: left untaken, so it becomes a queued run. The promise never rejects.
      if (outcome.type === "not-delivered") this.sent.delete(id);
    });
  }
}
