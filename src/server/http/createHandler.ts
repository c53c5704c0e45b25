/** Serves one agent (or several) over HTTP as a fetch-style handler: `Request` in, SSE `Response` out. */
import type { Observable } from "rxjs";
import { isLeft } from "fp-ts/Either";
import type { Event } from "../../protocol/events";
import { excerpt } from "../../protocol/describeFailure";
import { RunAgentInput } from "../../protocol/input";
import { DEFAULT_MAX_JSON_DEPTH, findTooDeep, type TooDeep } from "../../protocol/jsonDepth";
import type { Agent } from "../Agent";
import { debugEvents, type DebugOption } from "../../operators/logEvents";
import { run } from "../run";
import { acceptsEventStream } from "./acceptsEventStream";
import { describeInvalidInput } from "./describeInvalidInput";
import { errorResponse } from "./errorResponse";
import { isJsonMediaType } from "./isJsonMediaType";
import { readBody, type BodyRead } from "./readBody";
import type { FairTurns } from "./fairTurns";
import { DEFAULT_HIGH_WATER_MARK, DEFAULT_MAX_BUFFERED_BYTES, toEventStream, type Ready } from "./toEventStream";

/** What a run function is told besides the input. */
export interface RunRequest {
  /** The HTTP request (headers, URL) that asked for this run. */
  readonly request: Request;
  /**
   * Resolves when the response can take more events. A producer that emits in a loop and awaits
   * this between events is paced by the client's reading speed, and takes turns with the other
   * streams of the process (see `toEventStream`).
   */
  readonly ready: Ready;
  /**
   * Aborted when the response will not be delivered: the client went away (an `AbortError`) or read
   * too slowly for the send-buffer cap (a `SlowConsumerError`). A run function should stop then;
   * the `Agent` driver passes it on as `ctx.signal`'s reason.
   */
  readonly signal: AbortSignal;
}

/** A run as a function: the events of one run for one input. Unsubscribing must stop the run. */
export type RunFunction = (input: RunAgentInput, request: RunRequest) => Observable<Event>;

/**
 * What a handler serves: an `Agent` (run with the driver `run(agent, input)`), or a run function
 * (any `Observable<Event>` per input: your own pipeline, another framework's agent piped through
 * `verifyEvents()`, …).
 */
export type RunSource<S = unknown> = Agent<S> | RunFunction;

/** The fetch-style handler: works with `Deno.serve`, Bun, Cloudflare Workers, Next.js route handlers, and `agui-rx/node`. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** Largest accepted request body in bytes, enforced while reading (default 10 MiB). Larger → 413. */
  readonly maxBodyBytes?: number;
  /**
   * How long the body may take to arrive, in ms, from the handler's call to its last byte
   * (default 30 s). Later → 408, and the upload is cancelled: a body that never finishes must not
   * hold a connection (and its buffers) forever.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Deepest nesting of arrays and objects accepted in the body (default 512,
   * `DEFAULT_MAX_JSON_DEPTH`). Deeper → 400 `json-too-deep` naming the path and the limit, before
   * anything recursive (decoding, error messages, the agent's state) sees it. Also the limit of
   * the `Agent` driver's state decoding and egress check.
   */
  readonly maxJsonDepth?: number;
  /** Encoded events queued per response before `ready()` waits (default 16). */
  readonly highWaterMark?: number;
  /**
   * The send-buffer cap per response in bytes (default 16 MiB): a run whose client reads too slowly
   * to keep its queue under it is stopped (`ctx.signal` aborts with a `SlowConsumerError`) and the
   * response ends with a final RUN_ERROR `SLOW_CONSUMER`. See `toEventStream`.
   */
  readonly maxBufferedBytes?: number;
  /** How the responses of this process share the event loop (default `sharedTurns`). See `fairTurns`. */
  readonly turns?: FairTurns;
  /** Extra headers on every answer, errors included (for example CORS headers). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Runs after the body decoded and before the run starts: return a `Response` to refuse the
   * request (authentication, quota, unknown agent: that response is sent as it is), a run
   * function to serve this request with (one endpoint, several agents: `(input) => run(other,
   * input)`), or nothing to use the default. A throw answers 500.
   */
  readonly route?: (request: Request, input: RunAgentInput) => Routed | Promise<Routed>;
  /** Logs every event each run sends (`logEvents`, label `agui-rx server`). */
  readonly debug?: DebugOption;
}

/** What `route` decides: refuse (a Response), serve with another run function, or `undefined` for the default. */
export type Routed = RunFunction | Response | undefined;

/** The default request body limit: 10 MiB, the size the official client's SSE parser accepts per event. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/**
 * The default body read timeout: 30 s, time for the default 10 MiB limit at about 3 Mbit/s, far
 * more than a `RunAgentInput` of a real conversation needs.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;

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
 * deeper than `maxJsonDepth` or an invalid input (naming the member's JSON Pointer).
 *
 * The client going away (the request's signal aborts, or the body stream is cancelled)
 * unsubscribes, which stops the run; so does a client too slow for `maxBufferedBytes`.
 *
 * @example
 * const handler = createHandler(taskBoard);   // an Agent, or (input, { ready }) => Observable<Event>
 * Deno.serve(handler);                         // or: serve(handler) from "agui-rx/node"
 */
