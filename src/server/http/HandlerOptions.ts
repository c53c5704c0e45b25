/** What `createHandler` is configured with: the run source, the limits, and the durable-thread options (docs/server.md#run-and-context, docs/durability.md#stores-and-routes). */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { AgentCapabilities } from "../../protocol/capabilities";
import type { DebugOption } from "../../operators/logEvents";
import type { Agent } from "../Agent";
import type { StoreClock } from "../store/StoreClock";
import type { ThreadStore } from "../store/ThreadStore";
import type { CorsOptions } from "./cors";
import type { Authorize, Identify } from "./ThreadAccess";
import type { HistoryMode } from "../history/HistoryMode";
import type { FairTurns } from "./fairTurns";
import type { TailFrames } from "./TailFrames";
import type { Ready } from "./toEventStream";
import type { TelemetryOptions } from "../../telemetry/TelemetryOptions";

export type { CorsOptions } from "./cors";
export type { Authorize, Identify, OneThreadAccess, ThreadAccess, ThreadListAccess } from "./ThreadAccess";

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
   * Aborted when the run should stop. Without a store: the response will not be delivered (the
   * client went away, an `AbortError`, or read too slowly for the send-buffer cap, a
   * `SlowConsumerError`). With a store a client going away only detaches, so it aborts only on a
   * `POST {url}/stop` (the handler then ends the run `RUN_FINISHED` cancelled itself). A run
   * function should stop then; the `Agent` driver passes it on as `ctx.signal`'s reason.
   */
  readonly signal: AbortSignal;
  /**
   * Sets the thread's title for its owner's list (docs/threads.md#the-thread-list), as
   * `ctx.setThreadTitle` does for an `Agent`. Resolves once stored; rejects with the store's
   * `StoreError` (`run-ended` once the run is over). Without a store it does nothing.
   */
  readonly setThreadTitle: (title: string) => Promise<void>;
}

/**
 * A run as a function: the events of one run for one input. Unsubscribing must stop the run.
 *
 * @example
 * const echo: RunFunction = (input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId));
 */
export type RunFunction = (input: RunAgentInput, request: RunRequest) => Observable<Event>;

/**
 * What a handler serves: an `Agent` (run with the driver `run(agent, input)`), or a run function
 * (any `Observable<Event>` per input: your own pipeline, another framework's agent piped through
 * `verifyEvents()`, …).
 *
 * @example
 * const source: RunSource = taskBoardAgent;
 */
export type RunSource<S = unknown> = Agent<S> | RunFunction;

/**
 * The fetch-style handler: works with `Deno.serve`, Bun, Cloudflare Workers, Next.js route handlers, and `agui-rx/node`.
 *
 * @example
 * const handler: FetchHandler = createHandler(agent);
 */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What `route` decides: refuse (a Response), serve with another run function, or `undefined` for the default. */
export type Routed = RunFunction | Response | undefined;

/**
 * Options of `createHandler`.
 *
 * @example
 * createHandler(agent, { store: memoryStore(), authorize: (request, { threadId }) => mayUse(request, threadId) });
 */
