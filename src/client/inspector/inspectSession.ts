/** An inspector fed by a Session's own transport: no second connection (docs/observability.md#inspector). */
import type { Inspector } from "./Inspector";
import { wireOf, type WireSource } from "./SessionWire";

/**
 * Feeds `inspector` with everything `session`'s transport receives from now on (`wireOf`), until
 * the returned function is called. A stream already flowing is inspected from its next
 * RUN_STARTED on, from its events (its bytes were not tapped).
 *
 * @example
 * const inspector = new Inspector();
 * const stop = inspectSession(session, inspector);
 * // … later
 * stop();
 */
export function inspectSession(session: WireSource, inspector: Inspector, now?: () => number): () => void {
  const subscription = wireOf(session, now).subscribe((item) => inspector.feed(item));
  return () => subscription.unsubscribe();
}
