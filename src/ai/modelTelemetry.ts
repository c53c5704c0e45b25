/**
 * What `aiAgent` tells the AI SDK's telemetry about one run's `streamText` call
 * (docs/observability.md#ai-sdk): what it may record, under which name, and (through `joinRun`)
 * which span its spans belong under.
 */
import type { Telemetry as AiTelemetryIntegration, TelemetryOptions as AiTelemetryOptions } from "ai";
import { globalOtel } from "../telemetry/globalOtel";
import type { OtelContext } from "../telemetry/OtelApi";
import type { Telemetry } from "../telemetry/Telemetry";
import type { TelemetryOptions } from "../telemetry/TelemetryOptions";

/**
 * The AI SDK `telemetry` option `aiAgent` builds before `prepare`: `recordInputs` and
 * `recordOutputs` follow `recordContent` (off by default: the AI SDK records prompts, responses
 * and tool arguments unless told not to, the generative-AI conventions do not), `functionId` is
 * the agent's `name` when it has one, and `tracer: false` turns the AI SDK's telemetry off for
 * this agent (`isEnabled: false`). A `prepare` may still change any of it.
 *
 * @example
 * modelTelemetry({ recordContent: false }, "weather");
 * // { recordInputs: false, recordOutputs: false, functionId: "weather" }
 */
export function modelTelemetry(options: TelemetryOptions | undefined, name: string | undefined): AiTelemetryOptions {
  if (options?.tracer === false) return { isEnabled: false };
  const recordContent = options?.recordContent === true;
  return { recordInputs: recordContent, recordOutputs: recordContent, ...(name === undefined ? {} : { functionId: name }) };
}

/**
 * `telemetry` with its integrations (the call's own, else the ones `registerTelemetry` put on
 * `globalThis.AI_SDK_TELEMETRY_INTEGRATIONS`) made to run each callback with `runContext` active.
 * The AI SDK's OpenTelemetry integration opens its first span on `context.active()` when the
 * call's `onStart` reaches it, after an `await` inside `streamText`: Node's async context carries
 * the run's span there by itself; a runtime whose context manager does not follow promises (the
 * web SDK's stack context manager, any synchronous one) would lose it, so the context is passed
 * explicitly, and then it is the same everywhere. Its later spans are children of its first.
 * Unchanged when the run has no span, no context manager is registered (nothing could carry it),
 * no integration is registered, or the AI SDK's telemetry is off for the call.
 *
 * @example
 * const call = { ...built, telemetry: joinRun(built.telemetry, telemetry.active(), telemetry) };
 */
export function joinRun(telemetry: AiTelemetryOptions | undefined, runContext: OtelContext, otel: Telemetry): AiTelemetryOptions | undefined {
  if (telemetry?.isEnabled === false || otel.spanOf(runContext) === undefined || globalOtel()?.context === undefined) return telemetry;
  const given = telemetry?.integrations;
  const integrations = given === undefined ? registeredIntegrations() : Array.isArray(given) ? given : [given];
  if (integrations.length === 0) return telemetry;
  return { ...telemetry, integrations: integrations.map((integration) => inContext(integration, runContext, otel)) };
}

/** The integrations `registerTelemetry` registered (the AI SDK keeps them on `globalThis`, its documented global). */
function registeredIntegrations(): readonly AiTelemetryIntegration[] {
  return (globalThis as { AI_SDK_TELEMETRY_INTEGRATIONS?: readonly AiTelemetryIntegration[] }).AI_SDK_TELEMETRY_INTEGRATIONS ?? [];
}

/**
 * `integration` with every method run inside `otel.with(context, …)`: the AI SDK binds and calls
 * each callback it finds (`onStart`, `executeLanguageModelCall`, …), and the integration's own
 * context switches inside them (a tool's span around its `execute`) still win, being innermost.
 */
function inContext(integration: AiTelemetryIntegration, context: OtelContext, otel: Telemetry): AiTelemetryIntegration {
  return new Proxy(integration, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]): unknown => otel.with(context, () => method.apply(target, args));
    },
  });
}
