/** The run span waits for everything that holds it (the run's response counting its bytes, a stored run's append count) before it ends. */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { RunSpans } from "../../../src/server/tracing/RunSpans";
import { ROOT_CONTEXT, Telemetry } from "../../../src/telemetry/Telemetry";

function tracedRun(): { readonly spans: RunSpans; readonly ended: () => string[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spans = RunSpans.start(new Telemetry({ tracer: provider.getTracer("test") }), runAgentInput("t1", "r1"), ROOT_CONTEXT, "writer");
  if (spans === undefined) throw new Error("expected a recording run span");
  return { spans, ended: () => exporter.getFinishedSpans().map((span) => span.name) };
}

test("with two holds, the run span stays open after its terminal event until the second is released, whichever is released first", () => {
  for (const order of [
    [0, 1],
    [1, 0],
  ]) {
    const { spans, ended } = tracedRun();
    const holds = [spans.hold(), spans.hold()];
    spans.observe(ev.runStarted("t1", "r1"));
    spans.observe(ev.runFinished("t1", "r1"));
    holds[order[0]]();
    expect(ended()).toEqual([]);
    holds[order[0]](); // releasing one twice is still one release
    expect(ended()).toEqual([]);
    holds[order[1]]();
    expect(ended()).toEqual(["invoke_agent writer"]);
  }
});

test("holds released before the terminal event: the span ends with the terminal event", () => {
  const { spans, ended } = tracedRun();
  const holds = [spans.hold(), spans.hold()];
  spans.observe(ev.runStarted("t1", "r1"));
  for (const release of holds) release();
  expect(ended()).toEqual([]);
  spans.observe(ev.runFinished("t1", "r1"));
  expect(ended()).toEqual(["invoke_agent writer"]);
});
