/**
 * How one request of `HttpTransport` failed (docs/durability.md#stores-and-routes, docs/client.md § Retries), as the
 * `ClientError` that says what the retry rules need to know: whether a connection was ever made,
 * what the server answered, and when it asked to be tried again.
 */
import { ClientError } from "../../thread/ClientError";

/** How much of an error answer's body an `http` error quotes. */
const BODY_EXCERPT = 500;

/**
 * System error codes of a connection that was never made, so nothing of the request reached a
 * server: refused, no route, a name lookup that failed for now, a connect that timed out. A name
 * that does not exist (`ENOTFOUND`) is left out: it proves the same, but trying again cannot help.
 */
const NEVER_CONNECTED: ReadonlySet<string> = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/**
 * The `code` of a `transport` error whose request never reached a server (see `NEVER_CONNECTED`).
 *
 * @example
 * if (error.kind === "transport" && error.code === REFUSED_CODE) console.log("nothing was sent");
 */
export const REFUSED_CODE = "refused";

/**
 * The `code` of a `transport` error after every attempt of a request failed before any answer (the retries are used up).
 *
 * @example
 * if (error.code === UNANSWERED_CODE) showOffline();
 */
export const UNANSWERED_CODE = "unanswered";

/**
 * The error of a request that got no answer: `transport`, with the code `refused` when the fetch's
 * cause proves no connection was made (Node's fetch names the system error in `cause.code`; a
 * browser's `TypeError` says nothing, so there it never has the code), `abort` for an abort.
 *
 * @example
 * failedRequest("POST", url, new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) })).code // "refused"
 */
export function failedRequest(method: string, url: string, cause: unknown): ClientError {
  // a DOMException is not an Error in every runtime, so the abort is read by its name
  const aborted = typeof cause === "object" && cause !== null && Reflect.get(cause, "name") === "AbortError";
  const code = aborted ? "abort" : neverConnected(cause) ? REFUSED_CODE : undefined;
  return new ClientError("transport", `${method} ${url} failed: ${describe(cause)}`, code === undefined ? { cause } : { cause, code });
}

/**
 * The error of a non-2xx answer: `http`, with the status, the start of the body and, when the
 * server sent `Retry-After`, how long it asked to wait (`retryAfterMs`); when the body is the
 * server's JSON refusal (`{ error, message }`, docs/http.md#answers), `code` is its code (`gone`,
 * `not-resumable`, `not-found`, …).
 *
 * @example
 * refusedAnswer("POST", url, response, await response.text()).status // 503
 */
