/** Which of the handler's routes a request's URL names (docs/durability.md#stores-and-routes): the run endpoint itself, or one of its sub-paths. */

/**
 * The handler's routes: `run` (`POST {url}`), `connect` (`POST {url}/connect`), `stop` (`POST
 * {url}/stop`), `capabilities` (`GET {url}/capabilities`).
 *
 * @example
 * const route: HandlerRoute = routeOf(request.url);
 */
export type HandlerRoute = "run" | "connect" | "stop" | "capabilities";

/**
 * The route of `url`, by the last segment of its path: `…/connect`, `…/stop` and `…/capabilities`
 * are the sub-paths, anything else is the run endpoint (the handler may be mounted at any path,
 * and answers on every path below its mount point as before). A client builds the sub-paths by
 * appending the segment to the endpoint's path (`HttpTransport` does), so a run endpoint must not
 * itself end in one of these three names.
 *
 * @example
 * routeOf("http://127.0.0.1:8000/agent/connect") // "connect"
 * routeOf("http://127.0.0.1:8000/agent")         // "run"
 */
export function routeOf(url: string): HandlerRoute {
  const path = new URL(url).pathname;
  const last = path.slice(path.lastIndexOf("/") + 1);
  switch (last) {
    case "connect":
    case "stop":
    case "capabilities":
      return last;
    default:
      return "run";
  }
}
