/**
 * The OpenTelemetry API's global registry, read without importing `@opentelemetry/api`
 * (docs/observability.md#no-sdk). The API 1.x keeps what an SDK registers (`trace.setGlobalTracerProvider`,
 * `context.setGlobalContextManager`, `propagation.setGlobalPropagator`, `metrics.setGlobalMeterProvider`)
 * on `globalThis` under `Symbol.for("opentelemetry.js.api.1")`, so that every copy of the API in a
 * process shares one registration; this library reads the same slot. No SDK registered: the slot is
 * empty, and every instrument here is off at the cost of one property read.
 */
import type { OtelContextManager, OtelMeterProvider, OtelPropagator, OtelTracerProvider } from "./OtelApi";

/** The registry's key for the API's major version 1. */
const REGISTRY_KEY = Symbol.for("opentelemetry.js.api.1");

/** What an SDK registered, each part absent until something registers it. */
export interface OtelRegistry {
  readonly trace?: OtelTracerProvider | undefined;
  readonly metrics?: OtelMeterProvider | undefined;
  readonly context?: OtelContextManager | undefined;
  readonly propagation?: OtelPropagator | undefined;
}

/**
 * The process's OpenTelemetry registrations, read now (an SDK may register after a handler was
 * made, so callers read it when they need it, not once).
 *
 * @example
 * const tracer = globalOtel()?.trace?.getTracer("agui-rx"); // undefined with no SDK registered
 */
export function globalOtel(): OtelRegistry | undefined {
  return (globalThis as { [REGISTRY_KEY]?: OtelRegistry })[REGISTRY_KEY];
}
