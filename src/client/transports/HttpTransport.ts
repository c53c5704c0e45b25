/** The AG-UI HTTP transport (docs/wire.md#6): POST the RunAgentInput, read the SSE response; with a store-backed server, resume cut streams, join and stop threads (docs/durability.md#stores-and-routes). */
import * as E from "../../protocol/either";
import { defer, identity, lastValueFrom, tap, type MonoTypeOperatorFunction, type Observable, type SchedulerLike } from "rxjs";
import { AgentCapabilitiesCodec, type AgentCapabilities } from "../../protocol/capabilities";
import { serverOwnsHistory } from "../../protocol/historyCapability";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import { ClientError } from "../../thread/ClientError";
import { ConnectionNotice } from "./ConnectionNotice";
import type { QueueNoticeItem } from "./QueueNoticeItem";
import { QueuedMessage } from "../../protocol/queueMeta";
import { fetchEventStream, StreamOpened, type StreamItem, type StreamRequest } from "./fetchEventStream";
import { checkEndpointUrl, subPath, threadInput, threadsPath } from "./endpointRoutes";
import { reconnecting, type ReconnectConfig } from "./reconnecting";
import { failedRequest, provesNothingStarted, refusedAnswer, worthAnotherTry } from "./requestFailure";
import { retryUnanswered, type RetryConfig } from "./retryUnanswered";
import { decodeJson, sendJson } from "./jsonRequest";
import * as t from "io-ts";
import { list } from "../../protocol/codec";
import { Message } from "../../protocol/messages";
import type { HistoryPage, HistoryRequest } from "../../thread/threadList";
import type {
  BranchSelectRequest,
  BranchSelectResult,
  CancelQueuedRequest,
  CancelQueuedResult,
  ConnectRequest,
  StopRequest,
  StopResult,
  ThreadNotice,
  Transport,
  TransportRunOptions,
} from "./Transport";
import { serverRefusal } from "../threads/serverRefusal";
import { threadEventStream, type ThreadEventsRequest } from "../threads/threadEventStream";

/**
 * Which request a headers function is asked for: a run, a join, a stop, a waiting message's
 * cancel, the capabilities, an older page of history, or a request of the thread list (`HttpThreadsTransport`).
 */
export type HttpRoute = "run" | "connect" | "stop" | "cancel" | "capabilities" | "history" | "threads";

/**
 * Request headers, or a function giving them per request (e.g. a fresh token). The function gets
 * the run's input; for the other routes an input naming only the thread (and run; no thread for
 * the thread list's), with empty lists, and `route` says which request it is.
 */
export type HeadersOption =
  Record<string, string> | ((input: RunAgentInput, request: { readonly route: HttpRoute }) => Record<string, string> | Promise<Record<string, string>>);

/**
 * A `POST {url}/history` answer: the shape of `HistoryPage`, checked here rather than with its
 * codec, whose module (every thread-list codec) would join the Session's bundle (docs/packaging.md#the-size-gate).
 */
const HistoryAnswer: t.Decoder<unknown, HistoryPage> & { readonly name: string } = /* @__PURE__ */ t.type(
  { messages: list(Message), hasOlder: t.boolean },
  "HistoryPage",
);

/** A `POST {url}/threads/{threadId}/path` answer. */
const SelectAnswer: t.Decoder<unknown, { readonly result: BranchSelectResult }> & { readonly name: string } = /* @__PURE__ */ t.type(
  { result: t.keyof({ switched: null, unchanged: null }) },
  "BranchSelectAnswer",
);

/**
 * How long the one capabilities question may take (ms): asked only when a request got no answer
 * before any answer showed whether the server resumes streams; no answer in time means no.
 */
const PROBE_TIMEOUT_MS = 2000;

