/** The response headers of a server that keeps threads (docs/durability.md#stores-and-routes): how a connect answer relates to what the client had, and that a stream can be resumed. Here so both ends agree on the names. */

/**
 * `resume`: the stream continues a run after the client's `Last-Event-ID` (the events after it,
 * exactly once); `snapshot`: the stream stands alone, starting with its own RUN_STARTED and the
 * thread's compacted messages and state, so a client following a run restarts its pipeline for it.
 *
 * @example
 * const mode: ConnectMode = response.headers.get(CONNECT_MODE_HEADER) === "snapshot" ? "snapshot" : "resume";
 */
export type ConnectMode = "resume" | "snapshot";

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
 * The response header of `POST {url}/connect` asked with a message `limit` (docs/threads.md#in-the-client):
 * `true` when the thread's path holds messages older than those the answer's MESSAGES_SNAPSHOT
 * carries (fetched with `POST {url}/history`), `false` when it carries the path from its start.
 *
 * @example
 * const hasOlder = response.headers.get(HAS_OLDER_HEADER) === "true";
 */
export const HAS_OLDER_HEADER = "AGUI-Has-Older";