export function createHandler<S>(source: RunSource<S>, options: HandlerOptions = {}): FetchHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const streamOptions = {
    highWaterMark: options.highWaterMark ?? DEFAULT_HIGH_WATER_MARK,
    maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
    turns: options.turns,
  };
  const runDefault: RunFunction =
    typeof source === "function" ? source : (input, { ready, signal }) => run(source, input, { ready, signal, maxJsonDepth });
  const extra = options.headers ?? {};

  return async (request) => {
    if (request.method !== "POST") {
      return errorResponse(
        405,
        { error: "method-not-allowed", message: `expected POST with a RunAgentInput body, got ${request.method}` },
        { ...extra, Allow: "POST" },
      );
    }
    const accept = request.headers.get("accept");
    if (!acceptsEventStream(accept)) {
      return errorResponse(
        406,
        { error: "not-acceptable", message: `this endpoint answers only text/event-stream, but Accept allows only ${accept}` },
        extra,
      );
    }
    const contentType = request.headers.get("content-type");
    if (!isJsonMediaType(contentType)) {
      return errorResponse(
        415,
        { error: "unsupported-media-type", message: `expected Content-Type application/json, got ${contentType ?? "none"}` },
        extra,
      );
    }
    const declared = Number(request.headers.get("content-length") ?? "0");
    if (declared > maxBodyBytes) return tooLarge(maxBodyBytes, `${declared} bytes declared`, extra);

    const read = await readWithin(request, maxBodyBytes, bodyTimeoutMs);
    if (read.kind === "too-large") return tooLarge(maxBodyBytes, "more arrived", extra);
    if (read.kind === "timeout") {
      return errorResponse(
        408,
        { error: "body-timeout", message: `expected the whole body within ${bodyTimeoutMs} ms (bodyTimeoutMs), but it was still arriving` },
        { ...extra, Connection: "close" }, // the rest of the upload is not read: the connection cannot carry another request
      );
    }

    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(read.bytes));
    } catch (error) {
      const why = read.bytes.byteLength === 0 ? "the body is empty" : error instanceof Error ? error.message : excerpt(error);
      return errorResponse(400, { error: "invalid-json", message: `expected a JSON RunAgentInput body: ${why}` }, extra);
    }
    const tooDeep = depthProblem(json, maxJsonDepth);
    if (tooDeep === "unwalkable") {
      const message = `expected JSON nested at most ${maxJsonDepth} levels deep (maxJsonDepth), but the body nests deeper than this runtime can check; lower maxJsonDepth`;
      return errorResponse(400, { error: "json-too-deep", message }, extra);
    }
    if (tooDeep !== undefined) {
      const shown = tooDeep.path === "" ? "the body itself" : tooDeep.path.length > 120 ? `the value at ${tooDeep.path.slice(0, 120)}…` : `the value at ${tooDeep.path}`;
      const message = `expected JSON nested at most ${maxJsonDepth} levels deep (maxJsonDepth), but ${shown} is nested deeper`;
      return errorResponse(400, { error: "json-too-deep", message, path: tooDeep.path }, extra);
    }
    const decoded = RunAgentInput.decode(json);
    if (isLeft(decoded)) {
      const { path, message } = describeInvalidInput(decoded.left);
      return errorResponse(400, { error: "invalid-input", message, path }, extra);
    }
    const input = decoded.right;

    let chosen: Routed;
    try {
      chosen = options.route ? await options.route(request, input) : undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : excerpt(error);
      return errorResponse(500, { error: "internal", message: `route failed before the run started: ${message}` }, extra);
    }
    if (chosen instanceof Response) return chosen;
    const runSource = chosen ?? runDefault;

    const body = toEventStream(
      (ready, signal) => runSource(input, { request, ready, signal }).pipe(debugEvents(options.debug, "server")),
      { ...streamOptions, signal: request.signal },
    );
    return new Response(body, {
      status: 200,
      headers: {
        ...extra,
        "Content-Type": "text/event-stream",
        "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no",
      },
    });
  };
}

/**
 * `findTooDeep`, or `"unwalkable"` when the walk itself overflows the call stack: that happens only
 * with a `maxJsonDepth` set beyond what the runtime's stack allows, on a body deeper than that.
 */
function depthProblem(json: unknown, limit: number): TooDeep | "unwalkable" | undefined {
  try {
    return findTooDeep(json, limit);
  } catch {
    return "unwalkable";
  }
}

/** `readBody` with a deadline `timeoutMs` from now; the timer is cleared as soon as the body is read. */
async function readWithin(request: Request, limit: number, timeoutMs: number): Promise<BodyRead> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    return await readBody(request, limit, deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}

function tooLarge(limit: number, what: string, headers: Readonly<Record<string, string>>): Response {
  return errorResponse(
    413,
    { error: "body-too-large", message: `expected a body of at most ${limit} bytes, but ${what}` },
    headers,
  );
}
