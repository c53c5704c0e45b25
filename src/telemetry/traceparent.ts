/**
 * The W3C Trace Context `traceparent` header (https://www.w3.org/TR/trace-context/#traceparent-header):
 * `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`. Read when no propagator is registered, and
 * written by the client, so that a request's parent crosses processes with or without an SDK's propagator.
 */
import type { OtelSpanContext } from "./OtelApi";

/** The request header that carries a span's context. */
export const TRACEPARENT_HEADER = "traceparent";

/** The request header that carries vendor trace state beside it. */
export const TRACESTATE_HEADER = "tracestate";

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;

/**
 * The span context a `traceparent` value names, or `undefined` for a value that is absent or
 * malformed, version `ff`, or an all-zero trace or span id (the specification's invalid values).
 * A version above `00` is read by its first four fields, as the specification asks.
 *
 * @example
 * parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
 * // { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1, isRemote: true }
 */
export function parseTraceparent(value: string | null | undefined): OtelSpanContext | undefined {
  if (value === null || value === undefined) return undefined;
  const match = TRACEPARENT.exec(value.trim().toLowerCase());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags] = match as unknown as [string, string, string, string, string];
  if (version === "ff" || (version === "00" && value.trim().length !== 55)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) & 0xff, isRemote: true };
}

/**
 * The `traceparent` value of a span context (version `00`).
 *
 * @example
 * formatTraceparent({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1 });
 * // "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
 */
export function formatTraceparent(context: OtelSpanContext): string {
  return `00-${context.traceId}-${context.spanId}-${(context.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}
