/**
 * `threadList` (docs/client.md#thread-list) against a scripted thread transport: the first page on
 * each (re)connect of the events stream, events applied in between, paging, edits, deletion, one
 * events connection however many views, and nothing left subscribed.
 */
import { ClientError } from "../../../src/thread/ClientError";
import { threadList, type ThreadListSnapshot } from "../../../src/client/threads/threadList";
import { row, ScriptedThreads } from "./ScriptedThreads";

const settle = () => new Promise((resolve) => setImmediate(resolve));
const ids = (snapshot: ThreadListSnapshot) => snapshot.threads.map((thread) => thread.threadId);

describe("threadList", () => {
  it("goes live on subscription: the first page on each (re)connect, events applied in between, one events connection for every view", async () => {
    const server = new ScriptedThreads();
    server.rows = [row("a", 9), row("b", 8)];
    const list = threadList(server, { limit: 10 });
    const seen: ThreadListSnapshot[] = [];
    const one = list.snapshot$.subscribe((snapshot) => seen.push(snapshot));
    const two = list.threads$.subscribe();
    expect(server.subscribers).toBe(1);
    server.events.next({ type: "opened", attempt: 0 });
    await settle();
    expect(ids(list.getSnapshot())).toEqual(["a", "b"]);
    expect(server.queries).toEqual([{ limit: 10, archived: false }]);
    server.events.next({ type: "created", thread: row("c", 10) });
    server.events.next({ type: "deleted", threadId: "a" });
    expect(ids(list.getSnapshot())).toEqual(["c", "b"]);
    // the stream was down while b was deleted and d created: the reconnect's first page says so
    server.rows = [row("d", 11), row("c", 10)];
    server.events.next({ type: "opened", attempt: 1 });
    await settle();
    expect(ids(list.getSnapshot())).toEqual(["d", "c"]);
    expect(seen.some((snapshot) => snapshot.loading)).toBe(true);
    one.unsubscribe();
    expect(server.subscribers).toBe(1);
    two.unsubscribe();
    expect(server.subscribers).toBe(0);
  });

  it("loadMore reads the next page after the cursor until there is none; calls meanwhile share one read", async () => {
    const server = new ScriptedThreads();
    server.rows = Array.from({ length: 5 }, (_, index) => row(`t${index}`, 100 - index));
    const list = threadList(server, { limit: 2 });
    expect(list.getSnapshot().hasMore).toBe(true);
    await list.loadMore();
    expect(ids(list.getSnapshot())).toEqual(["t0", "t1"]);
    await Promise.all([list.loadMore(), list.loadMore()]);
    expect(server.queries.map((query) => query.cursor)).toEqual([undefined, "2"]);
    await list.loadMore();
    expect(ids(list.getSnapshot())).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    expect(list.getSnapshot().hasMore).toBe(false);
    await list.loadMore();
    expect(server.queries.length).toBe(3);
  });

  it("rename, archive and remove show the server's answer at once", async () => {
    const server = new ScriptedThreads();
    server.rows = [row("a", 9), row("b", 8)];
    const list = threadList(server);
    await list.loadMore();
    await list.rename("b", "Lisbon");
    expect(list.getSnapshot().threads.map((thread) => thread.title)).toEqual(["Lisbon", "a"]);
    await list.archive("a");
    expect(ids(list.getSnapshot())).toEqual(["b"]);
    expect(await list.remove("b")).toBe(true);
    expect(ids(list.getSnapshot())).toEqual([]);
    expect(await list.remove("b")).toBe(false);
    await expect(list.rename("zz", "x")).rejects.toMatchObject({ kind: "http", status: 404 });
  });

  it("a failure of the events stream is the snapshot's error, not the Observable's", async () => {
    const server = new ScriptedThreads();
    const list = threadList(server);
    const errors: unknown[] = [];
    list.snapshot$.subscribe({ error: (error: unknown) => errors.push(error) });
    server.events.error(new ClientError("http", "GET /agent/threads/events answered 404 not-found: no list", { status: 404 }));
    expect(list.getSnapshot().error).toMatchObject({ kind: "http", status: 404 });
    expect(errors).toEqual([]);
  });

  it("open makes a Session on the thread over the list's transport, joined with its historyLimit unless join is false", () => {
    const server = new ScriptedThreads();
    const list = threadList(server);
    const session = list.open("t7", { historyLimit: 30 });
    expect(session.threadId).toBe("t7");
    expect(server.connects).toMatchObject([{ threadId: "t7", limit: 30 }]);
    list.open("fresh", { join: false });
    expect(server.connects.length).toBe(1);
  });
});
