/** An inspector fed by a Session's own tap: no second connection (docs/observability.md#inspector). */
import type { Observable } from "rxjs";
import type { WireItem } from "../SessionWire";
import type { Inspector } from "./Inspector";

/**
 * What `inspectSession` reads: a Session, or anything with its `wire$`.
 *
 * @example
 * const source: WireSource = session;
 */
export interface WireSource {
  readonly wire$: Observable<WireItem>;
}

/**
 * Feeds `inspector` with everything `session`'s transport receives from now on (`Session.wire$`),
 * until the returned function is called. A stream already flowing is inspected from its next
 * RUN_STARTED on (`late`).
 *
 * @example
 * const inspector = new Inspector();
 * const stop = inspectSession(session, inspector);
 * // … later
 * stop();
 */
export function inspectSession(session: WireSource, inspector: Inspector): () => void {
  const subscription = session.wire$.subscribe((item) => inspector.feed(item));
  return () => subscription.unsubscribe();
}