/** Options of `HttpTransport`. */
export interface HttpTransportOptions {
  /** Extra headers; `Content-Type` and `Accept` are always set by the transport. */
  readonly headers?: HeadersOption | undefined;
  /** The fetch to use (default `globalThis.fetch`). */
  readonly fetch?: typeof fetch | undefined;
  /** Largest SSE frame accepted, in characters (`decodeSse`'s `maxFrameBytes`; default 16 MiB). */
  readonly maxFrameBytes?: number | undefined;
  /** Nesting limit of an event's JSON (`decodeSse`'s `maxDepth`; default 512): deeper is a `decode` error naming the path and the limit. */
  readonly maxDepth?: number | undefined;
  /**
   * Resuming a stream cut mid-run through `{url}/connect` (see `ReconnectConfig`): a number of
   * attempts, a config, or `false` for none. Default: 5 attempts, exponential backoff with jitter,
   * honouring the server's `retry:`. Only a server that keeps threads is asked (one that sends
   * `id:`, or says `transport.resumable` in its capabilities); any other fails as without it.
   */
  readonly reconnect?: number | ReconnectConfig | false | undefined;
  /**
   * Sending a request again when it got no answer to go on with (see `RetryConfig`): a number of
   * attempts, a config, or `false` for none. Default: 5 attempts, the reconnect's backoff, never
   * sooner than the server's `Retry-After` (at most 30 s). `/connect`, `/stop` and `/capabilities`
   * are tried again after a 503 or a network failure; a run's POST only when the failure proves
   * the agent never started: a connection never made (`refused`, which only Node's fetch can
   * tell), or a 503 carrying the server's JSON refusal from its store (`capacity`, `unavailable`).
   * While a run or a join is retried, `{ connection: true }` gets `reconnecting` notices.
   */
  readonly retry?: number | RetryConfig | false | undefined;
  /** Where the waits of retries and reconnects are timed (default `asyncScheduler`; tests pass a virtual one). */
  readonly scheduler?: SchedulerLike | undefined;
  /**
   * How long an answered event stream may stay silent, in ms, before it is taken as cut
   * (docs/http.md#heartbeats): the cut is resumed as any other (`reconnect`) when the server
   * resumes streams, else the run fails with a `transport` error, code `stalled`, naming the
   * silence. Any byte counts, heartbeats included. Default: three times the interval the server
   * announces in its `AGUI-Heartbeat` header (45 s for agui-rx's default of 15 s), and no limit
   * when it announces none, so a slow server without heartbeats is never cut. `false`: no limit,
   * whatever the server announces. Timed on `scheduler`.
   */
  readonly stallMs?: number | false | undefined;
}

/**
 * POSTs each run's input as JSON (`Content-Type: application/json`, `Accept: text/event-stream`)
 * and streams the `text/event-stream` response. Unsubscribing aborts the request. Failures error
 * the Observable with a `ClientError` (after the retries `retry` allows, which never POST a run
 * twice unless the failure proves the agent never started; docs/client.md § Retries):
 * - a non-2xx status → `http`, with `status`, the start of the body and `retryAfterMs`;
 * - the request or the body stream failing (connection refused, reset) → `transport` (code
 *   `refused` when no connection was made, `unanswered` when every retry got no answer);
 * - a response that is not `text/event-stream` → `decode`;
 * - bad frames → the `DecodeError` of `decodeSse` (the Session reports it as `json`/`decode`):
 *   an unknown type, a frame over `maxFrameBytes`, JSON deeper than `maxDepth`, a body cut inside a
 *   frame (`truncated`).
 * Material the decoder strips (AG-UI 1.1) is reported as in-band `DecodeWarning`s when `run` is
 * called with `{ warnings: true }` (as the Session does), and stripped silently otherwise.
 *
 * With a server that keeps threads (docs/durability.md#stores-and-routes), the transport remembers the last `id:` and, when
 * the body fails mid-run, reconnects through `POST {url}/connect` with `Last-Event-ID` (see
 * `reconnect`): the consumer sees one continuous run, each event once; with `{ connection: true }`
 * it also gets `ConnectionNotice`s (the Session's `connection` updates). `connect` joins a thread
 * (`POST {url}/connect`), `stop` cancels a run (`POST {url}/stop`), `capabilities` reads `GET
 * {url}/capabilities`. Sub-paths are appended to the URL's path (`/agent` → `/agent/connect`),
 * before its query.
 *
 * @example
 * const transport = new HttpTransport("https://example.com/agent", { headers: () => ({ Authorization: `Bearer ${token()}` }) });
 */
export class HttpTransport implements Transport {
  /**
   * Whether the server resumes streams: learned from its answers (the `AGUI-Resumable` header, an
   * `id:`), or asked once (`GET {url}/capabilities`) when a request got no answer before any did.
   */
  private resumable: Promise<boolean> | undefined;
  /** Whether the server owns the history: asked once (`GET {url}/capabilities`), before the first run that needs it. */
  private ownsHistory: Promise<boolean> | undefined;

