/** `PATCH` and `DELETE {url}/threads/{threadId}` (docs/threads.md#the-thread-list): rename or (un)archive a thread, or delete it. */
import { ThreadPatch } from "../../thread/threadList";
import { admit } from "./admit";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import { jsonResponse } from "./jsonResponse";
import { readJsonRequest } from "./readJsonRequest";
import { storeForRoute } from "./storeForRoute";
import { storeFailure } from "./streamResponse";

/**
 * The longest title a rename may set, in characters: a sidebar row, with room to spare. Every list
 * page carries each title, so a longer one would cost every reader of the list.
 *
 * @example
 * if (patch.title.length > MAX_TITLE_LENGTH) refuse();
 */
export const MAX_TITLE_LENGTH = 500;

/**
 * `PATCH {url}/threads/{threadId}` with a `ThreadPatch` body (`{ title?, archived? }`): 404
 * without a store; the body's refusals (415, 413, 408, 400, and a title past `MAX_TITLE_LENGTH`); `identify`, `authorize` (`update`,
 * with the patch); then `store.update` as the caller: 200 with the thread's row
 * (`ThreadSummary`) as it is now, or 404 `not-found` for a thread the caller does not have
 * (unknown, deleted, or another owner's: the same answer).
 *
 * @example
 * if (route.name === "update") return serveThreadUpdate(request, context, route.threadId);
 */
export async function serveThreadUpdate(request: Request, context: HandlerContext, threadId: string): Promise<Response> {
  const { headers } = context;
  const store = storeForRoute(context, "PATCH {url}/threads/{threadId}", { identify: false });
  if (store instanceof Response) return store;
  const patch = await readJsonRequest(request, ThreadPatch, "ThreadPatch", context.limits, headers);
  if (patch instanceof Response) return patch;
  if (patch.title !== undefined && patch.title.length > MAX_TITLE_LENGTH) {
    return errorResponse(
      400,
      { error: "invalid-input", message: `expected a title of at most ${MAX_TITLE_LENGTH} characters, but got ${patch.title.length}`, path: "/title" },
      headers,
    );
  }
  const caller = await admit(context, request, { action: "update", threadId, patch });
  if (caller instanceof Response) return caller;
  try {
    const row = await store.update(threadId, patch, caller.scope);
    return row === undefined ? unknownThread(threadId, headers) : jsonResponse(200, row, headers);
  } catch (error) {
    return storeFailure(error, headers);
  }
}

/**
 * `DELETE {url}/threads/{threadId}`: 404 without a store; `identify`, `authorize` (`delete`);
 * then `store.remove` as the caller (a live run is stopped, every record of the thread removed):
 * 204, or 404 `not-found` for a thread the caller does not have. A body, if any, is not read.
 *
 * @example
 * if (route.name === "delete") return serveThreadDelete(request, context, route.threadId);
 */
export async function serveThreadDelete(request: Request, context: HandlerContext, threadId: string): Promise<Response> {
  const { headers } = context;
  const store = storeForRoute(context, "DELETE {url}/threads/{threadId}", { identify: false });
  if (store instanceof Response) return store;
  const caller = await admit(context, request, { action: "delete", threadId });
  if (caller instanceof Response) return caller;
  try {
    return (await store.remove(threadId, caller.scope)) ? new Response(null, { status: 204, headers }) : unknownThread(threadId, headers);
  } catch (error) {
    return storeFailure(error, headers);
  }
}

/**
 * The 404 of a thread the caller does not have: its message names only the id the caller sent,
 * so an unknown thread and another owner's answer alike, byte for byte (docs/threads.md#owners).
 *
 * @example
 * if (row === undefined) return unknownThread(threadId, headers);
 */
export function unknownThread(threadId: string, headers: Readonly<Record<string, string>>): Response {
  return errorResponse(404, { error: "not-found", message: `expected a thread ${JSON.stringify(threadId)}, but the store knows none` }, headers);
}
