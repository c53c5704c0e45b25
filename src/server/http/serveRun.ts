/** `POST {url}` (docs/server.md#run-and-context, docs/durability.md#stores-and-routes): one run, streamed as SSE; with a store, recorded and outliving its response. */
import type { Observable } from "rxjs";
import { excerpt } from "../../protocol/describeFailure";
import type { Event } from "../../protocol/events";
import { CAPABILITIES_KEY } from "../../protocol/historyCapability";
import { RunAgentInput } from "../../protocol/input";
import { whileRunningOf, type WhileRunning } from "../../protocol/queueMeta";
import { debugEvents } from "../../operators/logEvents";
import { refuseMethodOrMedia } from "./refuseMethodOrMedia";
import { errorResponse } from "./errorResponse";
import { admit } from "./admit";
import type { HandlerContext } from "./HandlerContext";
import type { Routed } from "./HandlerOptions";
import { serveStoredPost } from "./serveStoredPost";
import { readJsonRequest } from "./readJsonRequest";
import { eventStreamResponse } from "./streamResponse";
import { toEventStream } from "./toEventStream";
import { handlerRunSpans } from "../tracing/handlerRunSpans";
import { tracedRun } from "../tracing/tracedRun";

/**
 * Serves one run. Refusals come first, in request order: 405, 406, the body's (415, 413, 408,
 * 400), `identify` (401), `authorize` (`run`: 403), `route` (its own answer, or 500 when it throws), and with a
 * store the history rules (docs/threads.md#the-anchor-rule: 409 `history-conflict`, 422
 * `history-forged`) and `beginRun` (409 `run-active`, 503 `capacity`/`unavailable`). Then the stream:
 *
 * - without a store, the run is the response: the client going away (or reading too slowly for
 *   the send-buffer cap) stops it, as it always did;
 * - with a store, see `serveStoredPost` (a post sent with a policy while the thread is busy waits
 *   in its queue, docs/queue.md#policies; a malformed policy, or one on a handler with `history:
 *   "client"`, is 400 `invalid-input`) and `serveStoredRun`.
 *
 * @example
 * if (route.name === "run") return serveRun(request, context);
 */
export async function serveRun(request: Request, context: HandlerContext): Promise<Response> {
  const { headers } = context;
  const shape = refuseMethodOrMedia(request, headers, { body: "a RunAgentInput body", answersEventStream: true });
  if (shape) return shape;
  const input = await readJsonRequest(request, RunAgentInput, "RunAgentInput", context.limits, headers);
  if (input instanceof Response) return input;
  const policy = context.store === undefined ? "refuse" : policyOf(input, context);
  if (policy instanceof Response) return policy;
  const caller = await admit(context, request, { action: "run", threadId: input.threadId, runId: input.runId });
  if (caller instanceof Response) return caller;

  let chosen: Routed;
  try {
    chosen = context.route ? await context.route(request, input) : undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : excerpt(error);
    return errorResponse(500, { error: "internal", message: `route failed before the run started: ${message}` }, headers);
  }
  if (chosen instanceof Response) return chosen;
  if (context.store !== undefined) return serveStoredPost(request, input, chosen, context, context.store, caller, policy);

  const runSource = chosen ?? context.runDefault;
  const spans = handlerRunSpans(context.telemetry, request, input, { agentName: chosen === undefined ? context.agentName : undefined, responseIsRun: true });
  const body = toEventStream(
    (ready, signal) => {
      const events = (): Observable<Event> => runSource(input, { request, ready, signal, setThreadTitle: noThreadTitle });
      return (spans === undefined ? events() : tracedRun(events, spans, signal)).pipe(debugEvents(context.debug, "server"), context.metrics.measureRun());
    },
    {
      ...context.stream,
      signal: request.signal,
    },
  );
  return eventStreamResponse(body, headers);
}

/**
 * The policy the post asks for while a run is live (docs/queue.md#policies), or the 400 for one
 * that is not a policy, or for a policy on a handler whose clients own the history (their
 * history cannot be queued).
 */
function policyOf(input: RunAgentInput, context: HandlerContext): WhileRunning | Response {
  const policy = whileRunningOf(input.forwardedProps);
  const path = `/forwardedProps/${CAPABILITIES_KEY}/whileRunning`;
  if (policy === "malformed") {
    const message = 'expected whileRunning to be one of "refuse", "queue", "steer", "interrupt"';
    return errorResponse(400, { error: "invalid-input", message, path }, context.headers);
  }
  if (policy !== "refuse" && context.history === "client") {
    const message = `expected no whileRunning policy on a handler with history: "client" (the client's history cannot be queued), but got ${JSON.stringify(policy)}`;
    return errorResponse(400, { error: "invalid-input", message, path }, context.headers);
  }
  return policy;
}

/** A run without a store has no thread list: its title goes nowhere (docs/threads.md#the-thread-list). */
function noThreadTitle(): Promise<void> {
  return Promise.resolve();
}
