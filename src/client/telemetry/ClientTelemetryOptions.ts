/** How `clientTelemetry` is set up (docs/observability.md#client). */
import type { OtelTracer } from "../../telemetry/OtelApi";

/**
 * Where a Session's spans go and where its trace context may be sent. By default the registered
 * OpenTelemetry SDK's tracer (named `agui-rx`) is used, read when each exchange starts; `tracer`
 * replaces it, `false` turns tracing off. The `traceparent` (and `tracestate`) header goes to the
 * page's own origin, and to another origin only when `propagateCrossOrigin` names it: there the
 * browser sends a preflight, which the server must answer allowing the headers.
 *
 * @example
 * clientTelemetry({ propagateCrossOrigin: ["https://agent.example.com", /^https:\/\/[a-z]+\.agents\.example\.com\//] });
 */
export interface ClientTelemetryOptions {
  /** The tracer spans are started with (default: the registered provider's, named `agui-rx`); `false`: no spans. */
  readonly tracer?: OtelTracer | false | undefined;
  /**
   * Other origins the trace context may be sent to: a string is an origin (`"https://agent.example.com"`,
   * compared with the request URL's origin), a RegExp is tested against the whole request URL.
   * Where there is no page (Node, no `location`) every request of the transport carries it: it
   * only goes to the endpoint the application named, and nothing preflights it.
   */
  readonly propagateCrossOrigin?: readonly (string | RegExp)[] | undefined;
}
