/** One connection of a run that `reconnecting` follows, and how far it got (docs/durability.md#stores-and-routes). */
import { Subscription } from "rxjs";

/**
 * How a reconnect's answer stands with what was passed on before it: `pending` until its mode
 * header or its first event says; `continues` (a resumed answer, and every first connection);
 * `snapshot` (the thread again from its start).
 *
 * @example
 * const continuity: Continuity = reconnect ? "pending" : "continues";
 */
export type Continuity = "pending" | "continues" | "snapshot";

/**
 * How far one connection got: asked (no answer yet), answered (its `StreamOpened` came), streaming
 * (an event of it was passed on; `answered` as before).
 *
 * @example
 * const phase: LinkPhase = { kind: "answered", continuity: "snapshot" };
 */
export type LinkPhase =
  | { readonly kind: "asked"; readonly continuity: Continuity }
  | { readonly kind: "answered"; readonly continuity: Continuity }
  | { readonly kind: "streaming"; readonly answered: boolean };

/**
 * One connection of a followed run (the first request or a reconnect): its subscription and how far it got.
 *
 * @example
 * const link = new FollowedLink(true);
 * link.subscription.add(source.subscribe(observer));
 */
export class FollowedLink {
  readonly subscription = new Subscription();
  phase: LinkPhase;
  constructor(readonly reconnect: boolean) {
    this.phase = { kind: "asked", continuity: reconnect ? "pending" : "continues" };
  }
  /** Its request was answered: a failure now is its body's. */
  get answered(): boolean {
    return this.phase.kind === "streaming" ? this.phase.answered : this.phase.kind === "answered";
  }
}
