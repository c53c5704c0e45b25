/** Whether a session's server owns the threads' history (docs/threads.md#the-anchor-rule), asked of its transport once. */
import { from, of, type Observable } from "rxjs";
import type { Transport } from "./transports/Transport";

/**
 * What `transport.serverOwnsHistory()` answers, or `false` for a transport without it (at once,
 * synchronously: such a session runs as it always did) or when it fails (then the session posts
 * its whole history, which such a server accepts too). The transport caches its answer; this
 * never errors.
 *
 * @example
 * ownsHistory(new HttpTransport("/agent")).subscribe((owned) => console.log(owned)); // true against createHandler(agent, { store })
 */
export function ownsHistory(transport: Transport): Observable<boolean> {
  if (transport.serverOwnsHistory === undefined) return of(false);
  return from(transport.serverOwnsHistory().catch(() => false)); // no answer: post everything
}
