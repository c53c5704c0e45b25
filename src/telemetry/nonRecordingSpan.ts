/** A span that records nothing, for a context a tracer only reads (the API's `NonRecordingSpan`). */
import type { OtelSpan, OtelSpanContext } from "./OtelApi";

/**
 * A span whose every method does nothing and whose `spanContext()` is `spanContext`: a remote
 * parent read from a `traceparent` (a tracer reads its context to parent a span), or a stand-in
 * for a span that has already ended.
 *
 * @example
 * const parent = nonRecordingSpan({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1, isRemote: true });
 * parent.isRecording(); // false
 */
export function nonRecordingSpan(spanContext: OtelSpanContext): OtelSpan {
  return {
    spanContext: () => spanContext,
    setAttribute: () => undefined,
    setAttributes: () => undefined,
    addEvent: () => undefined,
    setStatus: () => undefined,
    updateName: () => undefined,
    recordException: () => undefined,
    end: () => undefined,
    isRecording: () => false,
  };
}
