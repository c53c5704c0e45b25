/** `HttpTransport` plus the thread-list routes of a server that owns threads (docs/client.md#thread-list), in a module of its own so that a page without a thread list does not carry it. */
import type { Observable } from "rxjs";
import { ThreadListEvent, ThreadPage, ThreadSummary, type ThreadPatch } from "../../thread/threadList";
import { ClientError } from "../../thread/ClientError";
import { threadInput, threadsPath } from "../transports/endpointRoutes";
import { HttpTransport } from "../transports/HttpTransport";
import { decodeJson, sendJson } from "../transports/jsonRequest";
import { serverRefusal } from "./serverRefusal";
import { threadEventStream } from "./threadEventStream";
import type { ThreadQuery, ThreadsTransport, ThreadStreamItem } from "./ThreadsTransport";

/**
 * An `HttpTransport` (runs, joins, stops, history) that also speaks the thread list: `GET
 * {url}/threads?limit=&cursor=&archived=`, `PATCH` and `DELETE {url}/threads/{id}` (the id
 * percent-encoded) and `GET {url}/threads/events`, with the same headers (`route: "threads"`),
 * fetch and retries (reads and deletes after a 503 or no answer; a `PATCH` too, since setting
 * a title twice is setting it once). Failures reject with a `ClientError`: `http` naming the
 * status and the server's code and sentence (404 for the whole list on a server without
 * `identify`, 401 when it finds no principal), `json`/`decode` for a body that is not what the
 * route answers, `transport` when no answer came.
 *
 * @example
 * const transport = new HttpThreadsTransport("/agent");
 * const list = threadList(transport);
 */
export class HttpThreadsTransport extends HttpTransport implements ThreadsTransport {
  /**
   * One page of the caller's threads, most recently updated first.
   *
   * @example
   * const { threads, next } = await transport.listThreads({ limit: 20 });
   */
  listThreads(query: ThreadQuery = {}): Promise<ThreadPage> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    if (query.cursor !== undefined) params.set("cursor", query.cursor);
    if (query.archived !== undefined) params.set("archived", String(query.archived));
    const url = withQuery(this.threadsUrl(), params);
    return this.retried(`GET ${url}`, async () =>
      decodeJson(ThreadPage, await sendJson({ method: "GET", url, headers: await this.listHeaders(), fetch: this.fetch() }, serverRefusal), `GET ${url}`),
    );
  }

  /**
   * Renames and/or (un)archives one thread; resolves the row as it is now.
   *
   * @example
   * await transport.updateThread("t1", { title: "Lisbon, final plan" });
   */
  updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadSummary> {
    const url = this.threadsUrl(encodeURIComponent(threadId));
    const body = JSON.stringify(patch);
    return this.retried(`PATCH ${url}`, async () =>
      decodeJson(
        ThreadSummary,
        await sendJson({ method: "PATCH", url, headers: await this.listHeaders(threadId), body, fetch: this.fetch() }, serverRefusal),
        `PATCH ${url}`,
      ),
    );
  }

  /**
   * Deletes one thread (a live run of it is stopped): `true` when the server deleted it (204),
   * `false` when it does not know it (404 `not-found`: already deleted, or never this caller's).
   *
   * @example
   * await transport.deleteThread("t1"); // true
   */
  deleteThread(threadId: string): Promise<boolean> {
    const url = this.threadsUrl(encodeURIComponent(threadId));
    return this.retried(`DELETE ${url}`, async () => {
      try {
        await sendJson({ method: "DELETE", url, headers: await this.listHeaders(threadId), fetch: this.fetch() }, serverRefusal);
        return true;
      } catch (error) {
        // the route's own 404 (its JSON refusal); a 404 of a server without the list has another code and stays an error
        if (ClientError.isInstance(error) && error.status === 404 && error.code === "not-found") return false;
        throw error;
      }
    });
  }

  /**
   * The caller's list changes, live (`threadEventStream`): `opened` on every (re)connection, then
   * the changes; reconnects with the transport's `reconnect` count and delay.
   *
   * @example
   * transport.threadEvents().subscribe((item) => console.log(item.type));
   */
  threadEvents(): Observable<ThreadStreamItem> {
    return threadEventStream(
      this.eventsRequest(
        this.threadsUrl("events"),
        () => this.listHeaders(),
        (data, what) => decodeJson(ThreadListEvent, data, what),
      ),
    );
  }

  /** `{url}/threads`, or with `rest` (already percent-encoded) appended (`threadsPath`). */
  private threadsUrl(rest?: string): string {
    return threadsPath(this.url, rest);
  }

  private listHeaders(threadId = ""): Promise<Record<string, string>> {
    return this.headers(threadInput(threadId), "threads");
  }
}

/** `url` with `params` added to its query. */
function withQuery(url: string, params: URLSearchParams): string {
  const parsed = new URL(url);
  for (const [key, value] of params) parsed.searchParams.set(key, value);
  return parsed.href;
}
