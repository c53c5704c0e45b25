/** The handler's two kinds of answer besides refusals: an SSE stream, and a store failure told as an HTTP status. */
import { excerpt } from "../../protocol/describeFailure";
import { StoreError } from "../store/StoreError";
import { errorResponse } from "./errorResponse";
import { HEARTBEAT_HEADER, heartbeatHeaderValue } from "../../protocol/heartbeat";
import { heartbeatOf } from "./toEventStream";

/**
 * A `text/event-stream` answer (`Cache-Control: no-cache`, `X-Accel-Buffering: no` so proxies do
 * not hold frames back) with the handler's extra headers and `more`; a body that sends heartbeats
 * (`toEventStream`'s `heartbeatMs`) is announced with its interval in `AGUI-Heartbeat` (seconds,
 * docs/http.md#heartbeats), so every stream of the handler announces what it does, in one place.
 *
 * @example
 * return eventStreamResponse(toEventStream(events$), extra, { [CONNECT_MODE_HEADER]: "resume" });
 */
export function eventStreamResponse(
  body: ReadableStream<Uint8Array>,
  headers: Readonly<Record<string, string>>,
  more: Readonly<Record<string, string>> = {},
): Response {
  const heartbeat = heartbeatOf(body);
  const announced: Record<string, string> = heartbeat === undefined ? {} : { [HEARTBEAT_HEADER]: heartbeatHeaderValue(heartbeat) };
  return new Response(body, {
    status: 200,
    headers: { ...headers, ...more, ...announced, "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" },
  });
}

/**
 * The answer for a store operation that failed before a response started: `run-active` → 409,
 * `run-too-large` → 413 (the input's new messages exceed the store's bound for a run), `capacity`
 * and `unavailable` → 503, anything else → 500, each a JSON error with the store's message (it names
 * the thread the caller asked for, nothing else of it).
 *
 * @example
 * try { writer = await store.beginRun(input); } catch (error) { return storeFailure(error, extra); }
 */
export function storeFailure(error: unknown, headers: Readonly<Record<string, string>>): Response {
  if (StoreError.isInstance(error)) {
    switch (error.code) {
      case "run-active":
        return errorResponse(409, { error: "run-active", message: error.message }, headers);
      case "run-too-large":
        return errorResponse(413, { error: "body-too-large", message: error.message }, headers);
      case "capacity":
        return errorResponse(503, { error: "capacity", message: error.message }, { ...headers, "Retry-After": "1" });
      case "unavailable":
        return errorResponse(503, { error: "unavailable", message: error.message }, { ...headers, "Retry-After": "1" });
      case "history-moved":
        return errorResponse(409, { error: "history-conflict", message: error.message }, headers);
      case "deleted":
        return errorResponse(409, { error: "thread-deleted", message: error.message }, headers);
      case "queue-pending":
        return errorResponse(409, { error: "queue-pending", message: error.message }, headers);
      case "queue-moved":
        return errorResponse(409, { error: "history-conflict", message: error.message }, headers);
      case "run-ended":
      case "invalid-append":
      case "evicted":
        return errorResponse(500, { error: "internal", message: error.message }, headers);
      default: {
        const unexpected: never = error.code;
        return errorResponse(500, { error: "internal", message: `the store failed (${String(unexpected)})` }, headers);
      }
    }
  }
  const message = error instanceof Error ? error.message : excerpt(error);
  return errorResponse(500, { error: "internal", message: `the store failed: ${message}` }, headers);
}
