// injectThreads under Angular's own TestBed (docs/client.md#thread-list): the signals follow the list, the calls change it, and the events stream closes with the injector.
import { TestBed } from "@angular/core/testing";
import { threadList, type ThreadSummary } from "agui-rx/client";
import { injectThreads } from "agui-rx/angular";
import { FeedThreads } from "./support/FeedThreads";

const row = (threadId: string, updatedAt: number): ThreadSummary => ({ threadId, title: threadId, createdAt: 1, updatedAt, running: false, archived: false });
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

test("injectThreads: signals of the live list, its calls, and the events stream closed when the injector goes", async () => {
  const transport = new FeedThreads([row("a", 9), row("b", 8)]);
  const list = threadList(transport);
  TestBed.configureTestingModule({});
  const threads = TestBed.runInInjectionContext(() => injectThreads(list));
  expect(transport.open).toBe(1);
  expect(threads.hasMore()).toBe(true);
  transport.events.next({ type: "opened", attempt: 0 });
  await flush();
  expect(threads.threads().map((thread) => thread.threadId)).toEqual(["a", "b"]);
  expect(threads.hasMore()).toBe(false);
  transport.events.next({ type: "created", thread: row("c", 10) });
  expect(threads.threads().map((thread) => thread.threadId)).toEqual(["c", "a", "b"]);
  await threads.rename("b", "Beta");
  expect(threads.threads()[0]).toMatchObject({ threadId: "c" });
  expect(threads.threads().find((thread) => thread.threadId === "b")?.title).toBe("Beta");
  await threads.remove("a");
  expect(threads.threads().map((thread) => thread.threadId)).toEqual(["c", "b"]);
  TestBed.resetTestingModule();
  expect(transport.open).toBe(0);
});
