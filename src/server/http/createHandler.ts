/** Serves one agent (or several) over HTTP as a fetch-style handler: `Request` in, SSE `Response` out (docs/server.md#run-and-context, docs/durability.md#stores-and-routes). */
import { DEFAULT_MAX_JSON_DEPTH } from "../../protocol/jsonDepth";
import { systemClock } from "../store/StoreClock";
import type { Agent } from "../Agent";
import { run } from "../run";
import { corsPolicy } from "./cors";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import type { FetchHandler, HandlerOptions, RunFunction, RunSource } from "./HandlerOptions";
import { DEFAULT_MAX_PAGE_SIZE } from "./pageLimit";
import { routeOf } from "./routeOf";
import { capabilitiesOf, serveCapabilities } from "./serveCapabilities";
import { serveConnect } from "./serveConnect";
import { serveHistory } from "./serveHistory";
import { serveRun } from "./serveRun";
import { serveStop } from "./serveStop";
import { serveCancelQueued } from "./serveCancelQueued";
import { serveSelectBranch } from "./serveSelectBranch";
import { serveThreadDelete, serveThreadUpdate } from "./serveThread";
import { serveThreadEvents } from "./serveThreadEvents";
import { serveThreadList } from "./serveThreadList";
import { DEFAULT_MAX_TAIL_BYTES, sharedTailFrames } from "./TailFrames";
import { DEFAULT_HIGH_WATER_MARK, DEFAULT_MAX_BUFFERED_BYTES } from "./toEventStream";
import { heartbeatInterval } from "./heartbeatInterval";
import { Telemetry } from "../../telemetry/Telemetry";
import { traceRequest } from "../tracing/traceRequest";
import type { TelemetryOptions } from "../../telemetry/TelemetryOptions";
import { ServerMetrics } from "../telemetry/ServerMetrics";
import { countStoreErrors } from "../telemetry/countStoreErrors";

export type {
  Authorize,
  CorsOptions,
  FetchHandler,
  HandlerOptions,
  Identify,
  OneThreadAccess,
  Routed,
  RunFunction,
  RunRequest,
  RunSource,
  ThreadAccess,
  ThreadListAccess,
} from "./HandlerOptions";

/** The default `maxQueuedMessages`: 16 waiting messages per thread (docs/queue.md#policies). */
const DEFAULT_MAX_QUEUED_MESSAGES = 16;

/** The default `queueRecheckMs`: a waiting message's stream looks again every 10 s (docs/queue.md#who-starts-a-waiting-message). */
const DEFAULT_QUEUE_RECHECK_MS = 10_000;

/**
 * What the handler's own `run()` calls are told of tracing: no spans of their own, since the
 * handler traces each run from its events (docs/observability.md#traces) and calls the driver with
 * the run span active, so the agent still runs in it.
 */
const TRACED_BY_HANDLER: TelemetryOptions = { tracer: false };

/** The default request body limit: 10 MiB, the size the official client's SSE parser accepts per event. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The default body read timeout: 30 s, time for the default 10 MiB limit at about 3 Mbit/s, far
 * more than a `RunAgentInput` of a real conversation needs.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

/**
 * The default idle-write timeout: 30 s in which a store-backed response's client took nothing
 * while events waited for it. Far longer than any reading client stalls; short enough that
 * sockets that never read give their queues back soon.
 */
export const DEFAULT_IDLE_WRITE_TIMEOUT_MS = 30_000;

/**
 * Makes a fetch-style handler that runs `source` for each `POST` whose JSON body is a
 * `RunAgentInput`, streaming its events as `text/event-stream` (`Cache-Control: no-cache`,
 * `X-Accel-Buffering: no` so proxies do not hold frames back). Only web APIs are used, so it runs
 * on Node 18+ and edge runtimes alike.
 *
 * Refusals are answered before any event, as JSON `{ error, message, path? }` (`HttpErrorBody`):
 * 405 for a method other than POST (with `Allow: POST`), 406 when `Accept` rules out
 * `text/event-stream` (absent or `*\/*` is fine: the answer is always SSE, never protobuf), 415 for
 * a body that is not JSON, 413 past `maxBodyBytes` (checked on `Content-Length` and again while
 * reading), 408 when the body takes longer than `bodyTimeoutMs`, 400 for invalid JSON, JSON nested
 * deeper than `maxJsonDepth` or an invalid input (naming the member's JSON Pointer), 403 when
 * `authorize` denies the run.
 *
 * Without a `store`, the client going away (the request's signal aborts, or the body stream is
 * cancelled) unsubscribes, which stops the run; so does a client too slow for `maxBufferedBytes`.
 * With a `store` (docs/durability.md#stores-and-routes) a run is logged as it is sent, every frame has
 * `id: <cursor>`, a client going away only detaches, and the paths below the endpoint serve the
 * rest of the contract: `POST {url}/connect` (a thread's events after `Last-Event-ID`, or its
 * compacted prelude, then the live tail), `POST {url}/stop` (cancel a run), and, with or without
 * a store, `GET {url}/capabilities`. With `identify`, threads have owners and the thread list
 * routes exist (docs/threads.md#routes: `GET {url}/threads`, `PATCH`/`DELETE
 * {url}/threads/{threadId}`, `GET {url}/threads/events`, `POST {url}/history`). One router picks
 * the route from the path and the method, and every route makes the same checks in the same
 * order: method (405), `Accept` (406), the route's availability (404), body (415, 413, 408, 400), `identify` (401), the owner
 * (the store is asked as the principal), `authorize` (403); `cors` answers preflights and adds its
 * headers to every answer.
 *
 * @example
 * const handler = createHandler(taskBoard, { store: memoryStore() }); // an Agent, or (input, { ready }) => Observable<Event>
 * Deno.serve(handler);                                                  // or: serve(handler) from "agui-rx/node"
 */
