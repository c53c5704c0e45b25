/** `POST {url}/cancel` (docs/queue.md#cancel): takes a waiting message out of its thread's queue, wherever it was sent. */
import * as t from "io-ts";
import { admit } from "./admit";
import { errorResponse, unknownToStore } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import { readJsonRequest } from "./readJsonRequest";
import { refuseMethodOrMedia } from "./refuseMethodOrMedia";
import { notResumable } from "./serveStop";
import { storeFailure } from "./streamResponse";

/** The body of a cancel request: the thread and the waiting message's id (the run id it was sent as). */
const CancelRequest = t.type({ threadId: t.string, id: t.string }, "CancelRequest");

/** Why a message is cancelled by this route (its `reason`, what its stream's `cancelled` notice says). */
const CANCELLED_BY_A_USER = "cancelled by a user";

/**
 * Reads `{ threadId, id }`, asks `identify` and `authorize` (`cancel`), then the store as the
 * caller (`cancelQueued`): `cancelled` → 200 `{ "result": "cancelled" }` (the message's stream
 * ends with a `cancelled` notice), `started` or `taken` → 409 `queued-started`, `unknown` → 404
 * `not-found` (no such waiting message, thread, or owner). Without a store: 404 `not-resumable`.
 * A method other than POST → 405.
 *
 * @example
 * if (route.name === "cancel") return serveCancelQueued(request, context);
 */
export async function serveCancelQueued(request: Request, context: HandlerContext): Promise<Response> {
  const { headers, store } = context;
  const shape = refuseMethodOrMedia(request, headers, { body: "a { threadId, id } body", answersEventStream: false });
  if (shape) return shape;
  if (store === undefined) return notResumable("cancel", headers);
  const body = await readJsonRequest(request, CancelRequest, "cancel request", context.limits, headers);
  if (body instanceof Response) return body;
  const { threadId, id } = body;
  const caller = await admit(context, request, { action: "cancel", threadId, id });
  if (caller instanceof Response) return caller;
  let answer: Awaited<ReturnType<typeof store.cancelQueued>>;
  try {
    answer = await store.cancelQueued(threadId, id, CANCELLED_BY_A_USER, caller.scope);
  } catch (error) {
    return storeFailure(error, headers);
  }
  switch (answer) {
    case "cancelled":
      return new Response(JSON.stringify({ result: "cancelled" }), {
        status: 200,
        headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
      });
    case "started":
    case "taken":
      return errorResponse(
        409,
        {
          error: "queued-started",
          message: `expected message ${JSON.stringify(id)} of thread ${JSON.stringify(threadId)} to be waiting, but ${answer === "taken" ? "its steer was taken by the live run" : "its run started"}`,
        },
        headers,
      );
    case "unknown":
      return unknownToStore(`a waiting message ${JSON.stringify(id)} on thread ${JSON.stringify(threadId)}`, headers);
    default: {
      const unexpected: never = answer;
      return errorResponse(500, { error: "internal", message: `the store answered ${String(unexpected)}` }, headers);
    }
  }
}