  /** Throws a `config` ClientError naming `url` when it is not a URL here: in Node (no `location`) a relative one such as `"/agent"` is refused (`checkEndpointUrl`). */
  constructor(
    protected readonly url: string,
    protected readonly options: HttpTransportOptions = {},
  ) {
    checkEndpointUrl(url);
  }

  run(input: RunAgentInput): Observable<Event>;
  run(
    input: RunAgentInput,
    options: TransportRunOptions & { readonly connection: true; readonly queue: true },
  ): Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem>;
  run(input: RunAgentInput, options: TransportRunOptions & { readonly connection: true }): Observable<Event | DecodeWarning | ConnectionNotice>;
  run(input: RunAgentInput, options: TransportRunOptions): Observable<Event | DecodeWarning>;
  run(input: RunAgentInput, runOptions: TransportRunOptions = {}): Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem> {
    return this.follow(
      () =>
        fetchEventStream(this.request(this.url, input, "run", JSON.stringify(input), runOptions)).pipe(
          this.retrying(provesNothingStarted, `POST ${this.url}`, runOptions),
        ),
      input.threadId,
      input.runId,
      runOptions,
    );
  }

  /**
   * Joins a thread on a server that keeps threads: `POST {url}/connect` (with `Last-Event-ID` when
   * `request.lastEventId` is given), streamed and resumed like a run. A server without threads, or
   * that does not know this one, answers 404: the Observable errors with that `http` error.
   *
   * @example
   * transport.connect({ threadId: "board-1" }).subscribe(apply);
   */
  connect(request: ConnectRequest): Observable<Event>;
  connect(request: ConnectRequest, options: TransportRunOptions & { readonly connection: true }): Observable<Event | DecodeWarning | ConnectionNotice>;
  connect(request: ConnectRequest, options: TransportRunOptions): Observable<Event | DecodeWarning>;
  connect(request: ConnectRequest, runOptions: TransportRunOptions = {}): Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem> {
    const { threadId, limit, onHasOlder } = request;
    const body = JSON.stringify(limit === undefined ? { threadId } : { threadId, limit });
    const url = subPath(this.url, "connect");
    return this.follow(
      () =>
        fetchEventStream(this.request(url, threadInput(threadId), "connect", body, runOptions, request.lastEventId)).pipe(
          onHasOlder === undefined ? identity : tellHasOlder(onHasOlder),
          this.retrying(worthAnotherTry, `POST ${url}`, runOptions),
        ),
      threadId,
      undefined,
      runOptions,
      limit === undefined ? undefined : { limit, onHasOlder },
    );
  }

  /**
   * An older page of a thread's messages (`POST {url}/history` with `{ threadId, before, limit }`,
   * docs/threads.md#in-the-client): at most `limit` messages right before the message `before`,
   * oldest first, and whether still older ones exist. Retried like `/stop` (it changes nothing).
   * Rejects with a `ClientError`: `http` naming the status and the server's code and sentence
   * (404 for an unknown thread or message), `json`/`decode` for a body that is not a page,
   * `transport` when no answer came.
   *
   * @example
   * const page = await transport.history({ threadId: "t1", before: session.messages[0].id, limit: 50 });
   */
  history(request: HistoryRequest): Promise<HistoryPage> {
    const url = subPath(this.url, "history");
    return this.retried(`POST ${url}`, async () => {
      const headers = await this.headers(threadInput(request.threadId), "history");
      const body = JSON.stringify({ threadId: request.threadId, before: request.before, limit: request.limit });
      return decodeJson(HistoryAnswer, await sendJson({ method: "POST", url, headers, body, fetch: this.fetch() }), `POST ${url}`);
    });
  }