export function createHandler<S>(source: RunSource<S>, options: HandlerOptions = {}): FetchHandler {
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const runDefault: RunFunction =
    typeof source === "function"
      ? source
      : (input, { ready, signal, setThreadTitle }) => run(source, input, { ready, signal, maxJsonDepth, setThreadTitle, telemetry: TRACED_BY_HANDLER });
  const telemetry = new Telemetry(options.telemetry);
  const tailPool = options.tailFrames ?? sharedTailFrames;
  const metrics = new ServerMetrics(telemetry, tailPool, options.clock ?? systemClock);
  const context: HandlerContext = {
    limits: { maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS, maxJsonDepth },
    stream: {
      highWaterMark: options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      turns: options.turns,
      heartbeatMs: heartbeatInterval(options.heartbeatMs),
      clock: options.clock ?? systemClock,
      metrics: metrics.stream,
    },
    tails: {
      frames: tailPool,
      maxBytes: options.maxTailBytes ?? DEFAULT_MAX_TAIL_BYTES,
      idleWriteTimeoutMs: finiteOrNone(options.idleWriteTimeoutMs ?? DEFAULT_IDLE_WRITE_TIMEOUT_MS),
      clock: options.clock ?? systemClock,
    },
    headers: options.headers ?? {},
    runDefault,
    driver: typeof source === "function" ? undefined : agentDriver(source, maxJsonDepth),
    agentName: typeof source === "function" ? undefined : source.name,
    store: options.store === undefined ? undefined : countStoreErrors(options.store, metrics),
    identify: options.identify,
    history: options.history ?? "server",
    authorize: options.authorize,
    maxPageSize: options.maxPageSize ?? DEFAULT_MAX_PAGE_SIZE,
    route: options.route,
    debug: options.debug,
    capabilities: capabilitiesOf(options.capabilities, options.store !== undefined, options.history ?? "server"),
    onRunError: options.onRunError ?? reportRunError,
    queue: { maxMessages: options.maxQueuedMessages ?? DEFAULT_MAX_QUEUED_MESSAGES, recheckMs: options.queueRecheckMs ?? DEFAULT_QUEUE_RECHECK_MS },
    telemetry,
    metrics,
  };

  const cors = options.cors === undefined ? undefined : corsPolicy(options.cors);
  const answer = async (request: Request): Promise<Response> => {
    if (cors === undefined) return dispatch(request, context);
    const match = request.method === "OPTIONS" ? routeOf(request.method, request.url) : undefined;
    if (match?.kind === "wrong-method") return cors.preflight(request, match.allow); // a preflight is its own CORS answer
    return cors.decorate(request, await dispatch(request, context));
  };
  // Every request in its server span, parented on its traceparent (docs/observability.md#traces); no tracer: answered as it is.
  return (request) => traceRequest(context.telemetry, request, answer);
}

/**
 * The one router (docs/threads.md#routes): the path and method pick the route (`routeOf`), another
 * method gets 405 with the path's methods in `Allow`; each route then makes its checks in the
 * common order.
 */
function dispatch(request: Request, context: HandlerContext): Promise<Response> | Response {
  const { headers } = context;
  const match = routeOf(request.method, request.url);
  switch (match.kind) {
    case "invalid":
      return errorResponse(400, { error: "invalid-input", message: match.message }, headers);
    case "wrong-method": {
      const allow = match.allow.join(", ");
      return errorResponse(
        405,
        { error: "method-not-allowed", message: `expected ${allow} on this path, got ${request.method}` },
        { ...headers, Allow: allow },
      );
    }
    case "route":
      break;
    default: {
      const unexpected: never = match;
      return unexpected;
    }
  }
  const route = match.route;
  switch (route.name) {
    case "run":
      return serveRun(request, context);
    case "connect":
      return serveConnect(request, context);
    case "stop":
      return serveStop(request, context);
    case "cancel":
      return serveCancelQueued(request, context);
    case "history":
      return serveHistory(request, context);
    case "capabilities":
      return serveCapabilities(request, context);
    case "list":
      return serveThreadList(request, context);
    case "events":
      return serveThreadEvents(request, context);
    case "update":
      return serveThreadUpdate(request, context, route.threadId);
    case "delete":
      return serveThreadDelete(request, context, route.threadId);
    case "select":
      return serveSelectBranch(request, context, route.threadId);
    default: {
      const unexpected: never = route;
      return unexpected;
    }
  }
}

/**
 * The stored-run driver of an `Agent` source: `run()` with the stop, the pace, the title and the
 * steers the run takes from the thread's queue (`incoming`, docs/queue.md#steer: `ctx.incoming$`).
 */
function agentDriver<S>(agent: Agent<S>, maxJsonDepth: number): NonNullable<HandlerContext["driver"]> {
  return (input, { ready, stop, setThreadTitle, incoming, withdrawn }) =>
    run(agent, input, { ready, stop, maxJsonDepth, setThreadTitle, incoming, withdrawn, telemetry: TRACED_BY_HANDLER });
}

/** A finite timeout, or `undefined` for none (`Infinity` turns a timeout off; a timer would fire at once). */
function finiteOrNone(ms: number): number | undefined {
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/** The default `onRunError`: one line on stderr naming the thread and the run. */
function reportRunError(error: unknown, { threadId, runId }: { readonly threadId: string; readonly runId: string }): void {
  console.error(`agui-rx server: recording run ${JSON.stringify(runId)} of thread ${JSON.stringify(threadId)} failed:`, error);
}