export function refusedAnswer(method: string, url: string, response: Response, text: string, now: number = Date.now()): ClientError {
  const body = text.length > BODY_EXCERPT ? `${text.slice(0, BODY_EXCERPT)}…` : text;
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"), now);
  const code = refusalOf(text)?.error;
  return new ClientError("http", `${method} ${url} answered ${response.status} ${response.statusText}: ${body}`, {
    status: response.status,
    body,
    ...(code === undefined ? {} : { code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/**
 * The server's JSON refusal (`{ error, message }`) in an error answer's body, or `undefined` for
 * anything else (a proxy's page, plain text).
 *
 * @example
 * refusalOf('{"error":"gone","message":"no thread t1"}') // { error: "gone", message: "no thread t1" }
 */
export function refusalOf(text: string): { readonly error: string; readonly message: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null) return undefined;
  const error: unknown = Reflect.get(json, "error");
  const message: unknown = Reflect.get(json, "message");
  return typeof error === "string" && typeof message === "string" ? { error, message } : undefined;
}

/**
 * A `Retry-After` value in ms from `now`: delay-seconds (`"1"`) or an HTTP date; `undefined` when
 * absent or unreadable; a date in the past is 0.
 *
 * @example
 * parseRetryAfter("2", Date.now()) // 2000
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/^[A-Za-z]{3}, /.test(text)) return undefined; // an HTTP date starts with its day name; Date.parse reads "-1" as a year
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A fetch failure's message, with the system error undici hides in `cause` (ECONNREFUSED…).
 *
 * @example
 * describe(new TypeError("fetch failed", { cause: new Error("connect ECONNREFUSED") })) // "fetch failed (connect ECONNREFUSED)"
 */
export function describe(cause: unknown): string {
  const message = field(cause, "message");
  if (typeof message !== "string") return String(cause);
  const inner = field(cause, "cause");
  const innerMessage = field(inner, "message");
  return typeof innerMessage === "string" ? `${message} (${innerMessage})` : message;
}

/**
 * Whether a fetch rejection's cause (or every error of an AggregateError, Node's address-by-address
 * connect) names a connection never made. Read by shape, not `instanceof`: Node's fetch makes its
 * errors in its own realm, which a test runner's or another frame's `Error` does not recognise.
 */
function neverConnected(error: unknown): boolean {
  const inner = field(error, "cause");
  const code = field(inner, "code");
  if (typeof code === "string" && NEVER_CONNECTED.has(code)) return true;
  const errors = field(inner, "errors");
  return Array.isArray(errors) && errors.length > 0 && errors.every((each: unknown) => NEVER_CONNECTED.has(String(field(each, "code"))));
}

/** `value[key]` when `value` is an object, else `undefined`. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

/**
 * The longest `Retry-After` honoured (ms): a server asking for more is tried again after this, so
 * a bad header cannot park a client for hours.
 *
 * @example
 * Math.min(error.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS) // the wait a retry honours
 */
export const MAX_RETRY_AFTER_MS = 30_000;

/**
 * How long `error`'s answer asked to wait before trying again (its `Retry-After`), at most
 * `MAX_RETRY_AFTER_MS`; 0 when it did not ask.
 *
 * @example
 * timer(Math.max(backoff, askedWait(error)))
 */
export function askedWait(error: unknown): number {
  return ClientError.isInstance(error) && error.retryAfterMs !== undefined ? Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS) : 0;
}

/**
 * Whether a run's POST may be sent again after `error`: only when the failure proves the agent
 * never started, i.e. no connection was made (`transport` with code `refused`), or the server
 * answered 503 with its own JSON refusal from the store (`{ error: "capacity" | "unavailable",
 * message }`, sent before the run is begun). Any other failure may have come after the server read
 * the body, so sending it again could run the agent twice.
 *
 * @example
 * provesNothingStarted(new ClientError("http", "…", { status: 503, body: '{"error":"unavailable","message":"redis is down"}' })) // true
 */
export function provesNothingStarted(error: unknown): boolean {
  if (!ClientError.isInstance(error)) return false;
  if (error.kind === "transport") return error.code === REFUSED_CODE;
  return error.kind === "http" && error.status === 503 && isStoreRefusal(error.body);
}

/**
 * Whether a request that changes nothing when repeated (`/connect`, `/stop`, `/capabilities`)
 * may be sent again after `error`: a 503, or no answer at all (any network failure but an abort;
 * a browser cannot tell a refused connection from a reset one, and here it need not).
 *
 * @example
 * worthAnotherTry(new ClientError("http", "…", { status: 503 })) // true
 */
export function worthAnotherTry(error: unknown): boolean {
  if (!ClientError.isInstance(error)) return false;
  if (error.kind === "transport") return error.code !== "abort";
  return error.kind === "http" && error.status === 503;
}

/** Whether an error answer's body is the server's JSON refusal from its store (errorResponse.ts, `capacity` / `unavailable`). */
function isStoreRefusal(body: string | undefined): boolean {
  if (body === undefined) return false;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return false; // a proxy's page, a truncated excerpt: not the server's word that nothing started
  }
  if (typeof json !== "object" || json === null) return false;
  const code: unknown = Reflect.get(json, "error");
  return (code === "capacity" || code === "unavailable") && typeof Reflect.get(json, "message") === "string";
}