  /**
   * Shows another sibling of a thread (`POST {url}/threads/{threadId}/path` with `{ messageId, index }`,
   * docs/threads.md#the-tree; headers asked with route `threads`): `switched`, or `unchanged` when it
   * was already shown. Retried like `/stop` (selecting twice selects once). Rejects with a
   * `ClientError`: `http` naming the status and the server's code and sentence (404 `not-found`:
   * an unknown thread, or a message not on its path; 422 `invalid-input`: no such sibling; 409
   * `run-active`: a run is live; 403 refused), `transport` when no answer came.
   *
   * @example
   * await transport.selectBranch({ threadId: "t1", messageId: "a2", index: 0 }); // "switched"
   */
  selectBranch(request: BranchSelectRequest): Promise<BranchSelectResult> {
    const url = threadsPath(this.url, `${encodeURIComponent(request.threadId)}/path`);
    const body = JSON.stringify({ messageId: request.messageId, index: request.index });
    return this.retried(`POST ${url}`, async () => {
      const headers = await this.headers(threadInput(request.threadId), "threads");
      const text = await sendJson({ method: "POST", url, headers, body, fetch: this.fetch() }, serverRefusal);
      return decodeJson(SelectAnswer, text, `POST ${url}`).result;
    });
  }

  /**
   * One thread's changes, live (`GET {url}/threads/events?threadId=`, headers asked with route
   * `threads`), read as `ThreadNotice`s by their `type` (`threadEventStream`: `opened` on every
   * (re)connection, reconnected with backoff up to the `reconnect` count). Errors with the
   * refusal on a 401 or a 404 (a server without `identify` has no such route).
   *
   * @example
   * transport.followThread("t1").subscribe((notice) => notice.type === "path-selected" && reread());
   */
  followThread(threadId: string): Observable<ThreadNotice> {
    const url = `${threadsPath(this.url, "events")}?threadId=${encodeURIComponent(threadId)}`;
    return threadEventStream(this.eventsRequest(url, () => this.headers(threadInput(threadId), "threads"), noticeOf));
  }

  /** How `threadEventStream` opens `url` with this transport's fetch, frame limit, reconnect count and delay, scheduler and stall limit. */
  protected eventsRequest<T>(url: string, headers: () => Promise<Record<string, string>>, decode: (data: string, what: string) => T): ThreadEventsRequest<T> {
    const option = this.options.reconnect;
    return {
      url,
      headers,
      fetch: this.fetch(),
      maxFrameBytes: this.options.maxFrameBytes,
      count: option === false ? 0 : typeof option === "number" ? option : option?.count,
      delay: typeof option === "object" ? option.delay : undefined,
      scheduler: this.options.scheduler,
      stallMs: this.options.stallMs,
      decode,
    };
  }

  /**
   * Asks the server to cancel a run (`POST {url}/stop`): `stopping` (202: the run's own stream then
   * ends with RUN_FINISHED cancelled), `ended` (409: it was already over), `unavailable` (404 or
   * 405: the server keeps no threads, or does not know this run; unsubscribe to abort it).
   * Rejects with a `ClientError` (`http` for any other status, `transport` when the request fails).
   *
   * @example
   * await transport.stop({ threadId: "board-1", runId: "run-7" }); // "stopping"
   */
  stop(request: StopRequest): Promise<StopResult> {
    const url = subPath(this.url, "stop");
    return this.retried(`POST ${url}`, async () => {
      const { response, text } = await this.postJson(url, "stop", threadInput(request.threadId, request.runId), {
        threadId: request.threadId,
        runId: request.runId,
      });
      if (response.status === 202 || response.status === 200) return "stopping";
      if (response.status === 409) return "ended";
      if (response.status === 404 || response.status === 405) return "unavailable";
      throw refusedAnswer("POST", url, response, text);
    });
  }

  /**
   * Cancels a message waiting on a thread (`POST {url}/cancel` with `{ threadId, id }`,
   * docs/queue.md#cancel; headers asked with route `cancel`): `cancelled` (200), `unknown` (404: no
   * such waiting message, thread or owner), `started` or `taken` (409 `queued-started`: too late;
   * `taken` when the server's sentence says the steer was taken). Retried like `/stop` (a second
   * cancel of a cancelled message answers `cancelled` again). Rejects with a `ClientError` naming any other
   * refusal (401, 403, 400) or the failed request.
   *
   * @example
   * await transport.cancelQueued({ threadId: "board-1", id: "run-9" }); // "cancelled"
   */
  cancelQueued(request: CancelQueuedRequest): Promise<CancelQueuedResult> {
    const url = subPath(this.url, "cancel");
    return this.retried(`POST ${url}`, async () => {
      const { response, text } = await this.postJson(url, "cancel", threadInput(request.threadId, request.id), { threadId: request.threadId, id: request.id });
      if (response.ok) return "cancelled";
      if (response.status === 404) return "unknown";
      const refusal = serverRefusal("POST", url, response, text);
      if (response.status === 409 && refusal.code === "queued-started") return /\btaken\b/i.test(text) ? "taken" : "started";
      throw refusal;
    });
  }

