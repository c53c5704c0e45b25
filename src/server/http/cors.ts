/** Cross-origin pages (docs/threads.md#routes): the CORS headers on every answer, and the preflight of every route. */
import { CONNECT_MODE_HEADER, HISTORY_OLDER_HEADER, HISTORY_OLDEST_HEADER, RESUMABLE_HEADER } from "../../protocol/connectMode";
import { HEARTBEAT_HEADER } from "../../protocol/heartbeat";
import { TRACEPARENT_HEADER, TRACESTATE_HEADER } from "../../telemetry/traceparent";

/**
 * Which other origins' pages may call the handler (docs/threads.md#routes): `origin` is one origin
 * (`"https://app.example"`), a list of them, or `"*"` for any; `credentials` lets them send
 * cookies and `Authorization` (the browser then needs the exact origin, which is what is echoed
 * whenever the request's `Origin` is allowed); `allowHeaders` are request headers allowed besides
 * the handler's own (`Content-Type`, `Accept`, `Authorization`, `Last-Event-ID`, `traceparent`, `tracestate`); `maxAge` how
 * long, in seconds, a browser may keep a preflight's answer (default 600).
 *
 * @example
 * createHandler(agent, { store, identify, cors: { origin: ["https://app.example"], credentials: true } });
 */
export interface CorsOptions {
  readonly origin: string | readonly string[];
  readonly credentials?: boolean | undefined;
  readonly allowHeaders?: readonly string[] | undefined;
  readonly maxAge?: number | undefined;
}

/**
 * The request headers our clients send that are not CORS-safelisted: a page needs a preflight for
 * them. `traceparent` and `tracestate` carry a traced Session's trace context (docs/observability.md#client).
 */
const CLIENT_HEADERS = ["Content-Type", "Accept", "Authorization", "Last-Event-ID", TRACEPARENT_HEADER, TRACESTATE_HEADER];

/** The response headers a page must be able to read: the connect mode, resumability, the history page, the heartbeat interval, and when to retry. */
const EXPOSED_HEADERS = [CONNECT_MODE_HEADER, RESUMABLE_HEADER, HISTORY_OLDER_HEADER, HISTORY_OLDEST_HEADER, HEARTBEAT_HEADER, "Retry-After"].join(", ");

/** How long a browser may keep a preflight's answer by default, in seconds. */
const DEFAULT_MAX_AGE_SECONDS = 600;

/**
 * A handler's CORS policy: `preflight` answers an `OPTIONS` for a path that takes `allow`,
 * `decorate` adds the headers to any answer. A request from an origin the options do not allow
 * gets no CORS header at all (its browser then refuses the answer), never an error of ours.
 *
 * @example
 * const cors = corsPolicy({ origin: "https://app.example", credentials: true });
 * return cors.decorate(request, await serve(request));
 */
export interface CorsPolicy {
  preflight(request: Request, allow: readonly string[]): Response;
  decorate(request: Request, response: Response): Response;
}

/**
 * The policy of `options` (see `CorsOptions`): the request's `Origin` is echoed when it is listed
 * (or the list holds `"*"`: then `*` itself unless credentials are allowed, which browsers refuse
 * with `*`), with `Vary: Origin` whenever the answer depends on it.
 *
 * @example
 * corsPolicy({ origin: ["https://a.example", "https://b.example"] }).decorate(request, response);
 */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const origins = typeof options.origin === "string" ? [options.origin] : options.origin;
  const any = origins.includes("*");
  const credentials = options.credentials === true;
  const allowHeaders = [...CLIENT_HEADERS, ...(options.allowHeaders ?? [])].join(", ");
  const maxAge = String(options.maxAge ?? DEFAULT_MAX_AGE_SECONDS);

  const originHeaders = (request: Request): Record<string, string> | undefined => {
    const origin = request.headers.get("origin");
    if (origin === null || !(any || origins.includes(origin))) return undefined;
    const allowOrigin = any && !credentials ? "*" : origin;
    return { "Access-Control-Allow-Origin": allowOrigin, ...(credentials ? { "Access-Control-Allow-Credentials": "true" } : {}) };
  };

  return {
    preflight(request, allow) {
      const headers = new Headers({ Allow: allow.join(", ") });
      const allowed = originHeaders(request);
      if (allowed !== undefined) {
        for (const [name, value] of Object.entries(allowed)) headers.set(name, value);
        headers.set("Access-Control-Allow-Methods", allow.join(", "));
        headers.set("Access-Control-Allow-Headers", allowHeaders);
        headers.set("Access-Control-Max-Age", maxAge);
      }
      if (!any || credentials) headers.append("Vary", "Origin");
      return new Response(null, { status: 204, headers });
    },
    decorate(request, response) {
      const allowed = originHeaders(request);
      if (allowed === undefined && any && !credentials) return response;
      // A fresh Response: the one given may have immutable headers (a `route` hook's fetched answer).
      const headers = new Headers(response.headers);
      if (allowed !== undefined) {
        for (const [name, value] of Object.entries(allowed)) headers.set(name, value);
        headers.set("Access-Control-Expose-Headers", EXPOSED_HEADERS);
      }
      if (!any || credentials) headers.append("Vary", "Origin");
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    },
  };
}
