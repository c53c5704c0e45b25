/** A thread transport for the Angular tests: the server's rows in one page, and an events stream the test feeds. */
import { Observable, Subject } from "rxjs";
import type { Event } from "agui-rx";
import type { ThreadPage, ThreadPatch, ThreadQuery, ThreadsTransport, ThreadStreamItem, ThreadSummary, Transport } from "agui-rx/client";

/**
 * Answers the list's requests from `rows` and counts the open events streams.
 *
 * @example
 * const transport = new FeedThreads([row]);
 * transport.events.next({ type: "opened", attempt: 0 });
 */
export class FeedThreads implements ThreadsTransport, Transport {
  readonly events = new Subject<ThreadStreamItem>();
  open = 0;
  constructor(public rows: ThreadSummary[]) {}
  run(): Observable<Event> {
    throw new Error("FeedThreads runs nothing");
  }
  async listThreads(_query?: ThreadQuery): Promise<ThreadPage> {
    return { threads: this.rows };
  }
  async updateThread(threadId: string, patch: ThreadPatch): Promise<ThreadSummary> {
    const found = this.rows.find((thread) => thread.threadId === threadId);
    if (found === undefined) throw new Error(`expected a known thread, but got ${threadId}`);
    return { ...found, ...patch, updatedAt: found.updatedAt + 1 };
  }
  async deleteThread(threadId: string): Promise<boolean> {
    this.rows = this.rows.filter((thread) => thread.threadId !== threadId);
    return true;
  }
  threadEvents(): Observable<ThreadStreamItem> {
    return new Observable<ThreadStreamItem>((subscriber) => {
      this.open++;
      const inner = this.events.subscribe(subscriber);
      return () => {
        this.open--;
        inner.unsubscribe();
      };
    });
  }
}
