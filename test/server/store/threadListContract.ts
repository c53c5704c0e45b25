/**
 * The thread-list rows of the owned-threads contract (docs/threads.md#the-thread-list): `list`
 * order and cursor pages, the archived filter, `running` and the lease, `lastMessage`, titles,
 * `update`, and `listEvents`. Called by `describeOwnedThreads` with the running test's store.
 */
import { ev } from "../../../src/protocol/build";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import type { ThreadListEvent, ThreadSummary } from "../../../src/thread/threadList";
import { defaultTitle, previewOf } from "../../../src/thread/threadTitle";
import { assistant, begin, expectRefused, finished, newOwner, newThreadId, nextValues, text, turn, user, type OwnedContext } from "./ownedThreadsSupport";

async function rows(store: ThreadStore, owner: string, archived?: boolean): Promise<ThreadSummary[]> {
  const page = await store.list({ owner }, { limit: 100, archived });
  expect(page.next).toBeUndefined();
  return [...page.threads];
}

async function rowOf(store: ThreadStore, owner: string, threadId: string): Promise<ThreadSummary | undefined> {
  return (await rows(store, owner)).find((row) => row.threadId === threadId);
}

/** What a list event says, in one line: its type and thread (and the title or running flag when they matter). */
function said(event: ThreadListEvent): string {
  return "thread" in event
    ? `${event.type} ${event.thread.threadId} "${event.thread.title}" ${event.thread.running ? "running" : "idle"}`
    : `${event.type} ${event.threadId}`;
}

