/** The thread list's pure steps (docs/client.md#thread-list): pages and events merged in any order give the server's order, one row per thread, deletions kept out. */
import { applyEvent, applyPage, compareThreads, emptyRows, withoutThread, withThread } from "../../../src/client/threads/ThreadRows";
import type { ThreadSummary } from "../../../src/thread/threadList";

const row = (threadId: string, updatedAt: number, extra: Partial<ThreadSummary> = {}): ThreadSummary => ({
  threadId,
  title: threadId,
  createdAt: 1,
  updatedAt,
  running: false,
  archived: false,
  ...extra,
});
const ids = (threads: readonly ThreadSummary[]) => threads.map((thread) => thread.threadId);

describe("ThreadRows", () => {
  it("orders like the server: most recently updated first, ties by thread id ascending", () => {
    expect(ids([row("b", 5), row("a", 5), row("c", 9), row("d", 1)].sort(compareThreads))).toEqual(["c", "a", "b", "d"]);
  });

  it("a following page adds its rows and takes its cursor; one row per thread, the more recently updated copy winning", () => {
    const first = applyPage(emptyRows(false), { threads: [row("a", 9), row("b", 8)], next: "8:b" }, true);
    expect(first.next).toBe("8:b");
    // b moved to the top by an event, then a page read before that still has its old copy
    const moved = applyEvent(first, { type: "run-started", thread: row("b", 10, { running: true }) });
    const second = applyPage(moved, { threads: [row("b", 8), row("c", 7)] }, false);
    expect(ids(second.threads)).toEqual(["b", "a", "c"]);
    expect(second.threads[0].running).toBe(true);
    expect(second.next).toBeUndefined();
    expect(second.pages).toBe(2);
  });

  it("the first page read again is the truth for what it covers: a held row missing from it is gone, rows below it stay with the cursor past them", () => {
    let rows = applyPage(emptyRows(false), { threads: [row("a", 9), row("b", 8)], next: "8:b" }, true);
    rows = applyPage(rows, { threads: [row("c", 7), row("d", 6)], next: "6:d" }, false);
    // while the stream was down: b was deleted, e created
    rows = applyPage(rows, { threads: [row("e", 12), row("a", 9), row("c", 7)], next: "7:c" }, true);
    expect(ids(rows.threads)).toEqual(["e", "a", "c", "d"]);
    expect(rows.next).toBe("6:d");
  });

  it("a first page that says nothing follows is the whole list", () => {
    let rows = applyPage(emptyRows(false), { threads: [row("a", 9)], next: "9:a" }, true);
    rows = applyPage(rows, { threads: [row("c", 7)] }, false);
    rows = applyPage(rows, { threads: [row("a", 9)] }, true);
    expect(ids(rows.threads)).toEqual(["a"]);
    expect(rows.next).toBeUndefined();
  });

  it("a thread an event changed while the first page was read is kept, though the page predates it", () => {
    const rows = applyEvent(emptyRows(false), { type: "created", thread: row("new", 20) });
    const after = applyPage(rows, { threads: [row("a", 9)] }, true, new Set(["new"]));
    expect(ids(after.threads)).toEqual(["new", "a"]);
    expect(ids(applyPage(rows, { threads: [row("a", 9)] }, true).threads)).toEqual(["a"]);
  });

  it("a deleted thread stays out of every page and event read before the deletion", () => {
    let rows = applyPage(emptyRows(false), { threads: [row("a", 9), row("b", 8)] }, true);
    rows = applyEvent(rows, { type: "deleted", threadId: "b" });
    expect(ids(rows.threads)).toEqual(["a"]);
    rows = applyPage(rows, { threads: [row("a", 9), row("b", 8)] }, true);
    rows = applyEvent(rows, { type: "run-ended", thread: row("b", 11) });
    expect(ids(rows.threads)).toEqual(["a"]);
  });

  it("remembers at most 1000 deleted ids", () => {
    let rows = emptyRows(false);
    for (let index = 0; index < 1005; index++) rows = withoutThread(rows, `t${index}`);
    expect(rows.deleted.size).toBe(1000);
    expect(rows.deleted.has("t0")).toBe(false);
    expect(rows.deleted.has("t1004")).toBe(true);
  });

  it("an archived thread leaves a list of the others and joins the archived list; unarchived, it comes back", () => {
    const others = applyPage(emptyRows(false), { threads: [row("a", 9), row("b", 8)] }, true);
    const archivedB = row("b", 10, { archived: true });
    expect(ids(applyEvent(others, { type: "archived", thread: archivedB }).threads)).toEqual(["a"]);
    expect(ids(withThread(emptyRows(true), archivedB).threads)).toEqual(["b"]);
    const back = applyEvent(applyEvent(others, { type: "archived", thread: archivedB }), { type: "updated", thread: row("b", 11) });
    expect(ids(back.threads)).toEqual(["b", "a"]);
    // a page of the other list's rows is filtered too
    expect(ids(applyPage(emptyRows(true), { threads: [row("a", 9)] }, true).threads)).toEqual([]);
  });

  it("a rename updates the row in place, keeping one row", () => {
    const rows = applyPage(emptyRows(false), { threads: [row("a", 9), row("b", 8)] }, true);
    const renamed = applyEvent(rows, { type: "renamed", thread: row("b", 12, { title: "Lisbon" }) });
    expect(renamed.threads.map((thread) => thread.title)).toEqual(["Lisbon", "a"]);
  });
});
