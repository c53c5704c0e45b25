/** Which of the handler's routes a request names, by its path and method (docs/threads.md#routes): one router, so that no thread id can be mistaken for a route. */

/**
 * A route of the handler: `run` (`POST {url}`), `connect`, `stop`, `cancel` (a waiting message,
 * docs/queue.md#cancel), `history` (`POST {url}/…`),
 * `capabilities` (`GET {url}/capabilities`), `list` (`GET {url}/threads`), `events` (`GET
 * {url}/threads/events`), and, for one thread, `update` (`PATCH {url}/threads/{threadId}`) and
 * `delete` (`DELETE {url}/threads/{threadId}`), and `select` (`POST {url}/threads/{threadId}/path`,
 * docs/threads.md#the-tree), with the thread id percent-decoded.
 *
 * @example
 * const route: HandlerRoute = { name: "update", threadId: "a/b" };
 */
export type HandlerRoute =
  | { readonly name: "run" | "connect" | "stop" | "cancel" | "history" | "capabilities" | "list" | "events" }
  | { readonly name: "update" | "delete" | "select"; readonly threadId: string };

/**
 * What a path answers: the route of each method it takes (`methods`, in the order an `Allow` header
 * lists them), or `invalid` with why the path names nothing (a thread id that is not valid
 * percent-encoding).
 *
 * @example
 * const resource = resourceOf("http://h/agent/threads/events");
 * // { kind: "resource", methods: { GET: { name: "events" }, PATCH: {…}, DELETE: {…} } }
 */
export type Resource =
  { readonly kind: "resource"; readonly methods: Readonly<Partial<Record<string, HandlerRoute>>> } | { readonly kind: "invalid"; readonly message: string };

const RUN: Resource = { kind: "resource", methods: { POST: { name: "run" } } };

/**
 * What `routeOf` found: the route, the methods the path takes when `method` is not one of them, or
 * a path that names nothing.
 *
 * @example
 * const match: RouteMatch = { kind: "wrong-method", allow: ["POST"] };
 */
export type RouteMatch =
  | { readonly kind: "route"; readonly route: HandlerRoute }
  | { readonly kind: "wrong-method"; readonly allow: readonly string[] }
  | { readonly kind: "invalid"; readonly message: string };

/**
 * The resource of `url`, read from the end of its path on the raw (still percent-encoded)
 * segments, so that a thread id, whose `/` and `%` arrive encoded, is always one segment and is
 * compared with no route name:
 *
 * 1. `…/threads/{segment}/path`: the thread's selected path (`POST`: show another sibling);
 *    `…/threads/{segment}`: one thread (`PATCH`, `DELETE`), whatever the segment says, even
 *    `connect` or `threads`; the segment `events` is also `GET` the list's events (a thread has no
 *    `GET`, so the method decides, never the id);
 * 2. `…/threads`, `…/connect`, `…/stop`, `…/cancel`, `…/history`, `…/capabilities`: those routes;
 * 3. anything else: the run endpoint (the handler answers on every path below its mount point).
 *
 * So a run endpoint's own path must not end in one of those names, nor in `threads/<anything>`.
 *
 * @example
 * resourceOf("http://h/agent/threads/a%2Fb").kind; // "resource": PATCH and DELETE on thread "a/b"
 * resourceOf("http://h/agent");                    // POST: run
 */
export function resourceOf(url: string): Resource {
  const segments = new URL(url).pathname.split("/");
  const last = segments[segments.length - 1];
  if (segments.length >= 4 && last === "path" && segments[segments.length - 3] === "threads") return pathResource(segments[segments.length - 2]);
  if (segments.length >= 3 && segments[segments.length - 2] === "threads") return threadResource(last);
  return subPath(last);
}

/**
 * The route `method` takes at `url`: the route, `wrong-method` with the methods the path takes
 * (for a 405 and its `Allow`), or `invalid` (see `Resource`).
 *
 * @example
 * routeOf("DELETE", "http://h/agent/threads/events"); // { kind: "route", route: { name: "delete", threadId: "events" } }
 */
export function routeOf(method: string, url: string): RouteMatch {
  const resource = resourceOf(url);
  if (resource.kind === "invalid") return resource;
  const route = resource.methods[method];
  return route === undefined ? { kind: "wrong-method", allow: Object.keys(resource.methods) } : { kind: "route", route };
}

/** The resource a last segment names outside `threads/`: a sub-path of the endpoint, or the run endpoint itself. */
function subPath(last: string): Resource {
  switch (last) {
    case "connect":
    case "stop":
    case "cancel":
    case "history":
      return { kind: "resource", methods: { POST: { name: last } } };
    case "capabilities":
      return { kind: "resource", methods: { GET: { name: "capabilities" }, HEAD: { name: "capabilities" } } };
    case "threads":
      return { kind: "resource", methods: { GET: { name: "list" } } };
    default:
      return RUN;
  }
}

/** The methods of `…/threads/{segment}/path`: a switch of the thread's branch. */
function pathResource(segment: string): Resource {
  const threadId = decodedThreadId(segment);
  return typeof threadId === "string" ? { kind: "resource", methods: { POST: { name: "select", threadId } } } : threadId;
}

/** The thread id a segment after `threads/` names, or why it names none. */
function decodedThreadId(segment: string): string | Resource {
  try {
    return decodeURIComponent(segment);
  } catch {
    return { kind: "invalid", message: `expected a percent-encoded thread id after threads/, but got ${JSON.stringify(segment)}` };
  }
}

/** The methods of `…/threads/{segment}`: the thread's, and for `events` the list's events too. */
function threadResource(segment: string): Resource {
  const threadId = decodedThreadId(segment);
  if (typeof threadId !== "string") return threadId;
  const thread = { PATCH: { name: "update", threadId }, DELETE: { name: "delete", threadId } } as const;
  return { kind: "resource", methods: segment === "events" ? { GET: { name: "events" }, ...thread } : thread };
}
