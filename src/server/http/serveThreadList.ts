/** `GET {url}/threads` (docs/threads.md#the-thread-list): one page of the caller's threads, most recently updated first. */
import type { ListQuery } from "../store/ThreadStore";
import { admitToList } from "./admit";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import { jsonResponse } from "./jsonResponse";
import { refuseLimit } from "./pageLimit";
import { storeFailure } from "./streamResponse";
import { storeForRoute } from "./storeForRoute";

/**
 * The page size of a list request without `limit`: about what a sidebar shows at once.
 *
 * @example
 * fetch(`${url}/threads`); // up to DEFAULT_LIST_LIMIT threads
 */
export const DEFAULT_LIST_LIMIT = 50;

/**
 * Answers 404 without a store or without `identify`; then asks `identify` and `authorize`
 * (`list`) before it reads anything else of the request; then the query (`limit` 1 to
 * `maxPageSize`, default 50 or `maxPageSize` if smaller; `cursor`, a `next` of an earlier page; `archived=true` for the
 * archived threads, `false` or absent for the others; anything else → 400 `invalid-input`
 * naming the parameter), then `store.list` as the caller: 200 `ThreadPage` JSON (a cursor the
 * store did not make → 400, `path: "cursor"`).
 *
 * @example
 * if (route.name === "list") return serveThreadList(request, context);
 */
export async function serveThreadList(request: Request, context: HandlerContext): Promise<Response> {
  const { headers } = context;
  const store = storeForRoute(context, "GET {url}/threads", { identify: true });
  if (store instanceof Response) return store;
  const caller = await admitToList(context, request, "list");
  if (caller instanceof Response) return caller;
  const query = listQuery(new URL(request.url).searchParams, context);
  if (query instanceof Response) return query;
  try {
    return jsonResponse(200, await store.list(caller.scope, query), headers);
  } catch (error) {
    // The limit was checked above: a RangeError is the store refusing a cursor it did not make (pageQueries).
    if (error instanceof RangeError) return errorResponse(400, { error: "invalid-input", message: error.message, path: "cursor" }, headers);
    return storeFailure(error, headers);
  }
}

/** The `ListQuery` of the URL's parameters, or the 400 that names the bad one. */
function listQuery(params: URLSearchParams, context: HandlerContext): ListQuery | Response {
  const rawLimit = params.get("limit");
  const limit = rawLimit === null ? Math.min(DEFAULT_LIST_LIMIT, context.maxPageSize) : /^\d+$/.test(rawLimit) ? Number(rawLimit) : Number.NaN;
  const badLimit = refuseLimit(limit, context.maxPageSize, "limit", context.headers);
  if (badLimit) return badLimit;
  const archived = params.get("archived");
  if (archived !== null && archived !== "true" && archived !== "false") {
    const message = `expected archived=true or archived=false, but got archived=${JSON.stringify(archived)}`;
    return errorResponse(400, { error: "invalid-input", message, path: "archived" }, context.headers);
  }
  const cursor = params.get("cursor");
  return { limit, archived: archived === "true", ...(cursor === null || cursor === "" ? {} : { cursor }) };
}
