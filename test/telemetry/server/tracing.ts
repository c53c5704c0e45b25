/** The real OpenTelemetry SDK for the server's tracing tests: a provider with an in-memory exporter, registered globally, and the span tree as text. */
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace-base";

/** What a test reads: the finished spans. */
export interface Recorded {
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  spans(): ReadableSpan[];
  /** The one finished span named `name`; throws when there is none or more than one. */
  one(name: string): ReadableSpan;
  /** The finished span that is `span`'s parent, if it finished. */
  parentOf(span: ReadableSpan): ReadableSpan | undefined;
  /** Resolves with the first span named `name` once it has ended (at once when one already has). */
  ended(name: string): Promise<ReadableSpan>;
}

/** A span processor that tells waiters when a span of a name ends: a test waits for a span, never for time. */
class EndWatcher implements SpanProcessor {
  private readonly waiters: { readonly name: string; readonly resolve: (span: ReadableSpan) => void }[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    for (const waiter of this.waiters.filter((w) => w.name === span.name)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(span);
    }
  }
  wait(name: string): Promise<ReadableSpan> {
    return new Promise((resolve) => this.waiters.push({ name, resolve }));
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Registers the SDK globally (tracer provider, async context); `unregisterTracing` undoes it. No
 * propagator: the handler reads `traceparent` itself then (docs/observability.md#traces).
 */
export function registerTracing(): Recorded {
  const exporter = new InMemorySpanExporter();
  const watcher = new EndWatcher();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter), watcher] });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  return recorded(exporter, provider, watcher);
}

/** The spans of `exporter`, read as `Recorded`. */
export function recorded(exporter: InMemorySpanExporter, provider: BasicTracerProvider, watcher?: EndWatcher): Recorded {
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  return {
    exporter,
    provider,
    spans,
    one(name) {
      const found = spans().filter((span) => span.name === name);
      if (found.length !== 1)
        throw new Error(
          `expected one span named ${JSON.stringify(name)}, found ${found.length}: ${spans()
            .map((s) => s.name)
            .join(", ")}`,
        );
      return found[0];
    },
    ended(name) {
      const done = spans().find((span) => span.name === name);
      if (done !== undefined) return Promise.resolve(done);
      if (watcher === undefined) throw new Error("expected a provider made by registerTracing to wait on");
      return watcher.wait(name);
    },
    parentOf(span) {
      const parent = span.parentSpanContext?.spanId;
      return spans().find((other) => other.spanContext().spanId === parent);
    },
  };
}

/** Undoes `registerTracing`. */
export function unregisterTracing(): void {
  trace.disable();
  context.disable();
}

/**
 * The finished spans as an indented tree, one line per span: its name and its attributes (`keys`
 * only, in that order, when given), children under their parent in start order. Spans whose parent is not among
 * them are roots (a remote parent shows as `(remote parent <span id>)`).
 */
export function spanTree(spans: readonly ReadableSpan[], keys?: readonly string[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const byStart = [...spans].sort((a, b) => compareTime(a.startTime, b.startTime));
  const lines: string[] = [];
  const walk = (span: ReadableSpan, depth: number): void => {
    const shown =
      keys === undefined ? Object.entries(span.attributes) : keys.filter((key) => key in span.attributes).map((key) => [key, span.attributes[key]] as const);
    const attributes = shown.map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(" ");
    const status = span.status.code === SpanStatusCode.ERROR ? " [error]" : "";
    lines.push(`${"  ".repeat(depth)}${span.name}${status}${attributes.length > 0 ? `  ${attributes}` : ""}`);
    for (const child of byStart.filter((other) => other.parentSpanContext?.spanId === span.spanContext().spanId)) walk(child, depth + 1);
  };
  for (const root of byStart.filter((span) => span.parentSpanContext === undefined || !ids.has(span.parentSpanContext.spanId))) {
    if (root.parentSpanContext !== undefined) lines.push(`(remote parent ${root.parentSpanContext.spanId})`);
    walk(root, root.parentSpanContext === undefined ? 0 : 1);
  }
  return lines.join("\n");
}

function compareTime(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}
