/** `GET {url}/threads/events` (docs/threads.md#the-thread-list): the caller's thread-list changes as SSE, never another owner's. */
import { EMPTY, catchError, filter, map } from "rxjs";
import { threadIdOfChange } from "../../thread/threadList";
import { acceptsEventStream } from "./acceptsEventStream";
import { admitToList } from "./admit";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import { storeForRoute } from "./storeForRoute";
import { eventStreamResponse } from "./streamResponse";
import { toEventStream } from "./toEventStream";

/**
 * The most bytes of list changes queued for one reader of the events (1 MiB): a change is a row
 * of a few hundred bytes, so a reader this far behind is better served by refetching the first
 * page than by the backlog, and an unread stream costs at most this.
 *
 * @example
 * toEventStream(changes$, { maxBufferedBytes: Math.min(context.stream.maxBufferedBytes, LIST_EVENTS_MAX_BUFFERED_BYTES) });
 */
export const LIST_EVENTS_MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * 406 when `Accept` rules out `text/event-stream`; 404 without a store or without `identify`;
 * then `identify` and `authorize` (`events`) before anything else of the request is read; then
 * 200 `text/event-stream`, one `data: <ThreadListEvent JSON>` frame per change of the caller's
 * list (`store.listEvents({ owner })`), without `id:`: the stream has no cursor, and a client
 * that (re)connects fetches the first page again and applies what it hears from then on. With
 * `?threadId=<id>` only that thread's changes are sent: a client showing one thread follows it
 * that way (a switch of its branch, `path-selected`: docs/threads.md#the-tree).
 *
 * The stream is bounded like a store's tails: a reader that took nothing for
 * `idleWriteTimeoutMs` while changes waited is cut off, and one more than
 * `LIST_EVENTS_MAX_BUFFERED_BYTES` behind has its stream ended; either way it reconnects and
 * resyncs. When the store's change feed fails, the stream ends the same way.
 *
 * @example
 * if (route.name === "events") return serveThreadEvents(request, context);
 */
export async function serveThreadEvents(request: Request, context: HandlerContext): Promise<Response> {
  const { headers } = context;
  const accept = request.headers.get("accept");
  if (!acceptsEventStream(accept)) {
    return errorResponse(406, { error: "not-acceptable", message: `this route answers only text/event-stream, but Accept allows only ${accept}` }, headers);
  }
  const store = storeForRoute(context, "GET {url}/threads/events", { identify: true });
  if (store instanceof Response) return store;
  const caller = await admitToList(context, request, "events");
  if (caller instanceof Response) return caller;
  const only = new URL(request.url).searchParams.get("threadId");
  const changes = store.listEvents(caller.scope).pipe(
    filter((change) => only === null || threadIdOfChange(change) === only),
    map((change) => ({ data: JSON.stringify(change) })),
    // A failed feed ends the stream without a frame of its own: the client's reconnect resyncs it.
    catchError(() => EMPTY),
  );
  const body = toEventStream(changes, {
    ...context.stream,
    // Bounded as the tails are, but its frames are the caller's own: not in the tails' shared pool.
    idleWriteTimeoutMs: context.tails.idleWriteTimeoutMs,
    clock: context.tails.clock,
    maxBufferedBytes: Math.min(context.stream.maxBufferedBytes, LIST_EVENTS_MAX_BUFFERED_BYTES),
    slowConsumer: "end",
    signal: request.signal,
  });
  return eventStreamResponse(body, headers);
}
