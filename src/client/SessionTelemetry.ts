/**
 * What a Session tells the telemetry it was given (`SessionOptions.telemetry`,
 * docs/observability.md#client). Only the contract lives here: the tracing code is
 * `clientTelemetry()` of `agui-rx/client/telemetry`, its own entry, so that a page which traces
 * nothing carries none of it, and a Session without telemetry does no work for it on any event.
 */
import type { Observable } from "rxjs";
import type { Update } from "../thread/Update";
import type { RunningToolCall } from "./tools/RunningToolCalls";
import type { TransportTrace } from "./transports/Transport";

/**
 * What an exchange's trace reads of its session: the thread, and the client tool calls executing
 * (each one traced while it runs).
 *
 * @example
 * const traced: TracedSession = session;
 */
export interface TracedSession {
  readonly threadId: string;
  readonly runningToolCalls$: Observable<readonly RunningToolCall[]>;
}

/**
 * Where a Session's exchanges are traced: `exchange` is asked once per `send`, `resume`, `edit`,
 * `regenerate` and `connect` subscription (`joined`: a `connect`, whose first run the session
 * joins rather than posts), and returns what follows that exchange, or `undefined` to record
 * nothing (no SDK registered, tracing off).
 *
 * @example
 * import { clientTelemetry } from "agui-rx/client/telemetry";
 * const session = new Session(new HttpTransport("/agent"), { threadId: "t1", telemetry: clientTelemetry() });
 */
export interface SessionTelemetry {
  exchange(session: TracedSession, joined: boolean): ExchangeTrace | undefined;
}

/**
 * One exchange's trace. As an RxJS `tap` observer it hears every update of the exchange (`next`),
 * and its end (`finalize`: after its `done`, or at an unsubscription before it); `items` hears
 * each item the transport delivers for a run the session posted (events, warnings, connection
 * notices: the first event marks the time to first event); as a `TransportTrace` it gives the
 * headers of the requests of the run in flight. None of its calls may throw into the exchange.
 *
 * @example
 * const trace = telemetry.exchange(session, false);
 * transport.run(input, { trace }).pipe(tap(trace?.items));
 */
export interface ExchangeTrace extends TransportTrace {
  next(update: Update<unknown>): void;
  finalize(): void;
  readonly items: (item: unknown) => void;
}
