/** The response headers of a server that keeps threads (docs/durability.md#stores-and-routes): how a connect answer relates to what the client had, and that a stream can be resumed. Here so both ends agree on the names. */

/**
 * `resume`: the stream continues a run after the client's `Last-Event-ID` (the events after it,
 * exactly once); `snapshot`: the stream stands alone, starting with its own RUN_STARTED and the
 * thread's compacted messages and state, so a client following a run restarts its pipeline for it;
 * `new`: a join of a thread the caller has never had (docs/threads.md#joining-a-new-thread): an
 * empty thread, whose prelude is a RUN_STARTED and a RUN_FINISHED success, with no messages and no
 * state snapshot (a client keeps what it holds).
 *
 * @example
 * const mode: ConnectMode = response.headers.get(CONNECT_MODE_HEADER) === "snapshot" ? "snapshot" : "resume";
 */
export type ConnectMode = "resume" | "snapshot" | "new";

/**
 * The response header of `POST {url}/connect` that carries its `ConnectMode`. A page on another
 * origin reads it only if the server exposes it (`Access-Control-Expose-Headers: AGUI-Connect-Mode`);
 * `HttpTransport` also tells the modes apart without it (only a snapshot starts with RUN_STARTED).
 *
 * @example
 * new Response(body, { headers: { [CONNECT_MODE_HEADER]: "resume" } });
 */
export const CONNECT_MODE_HEADER = "AGUI-Connect-Mode";

/**
 * The response header (value `true`) on every event stream of a handler with a store: the stream
 * can be resumed through `POST {url}/connect` after a cut, even one that came before its first
 * frame. A client that sees neither it nor an `id:` does not try (the stream ends as it ends).
 *
 * @example
 * const resumable = response.headers.get(RESUMABLE_HEADER) === "true";
 */
export const RESUMABLE_HEADER = "AGUI-Resumable";

/**
 * The response header of a `POST {url}/connect` on the snapshot path (docs/threads.md#paginated-history):
 * `true` when the thread holds messages older than those of the prelude's MESSAGES_SNAPSHOT (the
 * request asked for the last `limit` messages), `false` when the snapshot is the whole path. A page
 * on another origin reads it only if the server exposes it (`cors` does).
 *
 * @example
 * const hasOlder = response.headers.get(HISTORY_OLDER_HEADER) === "true";
 */
export const HISTORY_OLDER_HEADER = "AGUI-History-Older";

/**
 * The response header of a `POST {url}/connect` on the snapshot path that names the oldest
 * message of the prelude's MESSAGES_SNAPSHOT (what `POST {url}/history` takes as `before`),
 * percent-encoded (`encodeURIComponent`: a header carries no arbitrary unicode); absent when the
 * snapshot has no message.
 *
 * @example
 * const oldest = response.headers.get(HISTORY_OLDEST_HEADER);
 * const before = oldest === null ? undefined : decodeURIComponent(oldest);
 */
export const HISTORY_OLDEST_HEADER = "AGUI-History-Oldest";
