/** The 404 of a route this handler does not serve (docs/threads.md#routes): the thread routes need a store, the list routes `identify` too. */
import type { ThreadStore } from "../store/ThreadStore";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";

/**
 * The store `route` works on, or 404 `not-found` saying what the route needs: a store for every
 * thread route, and `identify` for the list and its events (without owners there is no "your
 * threads"). 404 is the status a server without such a route gives, so a client treats both alike.
 *
 * @example
 * const store = storeForRoute(context, "GET {url}/threads", { identify: true });
 * if (store instanceof Response) return store;
 */
export function storeForRoute(context: HandlerContext, route: string, needs: { readonly identify: boolean }): ThreadStore | Response {
  if (context.store === undefined) {
    return errorResponse(
      404,
      { error: "not-found", message: `${route} needs a thread store, and this endpoint has none (createHandler(source, { store }))` },
      context.headers,
    );
  }
  if (needs.identify && context.identify === undefined) {
    const message = `${route} needs identify (createHandler(source, { store, identify })): without owners there is no thread list`;
    return errorResponse(404, { error: "not-found", message }, context.headers);
  }
  return context.store;
}
