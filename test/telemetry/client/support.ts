/** The real OpenTelemetry SDK for the client telemetry tests: a provider registered globally, its spans in memory, and a loopback server that notes each request's trace headers. */
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { serve, type Served } from "../../../src/node/serve";
import { createHandler, type HandlerOptions, type RunSource } from "../../../src/server/http/createHandler";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";

/** Registers a provider whose spans land in the returned exporter; `unregister` in afterEach. */
export function registerSdk(): { readonly exporter: InMemorySpanExporter; unregister(): void } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  return {
    exporter,
    unregister: () => {
      trace.disable();
      exporter.reset();
    },
  };
}

/** What a request carried: its path and its trace headers. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly traceparent: string | null;
  readonly tracestate: string | null;
}

/** A store-backed handler on loopback noting every request it gets. */
export async function serveNoting<S>(
  source: RunSource<S>,
  options: HandlerOptions = {},
): Promise<{ readonly url: string; readonly seen: SeenRequest[]; readonly served: Served }> {
  // The handler would trace too under the globally registered provider: these tests read the client's spans alone.
  const handler = createHandler(source, { onRunError: () => undefined, store: memoryStore(), telemetry: { tracer: false, meter: false }, ...options });
  const seen: SeenRequest[] = [];
  const served = await serve((request) => {
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      traceparent: request.headers.get("traceparent"),
      tracestate: request.headers.get("tracestate"),
    });
    return handler(request);
  });
  return { url: `${served.url}agent`, seen, served };
}

/** The `traceparent` a span's context makes (sampled). */
export function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, "0")}`;
}

/** The span's parent span id, if any (SDK 2.x: `parentSpanContext`). */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}
