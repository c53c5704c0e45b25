/** What `Session.connect()` reads from its transport (docs/durability.md#stores-and-routes): a thread's connect stream, with the run it names and whether the thread is known at all. */
import { catchError, defer, EMPTY, Observable, tap, throwError } from "rxjs";
import type { Event } from "../protocol/events";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { ClientError } from "../thread/ClientError";
import type { ConnectionNotice } from "./transports/ConnectionNotice";
import type { ConnectRequest, Transport } from "./transports/Transport";

/** A joined thread's stream and what it showed. */
export interface JoinedThread {
  /** The connect stream (cold); it completes empty when the thread is unknown. */
  readonly events: Observable<Event | DecodeWarning | ConnectionNotice>;
  /** Whether the server answered 404 or 405: it does not know the thread, or keeps no threads. */
  readonly unknown: () => boolean;
}

/**
 * `transport.connect` for `request` (with warnings and connection notices, as for a run), telling
 * `onRun` the run it names (its first RUN_STARTED), and turning a 404/405 answer into an empty
 * stream flagged `unknown` (nothing to join) rather than a failure.
 *
 * @example
 * const joined = joinThread(transport, { threadId: "board-1" }, (runId) => (active.runId ??= runId));
 */
export function joinThread(transport: Transport, request: ConnectRequest, onRun: (runId: string) => void): JoinedThread {
  let unknown = false;
  const events = defer(() => {
    unknown = false;
    return transport.connect ? transport.connect(request, { warnings: true, connection: true }) : EMPTY;
  }).pipe(
    tap((item) => {
      if ("type" in item && item.type === "RUN_STARTED") onRun(item.runId);
    }),
    catchError((error: unknown) => {
      if (!(ClientError.isInstance(error) && error.kind === "http" && (error.status === 404 || error.status === 405))) return throwError(() => error);
      unknown = true;
      return EMPTY;
    }),
  );
  return { events, unknown: () => unknown };
}