export interface HandlerOptions {
  /** Largest accepted request body in bytes, enforced while reading (default 10 MiB). Larger → 413. */
  readonly maxBodyBytes?: number | undefined;
  /**
   * How long the body may take to arrive, in ms, from the handler's call to its last byte
   * (default 30 s). Later → 408, and the upload is cancelled: a body that never finishes must not
   * hold a connection (and its buffers) forever.
   */
  readonly bodyTimeoutMs?: number | undefined;
  /**
   * Deepest nesting of arrays and objects accepted in the body (default 512,
   * `DEFAULT_MAX_JSON_DEPTH`). Deeper → 400 `json-too-deep` naming the path and the limit, before
   * anything recursive (decoding, error messages, the agent's state) sees it. Also the limit of
   * the `Agent` driver's state decoding and egress check.
   */
  readonly maxJsonDepth?: number | undefined;
  /** Encoded events queued per response before `ready()` waits (default 16). */
  readonly highWaterMark?: number | undefined;
  /**
   * The send-buffer cap per response in bytes (default 16 MiB): a run whose client reads too slowly
   * to keep its queue under it is stopped (`ctx.signal` aborts with a `SlowConsumerError`) and the
   * response ends with a final RUN_ERROR `SLOW_CONSUMER`. With a store the run is not stopped: the
   * response ends without a terminal event after what was queued, and the client reconnects with
   * its last `id:` to read the rest from the store at its own pace. See `toEventStream`.
   */
  readonly maxBufferedBytes?: number | undefined;
  /** How the responses of this process share the event loop (default `sharedTurns`). See `fairTurns`. */
  readonly turns?: FairTurns | undefined;
  /**
   * With a store: the budget of bytes queued to the process's tails (default 256 MiB,
   * `DEFAULT_MAX_TAIL_BYTES`), every frame counted once however many tails queue it (frames are
   * shared: see `tailFrames`). Past it a new `POST {url}/connect` is answered 503 `capacity` with
   * `Retry-After`; a run's own response is never refused by it.
   */
  readonly maxTailBytes?: number | undefined;
  /** The pool the budget counts (default `sharedTailFrames`, one per process). Inject one to observe or isolate it. */
  readonly tailFrames?: TailFrames | undefined;
  /**
   * With a store: a response (a `/connect` tail or a run's own) whose client took nothing for this
   * long, in ms, while events waited for it is closed (default 30 000; `Infinity` turns it off).
   * The run goes on; the client reconnects with its `Last-Event-ID` and reads the rest from the
   * store. Without it, a socket that never reads holds its queue until the connection dies.
   */
  readonly idleWriteTimeoutMs?: number | undefined;
  /**
   * How often a quiet event stream gets a heartbeat, in ms (docs/http.md#heartbeats; default
   * 15 000, `DEFAULT_HEARTBEAT_MS`; `false` or `0` sends none): every SSE answer (a run's stream, a
   * `/connect` tail, a queued message's stream, the thread list's and one thread's events) writes
   * an SSE comment line when nothing was written for this long, and announces the interval in its
   * `AGUI-Heartbeat` header (seconds), so that a client can take a silence of three intervals as a
   * cut rather than wait forever. A comment is no event: it has no `id:` and every reader skips it.
   */
  readonly heartbeatMs?: number | false | undefined;
  /** The clock of the handler's timers (default `systemClock`): the idle-write timeout, the heartbeats, the queue's rechecks. Tests pass a manual one. */
  readonly clock?: StoreClock | undefined;
  /** Extra headers on every answer, errors included (for example CORS headers). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * Runs after the body decoded (and after `authorize`) and before the run starts: return a
   * `Response` to refuse the request (authentication, quota, unknown agent: that response is sent
   * as it is), a run function to serve this request with (one endpoint, several agents: `(input)
   * => run(other, input)`), or nothing to use the default. A throw answers 500.
   */
  readonly route?: ((request: Request, input: RunAgentInput) => Routed | Promise<Routed>) | undefined;
  /** Logs every event each run sends (`logEvents`, label `agui-rx server`). */
  readonly debug?: DebugOption | undefined;
  /**
   * Where runs and threads are kept (docs/durability.md#stores-and-routes): `memoryStore()`, or
   * `redisStore()` from `agui-rx/redis`. With one, every SSE frame of a run carries `id:
   * <cursor>`, a client that goes away only detaches (the run goes on, logged), and the endpoint
   * serves `POST {url}/connect`, `POST {url}/stop` and reports `transport.resumable`. Without
   * one, a disconnect aborts the run, as it always did, and `/connect` and `/stop` answer 404.
   */
  readonly store?: ThreadStore | undefined;
  /**
   * Who sends each request (docs/threads.md#owners): its principal, or `undefined` (401
   * `unauthenticated`). With it every thread belongs to the principal that created it, another
   * principal's thread answers exactly as an unknown one, and the thread list routes (`GET
   * {url}/threads`, `GET {url}/threads/events`) exist. Asked on every route after the body is
   * read and before `authorize`; on GET routes before anything else of the request is read.
   * Without it threads belong to nobody, the list routes answer 404, and the thread ids are the
   * only protection.
   */
  readonly identify?: Identify | undefined;
  /**
   * Who owns a stored thread's history (docs/threads.md#the-anchor-rule). `"server"` (the default):
   * the store is the source of truth; a post may omit what the store has, may add only user
   * messages and results of calls pending for the client (and seeds on a new thread), and is
   * refused (409 `history-conflict`, 422 `history-forged`) otherwise. `"client"`: the post is the
   * history, as without a store: **the handler then trusts the client** to send the whole
   * conversation, and what it says the agent said. Without a store it has no effect.
   */
  readonly history?: HistoryMode | undefined;
  /**
   * Who may do what to which thread; called on every route that names a thread or the list (see
   * `ThreadAccess`), after `identify` and before anything else looks at the thread. Without it
   * every identified caller may do everything to its own threads, and without `identify` either,
   * to every thread: **the thread ids are then the only protection** (use unguessable ones, as
   * `crypto.randomUUID()` makes).
   */
  readonly authorize?: Authorize | undefined;
  /**
   * Answers cross-origin pages (docs/threads.md#routes): CORS headers on every answer, and the
   * preflight `OPTIONS` of every route (PATCH and DELETE included) answered 204. Without it an
   * `OPTIONS` gets 405, as any other method a route does not take.
   */
  readonly cors?: CorsOptions | undefined;
  /**
   * The largest page a client may ask for (default 1000, `DEFAULT_MAX_PAGE_SIZE`): the `limit` of
   * `GET {url}/threads`, of `POST {url}/history` and of `POST {url}/connect`. Larger → 400.
   */
  readonly maxPageSize?: number | undefined;
  /**
   * What `GET {url}/capabilities` says besides the transport (identity, tools, state, …), as
   * `@ag-ui/core` 1.0.0's `AgentCapabilities`; `transport.streaming` and `transport.resumable`
   * are the handler's own (what it does), whatever this says about them.
   */
  readonly capabilities?: AgentCapabilities | undefined;
  /**
   * Hears of a stored run whose recording failed after the response started (the store refused an
   * append or became unavailable): the run's clients see the failure in-band, this is for the
   * operator. Default: `console.error` with the thread, the run and the error.
   */
  readonly onRunError?: ((error: unknown, run: { readonly threadId: string; readonly runId: string }) => void) | undefined;
  /**
   * The most messages one thread's queue holds (docs/queue.md#policies, default 16): a send with a
   * policy past it is answered 429 `queue-full`.
   */
  readonly maxQueuedMessages?: number | undefined;
  /**
   * How often a waiting message's stream reads its entry and tries to start the thread's queue
   * again, in ms on `clock` (docs/queue.md#who-starts-a-waiting-message, default 10 000), so that a
   * run ended `ABANDONED` by a dead instance, or an announcement a store lost, is noticed.
   */
  readonly queueRecheckMs?: number | undefined;
  /**
   * Where the handler's spans and metrics go (docs/observability.md#setup): by default the globally
   * registered OpenTelemetry providers, read per request (nothing is recorded, and next to nothing
   * paid, when no SDK is registered); `{ tracer, meter }` to pass your own; `recordContent` to put
   * message text, tool arguments and state on spans.
   */
  readonly telemetry?: TelemetryOptions | undefined;
}
