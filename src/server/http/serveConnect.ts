/** `POST {url}/connect` (docs/durability.md#stores-and-routes): a thread's events after a cursor, or its compacted prelude, then the live tail. */
import * as t from "io-ts";
import { CONNECT_MODE_HEADER, HISTORY_OLDER_HEADER, HISTORY_OLDEST_HEADER, RESUMABLE_HEADER } from "../../protocol/connectMode";
import { newThreadStream, type ConnectStream } from "../store/openConnect";
import { RequestTrace } from "../tracing/RequestTrace";
import { tracedConnect } from "../tracing/tracedConnect";
import type { QueueEntryState, ThreadStore } from "../store/ThreadStore";
import { drainQueue } from "./drainQueue";
import { queuedResponse, type QueuedWait } from "./queuedStream";
import { refuseMethodOrMedia } from "./refuseMethodOrMedia";
import { cutOnStoreFailure } from "./cutOnStoreFailure";
import { errorResponse } from "./errorResponse";
import { admit } from "./admit";
import type { HandlerContext } from "./HandlerContext";
import { refuseLimit } from "./pageLimit";
import { readJsonRequest } from "./readJsonRequest";
import { notResumable } from "./serveStop";
import { eventStreamResponse, storeFailure } from "./streamResponse";
import { connectStreamOptions, refuseOverBudget } from "./tailLimits";
import { toEventStream } from "./toEventStream";

/**
 * The body of a connect request: a `RunAgentInput`, of which only `threadId` is needed; a
 * `runId` says the client follows that run (it reconnects), as a `Last-Event-ID` does; a `limit`
 * asks for only the last `limit` messages of the thread in the prelude (docs/threads.md#paginated-history);
 * `queued` asks for a waiting message's own stream instead (docs/queue.md#on-the-wire).
 */
const ConnectRequest = t.intersection([t.type({ threadId: t.string }), t.partial({ runId: t.string, limit: t.number, queued: t.string })], "ConnectRequest");

/**
 * Reads the body (a `limit` outside 1 to `maxPageSize` → 400), asks `identify` and `authorize`
 * (`connect`), then the store as the caller (docs/threads.md#owners) (`openConnect` after the
 * `Last-Event-ID` header, if any): the SSE stream: `id:` on every frame that carries a cursor, the
 * mode in the `AGUI-Connect-Mode` header (`resume`, `snapshot`, or `new` for a thread the caller
 * has never had: an empty thread's prelude, see `unknownThread`), and `AGUI-Resumable: true`; on the
 * snapshot and new paths also `AGUI-History-Older` and (with a message sent) `AGUI-History-Oldest`
 * (whether older messages exist, and the oldest one sent). A thread the store does not know, after
 * a `Last-Event-ID`: 410 `gone`; naming only a run: 404 `not-found` (only an authorized caller gets
 * that far). Past the budget of bytes queued to tails (`maxTailBytes`): 503 `capacity`, asked after
 * `authorize` and before the store. A tail the store can no longer follow (evicted, unavailable)
 * ends the body without a terminal event, so the client reconnects; a reader too slow for the
 * send-buffer cap is cut the same way, and one that took nothing for `idleWriteTimeoutMs` is cut
 * off (the body errors). With `queued` in the body: that waiting message's stream (see
 * `connectQueued`). Without a store: 404 `not-resumable`. A method other than POST → 405; an `Accept` without SSE → 406.
 *
 * @example
 * if (route.name === "connect") return serveConnect(request, context);
 */
