/** A post's run kept in a store (docs/durability.md#stores-and-routes): begun as the caller, recorded apart from its response, the response the run as logged. */
import { concat, of } from "rxjs";
import { RESUMABLE_HEADER } from "../../protocol/connectMode";
import type { RunAgentInput } from "../../protocol/input";
import { beginReconciledRun, type BeginReconciledOptions } from "../history/beginReconciledRun";
import type { ThreadStore } from "../store/ThreadStore";
import type { Caller } from "./admit";
import { cutOnStoreFailure } from "./cutOnStoreFailure";
import { drainQueue } from "./drainQueue";
import type { HandlerContext } from "./HandlerContext";
import type { RunFunction } from "./HandlerOptions";
import { startStoredRun } from "./startStoredRun";
import { eventStreamResponse } from "./streamResponse";
import { tailStreamOptions } from "./tailLimits";
import { toEventStream } from "./toEventStream";
import { RequestTrace } from "../tracing/RequestTrace";
import { tracedTail } from "../tracing/tracedTail";
import { handlerRunSpans } from "../tracing/handlerRunSpans";

/**
 * A run kept in `store`: `beginReconciledRun` as the caller (docs/threads.md#owners; `begin` passes
 * the caller's read of the thread and `passQueue`), then `startStoredRun` (the run goes on when its
 * client goes away: a disconnect only detaches; its end drains the thread's queue,
 * docs/queue.md#who-starts-a-waiting-message); the response is the run as logged, its
 * RUN_STARTED then `store.tail` from there, every frame with `id: <cursor>`, under the header
 * `AGUI-Resumable: true` (a client cut even before the first frame may reconnect). The
 * producer's `ready` follows the response while one reads it. A recording that fails after the
 * response started is reported to `onRunError`; its clients see the log's end (a RUN_ERROR
 * `ABANDONED` or `RUN_TOO_LARGE`) or a body cut short (a store down).
 *
 * @example
 * return serveStoredRun(request, input, chosen, context, store, caller);
 */
export async function serveStoredRun(
  request: Request,
  posted: RunAgentInput,
  chosen: RunFunction | undefined,
  context: HandlerContext,
  store: ThreadStore,
  caller: Caller,
  begin: Pick<BeginReconciledOptions, "read" | "passQueue"> = {},
): Promise<Response> {
  // docs/threads.md#the-anchor-rule: the run gets the stored history, filled in, or the post is refused
  // The run's span starts first, so that the RUN_STARTED the store logs carries its trace (docs/observability.md#traces).
  const spans = handlerRunSpans(context.telemetry, request, posted, { agentName: chosen === undefined ? context.agentName : undefined, responseIsRun: false });
  const runTrace = spans === undefined ? {} : { runTrace: spans.trace };
  const begun = await beginReconciledRun(store, posted, { ...begin, history: context.history, scope: caller.scope, headers: context.headers, ...runTrace });
  if (begun instanceof Response) {
    spans?.streamEnded("error", String(begun.status), "the run was refused before it began");
    return begun;
  }
  const { writer, input } = begun;
  const { threadId } = input;
  const pace = startStoredRun(writer, input, chosen, context, {
    request,
    spans,
    scope: caller.scope,
    onEnd: () => void drainQueue(store, threadId, caller.scope, context),
  });
  const body = toEventStream(
    (ready, gone) => {
      pace.attach(ready, gone);
      return concat(
        of(writer.started),
        tracedTail(store.tail(threadId, writer.started.cursor, caller.scope), context.telemetry, RequestTrace.of(request)?.context),
      ).pipe(cutOnStoreFailure());
    },
    { ...context.stream, ...tailStreamOptions(context.tails), gatherWrites: false, signal: request.signal, slowConsumer: "end" },
  );
  return eventStreamResponse(body, context.headers, { [RESUMABLE_HEADER]: "true" });
}