/** The thread-list sections, against the store `ctx()` gives the running test. */
export function describeThreadList(ctx: () => OwnedContext): void {
  describe("the thread list", () => {
    test("most recently updated first, ties by thread id; createdAt stays, updatedAt moves on run start and run end", async () => {
      const { store, clock } = ctx();
      const owner = newOwner();
      const base = newThreadId();
      const [a, b, c] = [`${base}-a`, `${base}-b`, `${base}-c`];
      await turn(store, owner, b, 1);
      clock.advance(10);
      await turn(store, owner, c, 1);
      await turn(store, owner, a, 1);
      expect((await rows(store, owner)).map((row) => [row.threadId, row.createdAt, row.updatedAt])).toEqual([
        [a, 10, 10],
        [c, 10, 10],
        [b, 0, 0],
      ]);
      clock.advance(10);
      const writer = await begin(store, owner, b, "r2");
      expect(await rowOf(store, owner, b)).toMatchObject({ createdAt: 0, updatedAt: 20, running: true });
      clock.advance(5);
      await writer.append([finished(b, "r2")]);
      expect((await rows(store, owner)).map((row) => [row.threadId, row.createdAt, row.updatedAt, row.running])).toEqual([
        [b, 0, 25, false],
        [a, 10, 10, false],
        [c, 10, 10, false],
      ]);
    });

    test("cursor pages neither skip nor repeat while threads are created and updated between pages; the last page has no next", async () => {
      const { store, clock } = ctx();
      const owner = newOwner();
      const base = newThreadId();
      for (const [i, at] of [0, 0, 1, 2, 2, 2, 3].entries()) {
        clock.advance(at - clock.now());
        await turn(store, owner, `${base}-${i}`, 1);
      }
      const whole = (await rows(store, owner)).map((row) => row.threadId);
      expect(whole).toHaveLength(7);
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const answer = await store.list({ owner }, { limit: 3, cursor });
        seen.push(...answer.threads.map((row) => row.threadId));
        sizes.push(answer.threads.length);
        cursor = answer.next;
        if (cursor === undefined) break;
        clock.advance(1); // between pages: a new thread, a seen one renamed, a seen one run again
        await turn(store, owner, `${base}-new-${page}`, 1);
        await store.update(seen[0], { title: `renamed ${page}` }, { owner });
        await turn(store, owner, seen[seen.length - 1], 2);
      }
      expect(seen).toEqual(whole);
      expect(sizes).toEqual([3, 3, 1]);
      const one = await store.list({ owner }, { limit: 9 }); // the 7, and one new thread after each of the first two pages
      expect(one.threads).toHaveLength(9);
      expect(one.next).toBeUndefined(); // exactly full: no empty page after it
    });

    test("archived threads are listed only with archived: true; unarchiving brings a thread back, updated", async () => {
      const { store, clock } = ctx();
      const owner = newOwner();
      const [kept, archived] = [newThreadId(), newThreadId()];
      await turn(store, owner, kept, 1);
      await turn(store, owner, archived, 1);
      clock.advance(10);
      expect(await store.update(archived, { archived: true }, { owner })).toMatchObject({ threadId: archived, archived: true, updatedAt: 10 });
      expect((await rows(store, owner)).map((row) => row.threadId)).toEqual([kept]);
      expect((await rows(store, owner, true)).map((row) => [row.threadId, row.archived])).toEqual([[archived, true]]);
      clock.advance(10);
      await store.update(archived, { archived: false }, { owner });
      expect((await rows(store, owner)).map((row) => [row.threadId, row.archived, row.updatedAt])).toEqual([
        [archived, false, 20],
        [kept, false, 0],
      ]);
      expect(await rows(store, owner, true)).toEqual([]);
    });

    test("running is true only while a run is live and its producer holds the lease", async () => {
      const { store, clock, lease } = ctx();
      const [owner, threadId] = [newOwner(), newThreadId()];
      const writer = await begin(store, owner, threadId, "r1");
      expect(await rowOf(store, owner, threadId)).toMatchObject({ running: true });
      clock.jump(lease - 1);
      expect(await writer.renewLease()).toBe(true);
      clock.jump(lease - 1);
      expect(await rowOf(store, owner, threadId)).toMatchObject({ running: true });
      clock.jump(2); // the lease ran out, and no timer has noticed yet: a dead producer's thread is not shown running
      expect(await rowOf(store, owner, threadId)).toMatchObject({ running: false });
      const next = await begin(store, owner, threadId, "r2");
      expect(await rowOf(store, owner, threadId)).toMatchObject({ running: true });
      await next.append([finished(threadId, "r2")]);
      expect(await rowOf(store, owner, threadId)).toMatchObject({ running: false });
    });

    test("lastMessage previews the last message with text; a thread without any has none", async () => {
      const { store } = ctx();
      const owner = newOwner();
      const [talked, silent] = [newThreadId(), newThreadId()];
      const long = `Here is the plan: ${"walk along the river and then ".repeat(8)}rest.`;
      const writer = await begin(store, owner, talked, "r1", [user("u1", "plan it")]);
      await writer.append([...text("a1", long), ev.toolCallStart("tc1", "map", { parentMessageId: "a2" }), ev.toolCallEnd("tc1")]);
      await writer.append([finished(talked, "r1")]);
      const preview = previewOf([assistant("a1", long)]);
      expect(preview?.preview.endsWith("…")).toBe(true);
      expect((await rowOf(store, owner, talked))?.lastMessage).toEqual(preview);
      const quiet = await begin(store, owner, silent, "r1");
      await quiet.append([finished(silent, "r1")]);
      const row = await rowOf(store, owner, silent);
      expect(row).toMatchObject({ title: "" });
      expect(row?.lastMessage).toBeUndefined();
    });

    test("titles: the first user message by default, the agent's setTitle over it, and the owner's rename over both from then on", async () => {
      const { store, clock } = ctx();
      const [owner, threadId] = [newOwner(), newThreadId()];
      const question = `Could you please plan a long weekend in Lisbon for two people who love food and old trams?`;
      const first = await begin(store, owner, threadId, "r1", [{ id: "s1", role: "system", content: "Be brief." }, user("u1", question)]);
      expect(await rowOf(store, owner, threadId)).toMatchObject({ title: defaultTitle([user("u1", question)]) });
      expect(defaultTitle([user("u1", question)]).length).toBeLessThan(question.length);
      clock.advance(5);
      await first.setTitle("Lisbon weekend");
      expect(await rowOf(store, owner, threadId)).toMatchObject({ title: "Lisbon weekend", updatedAt: 5 });
      await first.append([finished(threadId, "r1")]);
      await expectRefused(first.setTitle("too late"), "run-ended");
      const second = await begin(store, owner, threadId, "r2");
      await second.setTitle("Lisbon, food and trams");
      await second.append([finished(threadId, "r2")]);
      expect(await rowOf(store, owner, threadId)).toMatchObject({ title: "Lisbon, food and trams" });
      clock.advance(5);
      expect(await store.update(threadId, { title: "Our trip" }, { owner })).toMatchObject({ threadId, title: "Our trip", updatedAt: 10 });
      const third = await begin(store, owner, threadId, "r3");
      await third.setTitle("The agent's idea");
      await third.append([finished(threadId, "r3")]);
      expect(await rowOf(store, owner, threadId)).toMatchObject({ title: "Our trip" });
    });

    test("update renames and archives at once and answers the row as it is now; an unknown thread answers undefined and is not created", async () => {
      const { store, clock } = ctx();
      const [owner, threadId, unknown] = [newOwner(), newThreadId(), newThreadId()];
      await turn(store, owner, threadId, 1);
      clock.advance(3);
      const row = await store.update(threadId, { title: "Both", archived: true }, { owner });
      expect(row).toEqual((await rows(store, owner, true))[0]);
      expect(row).toMatchObject({ threadId, title: "Both", archived: true, createdAt: 0, updatedAt: 3, running: false });
      expect(await store.update(unknown, { title: "x" }, { owner })).toBeUndefined();
      expect(await store.read(unknown, undefined, { owner })).toBeUndefined();
    });

    test("listEvents: each change of the owner's list as it happens, never another owner's, nothing from before subscribing", async () => {
      const { store } = ctx();
      const [alice, bob, threadId, earlier] = [newOwner(), newOwner(), newThreadId(), newThreadId()];
      await turn(store, alice, earlier, 1); // before subscribing: not replayed
      const hers = nextValues(store.listEvents({ owner: alice }), 9);
      const his = nextValues(store.listEvents({ owner: bob }), 3);
      const bobs = await begin(store, bob, threadId, "r1", [user("b1", "from bob")]);
      await bobs.append([finished(threadId, "r1")]);
      await turn(store, undefined, threadId, 1); // an ownerless thread of the same id: nobody's list
      await store.remove(threadId, { owner: bob });
      const writer = await begin(store, alice, threadId, "r1", [user("u1", "from alice")]);
      await writer.setTitle("Named");
      await writer.append([finished(threadId, "r1")]);
      const again = await begin(store, alice, threadId, "r2");
      await again.append([finished(threadId, "r2")]);
      await store.update(threadId, { title: "Renamed" }, { owner: alice });
      await store.update(threadId, { archived: true }, { owner: alice });
      await store.update(threadId, { archived: false }, { owner: alice });
      await store.remove(threadId, { owner: alice });
      expect((await his).map(said)).toEqual([`created ${threadId} "from bob" running`, `run-ended ${threadId} "from bob" idle`, `deleted ${threadId}`]);
      expect((await hers).map(said)).toEqual([
        `created ${threadId} "from alice" running`,
        `renamed ${threadId} "Named" running`,
        `run-ended ${threadId} "Named" idle`,
        `run-started ${threadId} "Named" running`,
        `run-ended ${threadId} "Named" idle`,
        `renamed ${threadId} "Renamed" idle`,
        `archived ${threadId} "Renamed" idle`,
        `updated ${threadId} "Renamed" idle`,
        `deleted ${threadId}`,
      ]);
    });

    test("listEvents: a run its lease ended ABANDONED is announced as ended, with the row not running", async () => {
      const { store, clock, lease } = ctx();
      const [owner, threadId] = [newOwner(), newThreadId()];
      const events = nextValues(store.listEvents({ owner }), 2);
      await begin(store, owner, threadId, "r1", [user("u1", "hello")]);
      clock.advance(lease);
      expect((await events).map(said)).toEqual([`created ${threadId} "hello" running`, `run-ended ${threadId} "hello" idle`]);
    });
  });
}
