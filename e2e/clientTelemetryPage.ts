/**
 * The page of the client telemetry suite (e2e/clientTelemetry.e2e.test.ts), bundled by esbuild with
 * the OpenTelemetry SDK: it registers a tracer provider whose spans stay in memory, and
 * `window.tracedRun(agentUrl, allowed)` sends one message through a traced Session, resolving the
 * run's end and the spans the page recorded.
 */
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { lastValueFrom, toArray } from "rxjs";
import { HttpTransport, Session } from "../src/client/index";
import { clientTelemetry } from "../src/client/telemetry/index";

/** What the page hands back: the run's end and its spans' names and ids. */
export interface TracedRunResult {
  readonly end: unknown;
  readonly spans: readonly { readonly name: string; readonly traceId: string; readonly spanId: string; readonly traceFlags: number }[];
}

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

async function tracedRun(agentUrl: string, allowed: readonly string[]): Promise<TracedRunResult> {
  exporter.reset();
  const session = new Session(new HttpTransport(agentUrl), { threadId: `page-${Date.now()}`, telemetry: clientTelemetry({ propagateCrossOrigin: allowed }) });
  const updates = await lastValueFrom(session.send("hi").pipe(toArray()));
  const done = updates[updates.length - 1];
  return {
    end: done?.kind === "done" ? done.end : undefined,
    spans: exporter.getFinishedSpans().map((span) => ({ name: span.name, ...span.spanContext() })),
  };
}

(globalThis as { tracedRun?: typeof tracedRun }).tracedRun = tracedRun;
