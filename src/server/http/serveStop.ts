/** `POST {url}/stop` (docs/durability.md#stores-and-routes): cancels a live run of a thread, wherever its producer runs. */
import * as t from "io-ts";
import { errorResponse, unknownToStore } from "./errorResponse";
import { admit } from "./admit";
import type { HandlerContext } from "./HandlerContext";
import { readJsonRequest } from "./readJsonRequest";
import { refuseMethodOrMedia } from "./refuseMethodOrMedia";
import { storeFailure } from "./streamResponse";

/** The body of a stop request. */
const StopRequest = t.type({ threadId: t.string, runId: t.string }, "StopRequest");

/**
 * Reads `{ threadId, runId }`, asks `identify` and `authorize` (`stop`), then the store as the caller: `stopping` → 202 with
 * `{ threadId, runId, status: "stopping" }` (the run then ends `RUN_FINISHED` cancelled on its
 * own stream; everything sent before stays in the log), `ended` → 409 `run-ended`, `unknown` → 404
 * `not-found`. Without a store: 404 `not-resumable`. A method other than POST → 405.
 *
 * @example
 * if (route.name === "stop") return serveStop(request, context);
 */
export async function serveStop(request: Request, context: HandlerContext): Promise<Response> {
  const { headers, store } = context;
  const shape = refuseMethodOrMedia(request, headers, { body: "a { threadId, runId } body", answersEventStream: false });
  if (shape) return shape;
  if (store === undefined) return notResumable("stop", headers);
  const body = await readJsonRequest(request, StopRequest, "stop request", context.limits, headers);
  if (body instanceof Response) return body;
  const { threadId, runId } = body;
  const caller = await admit(context, request, { action: "stop", threadId, runId });
  if (caller instanceof Response) return caller;
  let answer: Awaited<ReturnType<typeof store.stop>>;
  try {
    answer = await store.stop(threadId, runId, caller.scope);
  } catch (error) {
    return storeFailure(error, headers);
  }
  switch (answer) {
    case "stopping":
      return new Response(JSON.stringify({ threadId, runId, status: "stopping" }), {
        status: 202,
        headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
      });
    case "ended":
      return errorResponse(
        409,
        { error: "run-ended", message: `expected run ${JSON.stringify(runId)} of thread ${JSON.stringify(threadId)} to be live, but it is already over` },
        headers,
      );
    case "unknown":
      return unknownToStore(`a run ${JSON.stringify(runId)} on thread ${JSON.stringify(threadId)}`, headers);
    default: {
      const unexpected: never = answer;
      return errorResponse(500, { error: "internal", message: `the store answered ${String(unexpected)}` }, headers);
    }
  }
}

/**
 * The answer of `/connect`, `/stop` and `/cancel` on a handler without a store: 404, the same status a server
 * that has no such route gives, so a client treats both alike (no resuming, no stopping).
 *
 * @example
 * if (store === undefined) return notResumable("connect", extra);
 */
export function notResumable(route: "connect" | "stop" | "cancel", headers: Readonly<Record<string, string>>): Response {
  const message = `POST {url}/${route} needs a thread store, and this endpoint has none (createHandler(source, { store }))`;
  return errorResponse(404, { error: "not-resumable", message }, headers);
}
