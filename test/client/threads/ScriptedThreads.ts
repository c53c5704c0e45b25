/** A thread transport for tests of the list and its hooks: the server's rows in pages, and an events stream the test drives. */
import { Observable, of, Subject } from "rxjs";
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { ClientError } from "../../../src/thread/ClientError";
import type { ThreadPage, ThreadPatch, ThreadSummary } from "../../../src/thread/threadList";
import type { ThreadQuery, ThreadsTransport, ThreadStreamItem } from "../../../src/client/threads/ThreadsTransport";
import type { ConnectRequest, Transport } from "../../../src/client/transports/Transport";

/** A row of the list, `extra` over plain defaults. */
export const row = (threadId: string, updatedAt: number, extra: Partial<ThreadSummary> = {}): ThreadSummary => ({
  threadId,
  title: threadId,
  createdAt: 1,
  updatedAt,
  running: false,
  archived: false,
  ...extra,
});

/** The server's rows, pages of them, and an events stream the test drives. */
export class ScriptedThreads implements ThreadsTransport, Transport {
  rows: ThreadSummary[] = [];
  readonly queries: ThreadQuery[] = [];
  readonly connects: ConnectRequest[] = [];
  events = new Subject<ThreadStreamItem>();
  subscribers = 0;
  run(): Observable<Event> {
    throw new Error("not used");
  }
  connect(request: ConnectRequest): Observable<Event> {
    this.connects.push(request);
    return of(ev.runStarted(request.threadId, "join"), ev.runFinished(request.threadId, "join"));
  }
  async listThreads(query: ThreadQuery = {}): Promise<ThreadPage> {
    this.queries.push(query);
    const limit = query.limit ?? 20;
    const start = query.cursor === undefined ? 0 : Number(query.cursor);
    const threads = this.rows.slice(start, start + limit);
    return start + limit < this.rows.length ? { threads, next: String(start + limit) } : { threads };
  }
  async updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadSummary> {
    const found = this.rows.find((thread) => thread.threadId === threadId);
    if (found === undefined) throw new ClientError("http", "404 not-found", { status: 404, code: "not-found" });
    return { ...found, ...patch, updatedAt: found.updatedAt + 100 };
  }
  async deleteThread(threadId: string): Promise<boolean> {
    const before = this.rows.length;
    this.rows = this.rows.filter((thread) => thread.threadId !== threadId);
    return this.rows.length < before;
  }
  threadEvents(): Observable<ThreadStreamItem> {
    return new Observable<ThreadStreamItem>((subscriber) => {
      this.subscribers++;
      const subscription = this.events.subscribe(subscriber);
      return () => {
        this.subscribers--;
        subscription.unsubscribe();
      };
    });
  }
}