  /**
   * What the agent says it can do (`GET {url}/capabilities`), decoded as `AgentCapabilities`;
   * `signal` aborts the request.
   * Rejects with a `ClientError` (`http` for a non-2xx, `json`/`decode` for a body that is not
   * capabilities, `transport` when the request fails).
   *
   * @example
   * const { transport } = await new HttpTransport(url).capabilities(); // { streaming: true, resumable: true }
   */
  capabilities(signal?: AbortSignal): Promise<AgentCapabilities> {
    return this.retried(`GET ${subPath(this.url, "capabilities")}`, () => this.askCapabilities(signal));
  }

  /**
   * Whether the server owns the threads' history (`custom["agui-rx"].history` is `"server"` in its
   * capabilities, docs/threads.md#the-anchor-rule): asked once, within the probe's time, and cached;
   * `false` when it cannot be read.
   *
   * @example
   * if (await transport.serverOwnsHistory()) console.log("post only what is new");
   */
  serverOwnsHistory(): Promise<boolean> {
    return (this.ownsHistory ??= this.askCapabilities(AbortSignal.timeout(PROBE_TIMEOUT_MS)).then(
      (capabilities) => serverOwnsHistory(capabilities),
      () => false, // no capabilities route, no answer in time: the session posts everything
    ));
  }

  /** One `GET {url}/capabilities`, not retried (the resumable probe's: it must answer quickly or count as no). */
  private async askCapabilities(signal?: AbortSignal): Promise<AgentCapabilities> {
    const url = subPath(this.url, "capabilities");
    const extra = await this.headers(threadInput(""), "capabilities");
    let response: Response;
    try {
      response = await this.fetch()(url, { method: "GET", headers: { ...extra, Accept: "application/json" }, signal });
    } catch (cause) {
      throw failedRequest("GET", url, cause);
    }
    const text = await response.text().catch(() => "");
    if (!response.ok) throw refusedAnswer("GET", url, response, text);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (cause) {
      throw new ClientError("json", `GET ${url} answered what is not JSON: ${text.slice(0, 80)}`, { cause });
    }
    const decoded = AgentCapabilitiesCodec.decode(json);
    if (E.isLeft(decoded)) throw new ClientError("decode", `GET ${url} answered what is not AgentCapabilities`, { cause: decoded.left });
    return decoded.right;
  }

  /** One followed stream: the first connection, then reconnects through `/connect` after the last `id:`. */
  private follow(
    first: () => Observable<StreamItem | ConnectionNotice>,
    threadId: string,
    runId: string | undefined,
    runOptions: TransportRunOptions,
    window?: { readonly limit: number; readonly onHasOlder: ((hasOlder: boolean) => void) | undefined },
  ): Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem> {
    const option = this.options.reconnect;
    const config: ReconnectConfig = option === false ? { count: 0 } : typeof option === "number" ? { count: option } : (option ?? {});
    return reconnecting({
      first,
      again: (position) => {
        if (position.queued !== undefined) {
          // a queued message cut before its run passed anything: its own stream again, from its current status (docs/queue.md#on-the-wire)
          const queuedBody = JSON.stringify({ threadId, queued: position.queued });
          return fetchEventStream(this.request(subPath(this.url, "connect"), threadInput(threadId, position.queued), "connect", queuedBody, runOptions));
        }
        // A join with a limit keeps it on its reconnects: a snapshot answer then carries the same window, not the whole thread.
        const body = JSON.stringify({ threadId, ...(position.runId === undefined ? {} : { runId: position.runId }), ...(window && { limit: window.limit }) });
        const answer = fetchEventStream(
          this.request(subPath(this.url, "connect"), threadInput(threadId, position.runId), "connect", body, runOptions, position.lastEventId),
        );
        return window?.onHasOlder === undefined ? answer : answer.pipe(tellHasOlder(window.onHasOlder));
      },
      resumable: () =>
        (this.resumable ??= this.askCapabilities(AbortSignal.timeout(PROBE_TIMEOUT_MS)).then(
          (capabilities) => capabilities.transport?.resumable === true,
          () => false, // no capabilities route, a body that is not capabilities, no answer in time: not resumable
        )),
      learned: () => {
        this.resumable = Promise.resolve(true);
      },
      runId,
      config,
      notices: runOptions.connection === true,
      queue: runOptions.queue === true,
      scheduler: this.options.scheduler,
    });
  }

