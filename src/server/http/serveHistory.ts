/** `POST {url}/history` (docs/threads.md#paginated-history): an older page of a thread's messages, as JSON. */
import { HistoryRequest } from "../../thread/threadList";
import { admit } from "./admit";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import { jsonResponse } from "./jsonResponse";
import { refuseLimit } from "./pageLimit";
import { readJsonRequest } from "./readJsonRequest";
import { storeForRoute } from "./storeForRoute";
import { storeFailure } from "./streamResponse";

/**
 * 404 without a store; the body's refusals (415, 413, 408, 400; a `HistoryRequest`: `{ threadId,
 * before, limit }`, with `limit` from 1 to `maxPageSize`); `identify`, `authorize` (`history`);
 * then `store.history` as the caller: 200 `HistoryPage` JSON (at most `limit` messages right
 * before `before`, oldest first, and `hasOlder`), or 404 `not-found` when the caller has no such
 * thread or the thread no message `before` (one answer for both, naming only what was sent).
 *
 * @example
 * if (route.name === "history") return serveHistory(request, context);
 */
export async function serveHistory(request: Request, context: HandlerContext): Promise<Response> {
  const { headers } = context;
  const store = storeForRoute(context, "POST {url}/history", { identify: false });
  if (store instanceof Response) return store;
  const body = await readJsonRequest(request, HistoryRequest, "HistoryRequest", context.limits, headers);
  if (body instanceof Response) return body;
  const { threadId, before, limit } = body;
  const badLimit = refuseLimit(limit, context.maxPageSize, "/limit", headers);
  if (badLimit) return badLimit;
  const caller = await admit(context, request, { action: "history", threadId });
  if (caller instanceof Response) return caller;
  try {
    const page = await store.history(threadId, { before, limit }, caller.scope);
    if (page !== undefined) return jsonResponse(200, page, headers);
    const message = `expected a thread ${JSON.stringify(threadId)} with a message ${JSON.stringify(before)}, but the store knows none`;
    return errorResponse(404, { error: "not-found", message }, headers);
  } catch (error) {
    return storeFailure(error, headers);
  }
}
