/** How an application hands this library its OpenTelemetry tracer and meter (docs/observability.md#setup). */
import type { OtelMeter, OtelTracer } from "./OtelApi";

/**
 * Where spans and metrics go. By default (every field absent) the globally registered
 * OpenTelemetry providers are used, read when each request or run starts, as instrumented
 * libraries conventionally do; with no SDK registered nothing is recorded and nothing is paid but
 * a property read. A field given replaces the global one; `false` turns that signal off.
 *
 * @example
 * createHandler(agent, { telemetry: { tracer: provider.getTracer("my-app"), meter: false } });
 */
export interface TelemetryOptions {
  /** The tracer spans are started with (default: the registered provider's tracer named `agui-rx`); `false`: no spans. */
  readonly tracer?: OtelTracer | false | undefined;
  /** The meter instruments are made with (default: the registered provider's meter named `agui-rx`); `false`: no metrics. */
  readonly meter?: OtelMeter | false | undefined;
  /**
   * Put message text, tool arguments and results, and state on spans (default `false`, the
   * generative-AI conventions' default: content is sensitive and large). Ids, names, counts,
   * sizes and outcomes are always recorded.
   */
  readonly recordContent?: boolean | undefined;
}
