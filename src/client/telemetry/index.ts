// The `agui-rx/client/telemetry` entry (docs/observability.md#client): a Session's spans and trace
// context through OpenTelemetry, kept out of `agui-rx/client` so that the Session's bundle carries
// only the hooks. The contract it fills (`SessionTelemetry`) is `agui-rx/client`'s.
export { clientTelemetry } from "./clientTelemetry";
export type { ClientTelemetryOptions } from "./ClientTelemetryOptions";
export { traceTarget } from "./traceTarget";
export { CLIENT_SPAN } from "./ExchangeSpans";
export type { SessionTelemetry, ExchangeTrace, TracedSession } from "../SessionTelemetry";
export type {
  OtelTracer,
  OtelSpan,
  OtelSpanOptions,
  OtelSpanContext,
  OtelContext,
  OtelAttributes,
  OtelAttributeValue,
  OtelLink,
  OtelSpanStatus,
  OtelTraceState,
} from "../../telemetry/OtelApi";