  /** A first request of a stream, sent again while `retryable` accepts its failure before the answer, with `reconnecting` notices when asked for. */
  private retrying(retryable: (error: unknown) => boolean, what: string, runOptions: TransportRunOptions) {
    const notices = runOptions.connection === true;
    return retryUnanswered<StreamItem | ConnectionNotice>({
      retryable,
      what,
      config: this.retryConfig(),
      scheduler: this.options.scheduler,
      answered: (item) => item instanceof StreamOpened,
      notice: (status, attempt) => (notices ? new ConnectionNotice(status, attempt) : undefined),
    });
  }

  /** A request that changes nothing when repeated (`/stop`, `/capabilities`), sent again after a 503 or a network failure. */
  protected retried<T>(what: string, once: () => Promise<T>): Promise<T> {
    return lastValueFrom(
      defer(once).pipe(retryUnanswered<T>({ retryable: worthAnotherTry, what, config: this.retryConfig(), scheduler: this.options.scheduler })),
    );
  }

  private retryConfig(): RetryConfig {
    const option = this.options.retry;
    return option === false ? { count: 0 } : typeof option === "number" ? { count: option } : (option ?? {});
  }

  private request(
    url: string,
    input: RunAgentInput,
    route: "run" | "connect",
    body: string,
    runOptions: TransportRunOptions,
    lastEventId?: string,
  ): StreamRequest {
    return {
      url,
      headers: async () => {
        // the run's trace context (docs/observability.md#client) under the application's own headers, which win
        const extra = { ...runOptions.trace?.headers(url), ...(await this.headers(input, route)) };
        return lastEventId === undefined ? extra : { ...extra, "Last-Event-ID": lastEventId };
      },
      body,
      fetch: this.fetch(),
      maxFrameBytes: this.options.maxFrameBytes,
      maxDepth: this.options.maxDepth,
      warnings: runOptions.warnings === true,
      stallMs: this.options.stallMs,
      scheduler: this.options.scheduler,
      wire: runOptions.wire,
    };
  }

  /** A small JSON `POST` below the endpoint (`/stop`, `/cancel`) with the route's headers: its answer and the answer's text; a failed request rejects naming it. */
  private async postJson(url: string, route: HttpRoute, input: RunAgentInput, body: unknown): Promise<{ readonly response: Response; readonly text: string }> {
    const extra = await this.headers(input, route);
    let response: Response;
    try {
      response = await this.fetch()(url, {
        method: "POST",
        headers: { ...extra, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body),
      });
    } catch (cause) {
      throw failedRequest("POST", url, cause);
    }
    return { response, text: await response.text().catch(() => "") };
  }

  protected async headers(input: RunAgentInput, route: HttpRoute): Promise<Record<string, string>> {
    const option = this.options.headers;
    return typeof option === "function" ? await option(input, { route }) : (option ?? {});
  }

  protected fetch(): typeof fetch {
    return this.options.fetch ?? globalThis.fetch;
  }
}

/**
 * A followed thread's frame read by its `type` only (its row is the thread list's business), with
 * the entry of a queue change (docs/queue.md#on-the-wire) when it carries a well-formed one.
 */
function noticeOf(data: string, what: string): ThreadNotice {
  const notice = decodeJson(Notice, data, what);
  if (!notice.type.startsWith("queue-")) return { type: notice.type };
  const queued: unknown = Reflect.get(notice, "queued");
  return QueuedMessage.is(queued) ? { type: notice.type, queued } : { type: notice.type };
}

const Notice: t.Decoder<unknown, { readonly type: string }> & { readonly name: string } = /* @__PURE__ */ t.type({ type: t.string }, "ThreadNotice");

/** Tells `onHasOlder` the `AGUI-History-Older` header of each answer that carries one (docs/threads.md#in-the-client). */
function tellHasOlder(onHasOlder: (hasOlder: boolean) => void): MonoTypeOperatorFunction<StreamItem> {
  return tap((item) => {
    if (item instanceof StreamOpened && item.hasOlder !== undefined) onHasOlder(item.hasOlder);
  });
}
