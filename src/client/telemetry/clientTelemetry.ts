/** `clientTelemetry`: a Session's spans through OpenTelemetry (docs/observability.md#client). */
import { Telemetry } from "../../telemetry/Telemetry";
import type { SessionTelemetry } from "../SessionTelemetry";
import type { ClientTelemetryOptions } from "./ClientTelemetryOptions";
import { ExchangeSpans } from "./ExchangeSpans";
import { traceTarget } from "./traceTarget";

/**
 * The telemetry a Session is given (`SessionOptions.telemetry`) to record its runs as the user saw
 * them: a span per exchange (`invoke_agent`, kind client; a `connect`'s is `agui_rx.connect`) with
 * the thread (`gen_ai.conversation.id`), the run id, the time to first event, the reconnects (and
 * an event per reconnect), the outcome and the error code the client shows; a child span per
 * follow-up run of the client tool loop and per client tool call executed (`execute_tool {name}`).
 * The HTTP transport sends the run's span as `traceparent` on its requests to the page's origin,
 * to other origins only when `propagateCrossOrigin` names them, and everywhere in Node (no page).
 * The tracer is read when each exchange starts: with none (no SDK registered, `tracer: false`)
 * the exchange is not traced at all. Nothing here imports `@opentelemetry/api`.
 *
 * @example
 * import { clientTelemetry } from "agui-rx/client/telemetry";
 * const session = new Session(new HttpTransport("/agent"), { threadId: "t1", telemetry: clientTelemetry() });
 */
export function clientTelemetry(options: ClientTelemetryOptions = {}): SessionTelemetry {
  const telemetry = new Telemetry({ tracer: options.tracer });
  const mayCarry = traceTarget(options.propagateCrossOrigin);
  const now = (): number => globalThis.performance.now();
  return {
    exchange(session, joined) {
      try {
        const tracer = telemetry.tracer();
        return tracer === undefined ? undefined : new ExchangeSpans({ tracer, telemetry, session, joined, mayCarry, now });
      } catch {
        return undefined; // a tracer that throws traces nothing; the exchange runs as without telemetry
      }
    },
  };
}
