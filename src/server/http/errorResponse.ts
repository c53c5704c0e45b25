/** The JSON answer for a request that is refused before any event is streamed. */

/**
 * Why a request was refused: `invalid-json` (the body is not UTF-8 JSON), `json-too-deep` (JSON
 * nested past `maxJsonDepth`; `path` names the first container too deep), `invalid-input` (JSON,
 * but not a RunAgentInput; `path` names the member), `method-not-allowed`, `unsupported-media-type`
 * (not a JSON body), `not-acceptable` (the `Accept` header excludes `text/event-stream`),
 * `body-too-large`, `body-timeout` (the body did not arrive within `bodyTimeoutMs`), `internal`
 * (the handler itself failed before streaming); with durable threads (docs/durability.md#stores-and-routes): `forbidden`
 * (`authorize` denied the request, 403), `not-found` (no such thread or run, 404), `not-resumable`
 * (`/connect` or `/stop` on a handler without a store, 404), `gone` (`/connect` with a
 * `Last-Event-ID` for a thread the store no longer knows: deleted, evicted or expired, 410), `run-active` (the thread already has a
 * live run, 409), `run-ended` (`/stop` for a run that is over, 409), `capacity` (the store cannot
 * make room, 503), `unavailable` (the store failed, 503); with server-owned threads (docs/threads.md):
 * `unauthenticated` (`identify` found no principal, 401), `history-conflict` (the posted history
 * leaves the stored path after its anchor, or another run moved the thread meanwhile, 409),
 * `history-forged` (the post adds a message a request may not add, 422), `thread-deleted` (a run
 * on a thread deleted less than a lease ago, 409); with messages sent while the agent works
 * (docs/queue.md): `queue-pending` (a plain post while the thread's queue is not empty: the queue
 * goes first, 409), `queue-full` (the thread's queue holds its maximum, 429), `queued-started` (a
 * cancel for a message whose run started, or a steer its run took, 409), `steer-not-text` (a steer
 * that carries anything but one user text message, 422).
 *
 * @example
 * const code: HttpErrorCode = "forbidden";
 */
export type HttpErrorCode =
  | "invalid-json"
  | "json-too-deep"
  | "invalid-input"
  | "method-not-allowed"
  | "unsupported-media-type"
  | "not-acceptable"
  | "body-too-large"
  | "body-timeout"
  | "internal"
  | "forbidden"
  | "not-found"
  | "not-resumable"
  | "gone"
  | "run-active"
  | "run-ended"
  | "capacity"
  | "unavailable"
  | "unauthenticated"
  | "history-conflict"
  | "history-forged"
  | "thread-deleted"
  | "queue-pending"
  | "queue-full"
  | "queued-started"
  | "steer-not-text";

/** The body of every error answer: a code, a sentence saying what was expected and what arrived, and for `invalid-input` the JSON Pointer of the bad member. */
export interface HttpErrorBody {
  readonly error: HttpErrorCode;
  readonly message: string;
  /** JSON Pointer into the request body (`""` for the body itself); only for `invalid-input` and `json-too-deep`. */
  readonly path?: string;
  /** For `history-conflict` and `history-forged`: the id of the posted message that broke the rule. */
  readonly messageId?: string;
  /** For `history-forged`: which rule the message broke (docs/threads.md#what-a-request-may-add). */
  readonly rule?: string;
}

/**
 * Makes a JSON error answer (`Content-Type: application/json`) with the given status.
 * The official client parses a non-2xx body as JSON when its type says so, so the user sees the
 * message, not a bare status.
 *
 * @example
 * errorResponse(405, { error: "method-not-allowed", message: "expected POST, got GET" }, { Allow: "POST" })
 */
export function errorResponse(status: number, body: HttpErrorBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/**
 * 404 `not-found` for what the store does not know: `what` says what was expected ("a run \"r1\" on
 * thread \"t1\""), and the sentence that the store knows none.
 *
 * @example
 * return unknownToStore(`a run ${JSON.stringify(runId)} on thread ${JSON.stringify(threadId)}`, headers);
 */
export function unknownToStore(what: string, headers: Readonly<Record<string, string>>): Response {
  return errorResponse(404, { error: "not-found", message: `expected ${what}, but the store knows none` }, headers);
}