export async function serveConnect(request: Request, context: HandlerContext): Promise<Response> {
  const { headers, store } = context;
  const startedAt = context.tails.clock.now(); // the connect's latency counts from here to its first frame
  const shape = refuseMethodOrMedia(request, headers, { body: "a { threadId } body", answersEventStream: true });
  if (shape) return shape;
  if (store === undefined) return notResumable("connect", headers);
  const body = await readJsonRequest(request, ConnectRequest, "connect request", context.limits, headers);
  if (body instanceof Response) return body;
  const { threadId, runId, limit, queued } = body;
  const badLimit = limit === undefined ? undefined : refuseLimit(limit, context.maxPageSize, "/limit", headers);
  if (badLimit) return badLimit;
  const caller = await admit(context, request, runId === undefined ? { action: "connect", threadId } : { action: "connect", threadId, runId });
  if (caller instanceof Response) return caller;
  const { owner } = caller.scope;
  const overBudget = refuseOverBudget(context.tails, headers);
  if (overBudget) {
    context.metrics.aborted("tail_budget");
    return overBudget;
  }
  if (queued !== undefined) return connectQueued(request, context, store, { threadId, id: queued, scope: caller.scope });
  const lastEventId = request.headers.get("last-event-id") || undefined; // an empty header is no cursor
  let stream: ConnectStream | undefined;
  try {
    // Traced when the request is: the read and the tail as short spans, the request linked to the run's trace (docs/observability.md#store-work).
    const options = { reconnect: lastEventId !== undefined || runId !== undefined, owner, limit };
    stream = await tracedConnect(context.telemetry, RequestTrace.of(request)?.context, store, threadId, lastEventId, options);
  } catch (error) {
    return storeFailure(error, headers);
  }
  if (stream === undefined) {
    const unknown = unknownThread(threadId, lastEventId, runId, headers);
    if (unknown instanceof Response) return unknown;
    stream = unknown;
  }
  const events = toEventStream(stream.frames.pipe(cutOnStoreFailure()), {
    ...context.stream,
    ...connectStreamOptions(context.tails),
    signal: request.signal,
    slowConsumer: "end",
    metrics: context.metrics.connect(startedAt, { mode: stream.mode, reconnect: lastEventId !== undefined }),
    // A tail whose reader stopped reading is let go and followed again from its last cursor when it reads (PARK_BYTES).
    resumeAfter: (cursor) => store.tail(threadId, cursor, { owner }).pipe(cutOnStoreFailure()),
  });
  return eventStreamResponse(events, headers, { [CONNECT_MODE_HEADER]: stream.mode, [RESUMABLE_HEADER]: "true", ...pageHeaders(stream.page) });
}

/**
 * What a connect to a thread the store does not know answers (docs/threads.md#joining-a-new-thread);
 * another owner's thread is, for this caller, exactly such a thread, so the answers are the same
 * and tell nothing of it (docs/threads.md#owners):
 * - a join (no cursor, no run named): the thread is new to the caller, an empty thread: mode `new`;
 * - a reconnect after a cursor (`Last-Event-ID`): the thread it followed is gone (deleted, evicted,
 *   expired): 410 `gone`, never an empty thread;
 * - a reconnect naming only a run: 404 `not-found` (no cursor proves the thread ever existed; a run
 *   whose POST never reached the store is not gone, it never began).
 */
function unknownThread(
  threadId: string,
  lastEventId: string | undefined,
  runId: string | undefined,
  headers: Readonly<Record<string, string>>,
): ConnectStream | Response {
  const thread = JSON.stringify(threadId);
  if (lastEventId !== undefined) {
    const message = `expected the thread ${thread} to resume after ${JSON.stringify(lastEventId)}, but the store no longer knows it: it was deleted, evicted or expired`;
    return errorResponse(410, { error: "gone", message }, headers);
  }
  if (runId !== undefined)
    return errorResponse(
      404,
      { error: "not-found", message: `expected a thread ${thread} with a run ${JSON.stringify(runId)}, but the store knows none` },
      headers,
    );
  return newThreadStream(threadId, globalThis.crypto.randomUUID());
}

/**
 * A waiting message's stream, picked up again (docs/queue.md#on-the-wire): 404 `not-found` when the
 * store knows no such message on the thread (or the thread is another owner's); else the stream
 * from the message's current status (`queuedResponse`). The queue is offered the turn first, so a
 * thread whose producer died is drained by the client that comes back to it.
 */
async function connectQueued(request: Request, context: HandlerContext, store: ThreadStore, wait: QueuedWait): Promise<Response> {
  let where: QueueEntryState;
  try {
    where = await store.queueEntry(wait.threadId, wait.id, wait.scope);
  } catch (error) {
    return storeFailure(error, context.headers);
  }
  if (where.state === "unknown") {
    const message = `expected a waiting message ${JSON.stringify(wait.id)} on thread ${JSON.stringify(wait.threadId)}, but the store knows none`;
    return errorResponse(404, { error: "not-found", message }, context.headers);
  }
  if (where.state === "waiting") void drainQueue(store, wait.threadId, wait.scope, context);
  return queuedResponse(request, context, store, wait);
}

/** The history headers of a snapshot-path answer (none on the resume path, which sends no messages). */
function pageHeaders(page: ConnectStream["page"]): Record<string, string> {
  if (page === undefined) return {};
  const older = { [HISTORY_OLDER_HEADER]: String(page.hasOlder) };
  return page.oldestMessageId === undefined ? older : { ...older, [HISTORY_OLDEST_HEADER]: encodeURIComponent(page.oldestMessageId) };
}
