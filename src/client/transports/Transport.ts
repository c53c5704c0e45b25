/** Where a client run's events come from. */
import type { Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { HistoryPage, HistoryRequest } from "../../thread/threadList";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import type { ConnectionNotice } from "./ConnectionNotice";
import type { QueuedMessage } from "../../protocol/queueMeta";
import type { QueueNoticeItem } from "./QueueNoticeItem";
import type { WireTap } from "./WireTap";

/**
 * How the Session asks a transport to run: with `warnings`, a transport that decodes interleaves
 * its `DecodeWarning`s (material it stripped, AG-UI 1.1) right before the event they concern; with
 * `connection`, a transport that reconnects interleaves its `ConnectionNotice`s (docs/durability.md#stores-and-routes);
 * with `queue`, a run sent with a policy (docs/queue.md#policies) that the server queued yields its
 * `QueueNoticeItem`s, then, once started, the run's items (without it the notices are dropped).
 *
 * @example
 * transport.run(input, { warnings: true, connection: true, queue: true })
 */
export interface TransportRunOptions {
  readonly warnings?: boolean | undefined;
  /** Shown the raw bytes of every response body before they are decoded, by a transport that reads bytes (docs/observability.md#inspector). */
  readonly wire?: WireTap | undefined;
  readonly connection?: boolean | undefined;
  readonly queue?: boolean | undefined;
  /** The run's trace context (docs/observability.md#client): an HTTP transport adds `trace.headers(url)` to each request of the run, its reconnects included. */
  readonly trace?: TransportTrace | undefined;
}

/**
 * A run's trace context as a transport carries it (docs/observability.md#client): the headers a
 * request to `url` carries (`traceparent`, and `tracestate` when the propagator writes one), or
 * `undefined` when none may go there (another origin that was not configured). Never throws.
 *
 * @example
 * const headers = { ...options.trace?.headers(url), ...applicationHeaders };
 */
export interface TransportTrace {
  headers(url: string): Readonly<Record<string, string>> | undefined;
}

/**
 * Which waiting message to cancel (docs/queue.md#cancel): the thread and the message's id (the run
 * id it was posted with).
 *
 * @example
 * const request: CancelQueuedRequest = { threadId: "board-1", id: "run-9" };
 */
export interface CancelQueuedRequest {
  readonly threadId: string;
  readonly id: string;
}

/**
 * What cancelling a waiting message found (docs/queue.md#cancel): `cancelled` (it will not run; its
 * sender's stream ends `cancelled`), `started` (too late: its run started), `taken` (too late: the
 * live run's agent took the steer), `unknown` (no such waiting message on a thread of the caller).
 *
 * @example
 * if ((await session.cancelQueued(id)) === "started") console.log("already running");
 */
export type CancelQueuedResult = "cancelled" | "started" | "taken" | "unknown";

/**
 * What joining a thread needs: its id, and for a client that was following a run, the last `id:`
 * it received (sent as `Last-Event-ID`).
 *
 * @example
 * const request: ConnectRequest = { threadId: "board-1" };
 */
export interface ConnectRequest {
  readonly threadId: string;
  readonly lastEventId?: string | undefined;
  /**
   * Join with only the last `limit` messages of the thread's path in its MESSAGES_SNAPSHOT
   * (docs/threads.md#in-the-client); older ones are fetched with `history`. Without it, the whole thread.
   */
  readonly limit?: number | undefined;
  /** Told, as each answer of a join with `limit` arrives, whether the thread holds messages older than those its snapshot carries. */
  readonly onHasOlder?: ((hasOlder: boolean) => void) | undefined;
}

/**
 * Which run to stop.
 *
 * @example
 * const request: StopRequest = { threadId: "board-1", runId: "run-7" };
 */
export interface StopRequest {
  readonly threadId: string;
  readonly runId: string;
}

/**
 * What a stop request found: `stopping` (the server cancels the run; its stream ends with
 * RUN_FINISHED cancelled), `ended` (the run was already over), `unavailable` (the server cannot
 * stop it: it keeps no threads, or does not know the run; unsubscribing aborts it instead), `idle`
 * (`Session.stop()` only: no run of the session is active, or its id is not known yet).
 *
 * @example
 * if ((await session.stop()) === "unavailable") subscription.unsubscribe();
 */
export type StopResult = "stopping" | "ended" | "unavailable" | "idle";

/**
 * Which sibling to show (docs/threads.md#the-tree): the group of the path message `messageId`
 * (`groupAfter`: an edited question's edits, an answer's regenerations), and its sibling `index`.
 *
 * @example
 * const request: BranchSelectRequest = { threadId: "board-1", messageId: "a2", index: 0 };
 */
export interface BranchSelectRequest {
  readonly threadId: string;
  readonly messageId: string;
  readonly index: number;
}

/**
 * What a switch did: `switched` (the thread's path now runs through that sibling), `unchanged` (it already did).
 *
 * @example
 * if ((await transport.selectBranch(request)) === "switched") session.connect().subscribe();
 */
export type BranchSelectResult = "switched" | "unchanged";

/**
 * One item of a followed thread's events (`Transport.followThread`): `opened` (with `attempt`: 0
 * first, then each reconnection) when the stream was (re)connected, else a change of the thread
 * named by its `type` (`path-selected`: another sibling was selected, docs/threads.md#the-tree;
 * the thread list's other changes: `renamed`, `run-started` …). The queue's changes
 * (`queue-enqueued`, `queue-started`, `queue-taken`, `queue-cancelled`, docs/queue.md#on-the-wire)
 * carry the entry as `queued`.
 *
 * @example
 * if (notice.type === "path-selected") reread();
 */
export interface ThreadNotice {
  readonly type: string;
  readonly attempt?: number;
  readonly queued?: QueuedMessage;
}

/**
 * Runs an agent for one input and streams its events: cold (nothing happens before subscription),
 * cancelled by unsubscribing. A failure below the event layer (HTTP status, network, bad bytes) is
 * the Observable's error, preferably a `ClientError`; the Session turns any error into an `error`
 * update and `done` failed. The Session calls `run(input, { warnings: true, connection: true })`: a
 * transport that decodes then interleaves `DecodeWarning`s, which the Session reports as `error`
 * updates of kind `warning`, and one that reconnects its `ConnectionNotice`s (`connection`
 * updates); one that ignores the options (a plain `(input) => Observable<Event>`) still fits. The
 * library's transports narrow the type: called without options they emit events only.
 *
 * A transport for a server that keeps threads (docs/durability.md#stores-and-routes) also has `connect` (join a thread: its
 * history, state, pending interrupts and the live tail of a run in progress, as one stream
 * starting with RUN_STARTED), `stop` (cancel a run on the server) and `history` (older pages of a
 * thread joined with a `limit`).
 *
 * @example
 * const transport: Transport = { run: (input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId)) };
 */
export interface Transport {
  run(input: RunAgentInput, options?: TransportRunOptions): Observable<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem>;
  connect?(request: ConnectRequest, options?: TransportRunOptions): Observable<Event | DecodeWarning | ConnectionNotice>;
  stop?(request: StopRequest): Promise<StopResult>;
  /**
   * Whether the server owns the threads' history (docs/threads.md#the-anchor-rule): then the Session
   * posts only the messages it does not have. Asked before a Session's runs; answer from a cache.
   */
  serverOwnsHistory?(): Promise<boolean>;
  /** An older page of a thread's messages (`POST {url}/history`, docs/threads.md#in-the-client): what `Session.loadOlder` asks for. */
  history?(request: HistoryRequest): Promise<HistoryPage>;
  /**
   * Shows another sibling of a thread (`POST {url}/threads/{threadId}/path`, docs/threads.md#the-tree):
   * what `Session.selectBranch` asks for. Rejects with a `ClientError` naming the refusal (404 an
   * unknown thread or a message off its path, 422 no such sibling, 409 a run is live).
   */
  selectBranch?(request: BranchSelectRequest): Promise<BranchSelectResult>;
  /**
   * One thread's changes, live (`GET {url}/threads/events?threadId=`): how a Session hears that
   * another tab switched its thread's branch. Cold; reconnects with backoff until unsubscribed, and
   * errors (401, 404 on a server without `identify`, attempts used up) when it cannot go on.
   */
  followThread?(threadId: string): Observable<ThreadNotice>;
  /**
   * Cancels a message waiting on a thread (`POST {url}/cancel`, docs/queue.md#cancel): what
   * `Session.cancelQueued` asks for. Rejects with a `ClientError` for any refusal other than those
   * the result names (401, 403, a failed request).
   */
  cancelQueued?(request: CancelQueuedRequest): Promise<CancelQueuedResult>;
}
