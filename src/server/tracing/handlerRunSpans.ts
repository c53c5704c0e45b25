/** The spans of a run a handler starts (docs/observability.md#traces), parented on its request's span. */
import type { RunAgentInput } from "../../protocol/input";
import { ROOT_CONTEXT } from "../../telemetry/Telemetry";
import type { Telemetry } from "../../telemetry/Telemetry";
import { RequestTrace } from "./RequestTrace";
import { RunSpans } from "./RunSpans";

/**
 * The spans of a run started by `request`: its run span a child of the request's span, held open
 * while the request's response body sends (its bytes are the run's `agui_rx.run.bytes`). A run
 * started without a traced request (a waiting message started by another run's end) begins its own
 * trace. `responseIsRun`: without a store, the response's end is the run's end (a response never
 * read never subscribes the run). `undefined` with no tracer: the caller then adds nothing to the run's events.
 *
 * @example
 * const spans = handlerRunSpans(context.telemetry, request, input, { agentName: context.agentName, responseIsRun: true });
 * const events = spans === undefined ? events$ : tracedRun(events$, spans, signal);
 */
export function handlerRunSpans(
  telemetry: Telemetry,
  request: Request,
  input: RunAgentInput,
  how: { readonly agentName: string | undefined; readonly responseIsRun: boolean },
): RunSpans | undefined {
  const trace = RequestTrace.of(request);
  const spans = RunSpans.start(telemetry, input, trace?.context ?? ROOT_CONTEXT, how.agentName);
  if (spans === undefined || trace === undefined) return spans;
  const release = spans.hold();
  const ended = (): void => {
    // Without a store the response is the run: a body that ends before the run was ever read (the client left at once) ends it.
    if (how.responseIsRun) spans.streamEnded("cancelled");
    release();
  };
  trace.follow((count) => spans.addBytes(count), ended);
  // A client gone whose body is never cancelled still lets the span go (both are idempotent).
  request.signal.addEventListener("abort", ended, { once: true });
  return spans;
}
