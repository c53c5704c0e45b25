/**
 * An endpoint in the test's own process (docs/testing.md#an-in-process-endpoint): the real HTTP
 * handler and the real `HttpTransport`, joined by a fetch that hands the request object to the
 * handler instead of a socket. Everything the wire does (SSE framing, ids, `/connect`, `/stop`,
 * the thread routes, refusals) is exercised; nothing listens on a port.
 */
import type { Agent } from "../server/Agent";
import { createHandler } from "../server/http/createHandler";
import type { FetchHandler } from "../server/http/HandlerOptions";
import { HttpTransport, type HttpTransportOptions } from "../client/transports/HttpTransport";

/** The url an in-process endpoint answers on unless told otherwise: a reserved name (RFC 2606) that no network resolves. */
export const IN_PROCESS_URL = "http://agui-rx.test/agent";

/**
 * Options of `inProcessEndpoint`: the `HttpTransport`'s own (its `fetch` is the handler's), and the url.
 *
 * @example
 * inProcessEndpoint(handler, { url: "http://agui-rx.test/board", reconnect: false });
 */
export interface InProcessEndpointOptions extends Omit<HttpTransportOptions, "fetch"> {
  /** The endpoint's url as the transport posts to it (default `IN_PROCESS_URL`); the handler sees its path. */
  readonly url?: string | undefined;
}

/**
 * A fetch that answers every request with `handler(request)`, in this process: the request as
 * `new Request(input, init)` builds it (its `signal` included, so aborting a fetch aborts the run),
 * the handler's `Response` as it is. For the transports that take a fetch (`HttpThreadsTransport`,
 * `recordSse`) and for a page's own calls.
 *
 * @example
 * const threads = new HttpThreadsTransport(IN_PROCESS_URL, { fetch: inProcessFetch(handler) });
 */
export function inProcessFetch(handler: FetchHandler): typeof fetch {
  if (typeof handler !== "function")
    throw new TypeError(`inProcessFetch: expected a fetch handler (request) => Promise<Response>, but got ${describe(handler)}`);
  return async (input, init) => handler(input instanceof Request && init === undefined ? input : new Request(input, init));
}

/**
 * An `HttpTransport` whose requests go straight to `endpoint`: a fetch handler (what
 * `createHandler(agent, options)` returns; pass one to give the endpoint a store, `identify`, …),
 * or an agent, served by `createHandler(agent)` with its defaults. A component test puts it under a
 * `Session` or a hook and sees exactly what it would see over HTTP. Throws a `TypeError` naming
 * what it got when `endpoint` is neither.
 *
 * @example
 * const session = new Session(inProcessEndpoint(createHandler(greeter, { store: memoryStore() })), { threadId: "t1" });
 */
export function inProcessEndpoint<S>(endpoint: FetchHandler | Agent<S>, options: InProcessEndpointOptions = {}): HttpTransport {
  const { url = IN_PROCESS_URL, ...transportOptions } = options;
  const handler = typeof endpoint === "function" ? endpoint : isAgent(endpoint) ? createHandler<S>(endpoint) : undefined;
  if (handler === undefined)
    throw new TypeError(`inProcessEndpoint: expected a fetch handler or an agent (an object with a run method), but got ${describe(endpoint)}`);
  return new HttpTransport(url, { ...transportOptions, fetch: inProcessFetch(handler) });
}

/** Whether `value` is an agent: an object with a `run` method. */
function isAgent<S>(value: FetchHandler | Agent<S>): value is Agent<S> {
  return typeof value === "object" && value !== null && "run" in value && typeof value.run === "function";
}

/** What was handed in, for an error message. */
function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object without a run method" : typeof value;
}
