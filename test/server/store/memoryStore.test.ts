/** What only the memory store promises (docs/durability.md): its bounds, LRU eviction, cursor incarnations, and in-order delivery under reentrancy. */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import { StoreError } from "../../../src/server/store/StoreError";
import type { StoredEvent, ThreadRead } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "./manualClock";
import { refusedOrNot } from "./refusedOrNot";
import { asLogged } from "../../support/storedEvents";

const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];
const finished = (threadId: string, runId: string): Event => ev.runFinished(threadId, runId, { outcome: { type: "success" } });
const user = (id: string) => ({ id, role: "user" as const, content: `question ${id}` });

async function fullRun(store: MemoryStore, threadId: string, runId: string, body: Event[] = text(`${runId}-a`, "answer")) {
  const writer = await store.beginRun(runAgentInput(threadId, runId, { messages: [user(`${runId}-u`)] }));
  const cursors = await writer.append([...body, finished(threadId, runId)]);
  return { writer, cursors: [writer.started.cursor, ...cursors] };
}

function kind(read: ThreadRead | undefined): string {
  return read === undefined ? "unknown" : read.kind;
}

async function refusal(promise: Promise<unknown>): Promise<StoreError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!StoreError.isInstance(error)) throw new Error(`expected a StoreError, got ${String(error)}`);
  return error;
}

describe("threads bound", () => {
  test("a new thread beyond maxThreads evicts the least recently used idle thread, whose waiting tail errors", async () => {
    const store = memoryStore({ maxThreads: 2 });
    await fullRun(store, "a", "r1");
    const b = await fullRun(store, "b", "r1");
    const waiting = lastValueFrom(store.tail("b", b.cursors[b.cursors.length - 1]).pipe(toArray()));
    await store.read("a"); // a is now the more recently used
    await fullRun(store, "c", "r1");
    expect(kind(await store.read("b"))).toBe("unknown");
    expect(kind(await store.read("a"))).toBe("snapshot");
    expect((await refusal(waiting)).code).toBe("evicted");
    expect(store.stats().threads).toBe(2);
  });

  test("when every thread has a live run there is no room: beginRun rejects with capacity, and succeeds once one ends", async () => {
    const store = memoryStore({ maxThreads: 1 });
    const writer = await store.beginRun(runAgentInput("a", "r1"));
    const error = await refusal(store.beginRun(runAgentInput("b", "r1")));
    expect(error).toMatchObject({ code: "capacity", threadId: "b" });
    expect(error.message).toContain("all 1 threads (maxThreads) have a live run");
    await writer.append([finished("a", "r1")]);
    await expect(store.beginRun(runAgentInput("b", "r1"))).resolves.toMatchObject({ threadId: "b" });
    expect(kind(await store.read("a"))).toBe("unknown");
  });
});

describe("bytes bound", () => {
  test("ended runs' events go first, least recently used thread first; then whole idle threads; never a live run's events: it ends RUN_TOO_LARGE", async () => {
    const max = 5_000;
    const store = memoryStore({ maxBytes: max, maxRunBytes: max }); // a run as large as the store, to see everything else go
    const big = (id: string) => text(id, "x".repeat(400));
    const a1 = await fullRun(store, "a", "r1", big("a1"));
    const a2 = await fullRun(store, "a", "r2", big("a2"));
    const b1 = await fullRun(store, "b", "r1", big("b1"));
    // Looking through tails, which (unlike reads) do not count as use.
    const retained = (threadId: string, cursor: string): boolean => {
      let ok = true;
      store
        .tail(threadId, cursor)
        .subscribe({ error: () => (ok = false) })
        .unsubscribe();
      return ok;
    };
    const held = () => ({
      a1: retained("a", a1.cursors[1]),
      a2: retained("a", a2.cursors[1]),
      b1: retained("b", b1.cursors[1]),
      threads: store.stats().threads,
    });
    const d = await store.beginRun(runAgentInput("d", "r1"));
    await d.append([ev.textMessageStart("d1")]);
    const seen: ReturnType<typeof held>[] = [held()];
    for (let i = 0; i < 200 && store.stats().threads > 1; i++) {
      await d.append([ev.textMessageContent("d1", "y".repeat(200))]);
      expect(store.stats().bytes).toBeLessThanOrEqual(max);
      const now = held();
      if (JSON.stringify(now) !== JSON.stringify(seen[seen.length - 1])) seen.push(now);
    }
    expect(seen).toEqual([
      { a1: true, a2: true, b1: true, threads: 3 },
      { a1: false, a2: true, b1: true, threads: 3 }, // the oldest ended run of the least recently used thread
      { a1: false, a2: false, b1: true, threads: 3 },
      { a1: false, a2: false, b1: false, threads: 3 },
      { a1: false, a2: false, b1: false, threads: 2 }, // then idle threads, a first
      { a1: false, a2: false, b1: false, threads: 1 },
    ]);
    expect(await store.read("a")).toBeUndefined();
    expect(await store.read("b")).toBeUndefined();
    // never the live run's own events (they used to be trimmed): it ends RUN_TOO_LARGE at its bound, every cursor still there
    const early = d.started.cursor;
    let refused: StoreError | undefined;
    for (let i = 0; i < 200 && refused === undefined; i++) refused = await refusedOrNot(d.append([ev.textMessageContent("d1", "y".repeat(200))]));
    expect(refused?.code).toBe("run-too-large");
    expect(retained("d", early)).toBe(true);
    expect(store.stats().bytes).toBeLessThanOrEqual(max + 1_000); // maxBytes, but for the RUN_TOO_LARGE end the store logged itself
  });

  test("a live run longer than its bound is never trimmed: it ends RUN_TOO_LARGE, every cursor of it resumes, and the fold stays whole", async () => {
    const store = memoryStore({ maxBytes: 4_000, maxRunBytes: 4_000 });
    const writer = await store.beginRun(runAgentInput("long", "r1"));
    await writer.append([ev.textMessageStart("m1")]);
    const early = (await writer.append([ev.textMessageContent("m1", "first ")]))[0];
    let content = "first ";
    let refused: StoreError | undefined;
    for (let i = 0; i < 100 && refused === undefined; i++) {
      refused = await refusedOrNot(writer.append([ev.textMessageContent("m1", `chunk${i} `)]));
      if (refused === undefined) content += `chunk${i} `;
      expect(store.stats().bytes).toBeLessThanOrEqual(4_000 + 1_000);
    }
    expect(refused?.code).toBe("run-too-large");
    const resumed = await store.read("long", early);
    if (resumed?.kind !== "resume") throw new Error("expected the cursor path: a live run's events are never dropped");
    expect(resumed.events[resumed.events.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: "RUN_TOO_LARGE" });
    const read = await store.read("long");
    if (read?.kind !== "snapshot") throw new Error("expected the snapshot path");
    expect(read.snapshot.messages).toEqual([{ id: "m1", role: "assistant", content }]);
    expect(read.snapshot.run).toMatchObject({ status: "failed", errorCode: "RUN_TOO_LARGE" });
  });
});

describe("cursors", () => {
  test("a cursor from another store (a restarted process) or from an evicted and recreated thread reads as unknown: the snapshot path", async () => {
    const before = memoryStore();
    const old = await fullRun(before, "t", "r1");
    const after = memoryStore();
    await after.beginRun(runAgentInput("t", "r2"));
    expect(kind(await after.read("t", old.cursors[1]))).toBe("snapshot");

    const store = memoryStore({ maxThreads: 1 });
    const first = await store.beginRun(runAgentInput("t", "r1"));
    const live = await first.append(text("m1", "a"));
    await first.append([finished("t", "r1")]);
    await fullRun(store, "other", "r1"); // evicts t
    const again = await store.beginRun(runAgentInput("t", "r2")); // t again, evicting other
    await again.append(text("m2", "b"));
    expect(kind(await store.read("t", live[0]))).toBe("snapshot");
  });
});

describe("delivery", () => {
  test("a live tail gets each event with its JSON text, the one its bytes were counted by; the log keeps the event alone", async () => {
    const store = memoryStore();
    const writer = await store.beginRun(runAgentInput("t", "r1"));
    const live: StoredEvent[] = [];
    store.tail("t", writer.started.cursor).subscribe((stored) => live.push(stored));
    const before = store.stats().bytes;
    const events = [...text("m1", 'a \u2028 "quoted"'), ev.custom("n", { nested: [1, null] })];
    await writer.append(events);
    expect(live.map((stored) => stored.event)).toEqual(events);
    expect(live.map((stored) => stored.json)).toEqual(events.map((event) => JSON.stringify(event)));
    // the texts are the unit of the bound: a live run counts their lengths for its log and as much again for its fold
    const logged = events.reduce((sum, event) => sum + JSON.stringify(event).length, 0);
    expect(store.stats().bytes - before).toBe(2 * logged);
    const read = await store.read("t", writer.started.cursor);
    expect(read?.kind === "resume" && read.events.every((stored) => stored.json === undefined)).toBe(true);
  });

  test("a tail whose subscriber appends, and a tail subscribed during a delivery, each see every event once, in order, never re-entered", async () => {
    const store = memoryStore();
    const writer = await store.beginRun(runAgentInput("t", "r1"));
    const first: StoredEvent[] = [];
    const late: StoredEvent[] = [];
    let nested = false;
    let depth = 0;
    let deepest = 0;
    store.tail("t", writer.started.cursor).subscribe((stored) => {
      depth++;
      deepest = Math.max(deepest, depth);
      first.push(stored);
      if (!nested && stored.event.type === "TEXT_MESSAGE_START") {
        nested = true;
        store.tail("t", stored.cursor).subscribe((s) => late.push(s)); // subscribes mid-delivery
        void writer.append([ev.custom("appended-while-delivering", 1)]); // appends mid-delivery
      }
      depth--;
    });
    await writer.append(text("m1", "a"));
    await writer.append([finished("t", "r1")]);
    const log = await lastValueFrom(store.tail("t", writer.started.cursor).pipe(toArray()));
    expect(log.map((s) => s.event.type)).toEqual(["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "CUSTOM", "RUN_FINISHED"]);
    // Live, each event came with its JSON text; read from the log afterwards, without.
    expect(first.map(asLogged)).toEqual(log);
    expect(late.map(asLogged)).toEqual(log.slice(1));
    expect(deepest).toBe(1); // what is appended during a delivery waits until it returns: no subscriber is re-entered
  });
});

describe("bad input and bookkeeping", () => {
  test("an event that is not JSON refuses its batch, naming it, and logs nothing", async () => {
    const store = memoryStore();
    const writer = await store.beginRun(runAgentInput("t", "r1"));
    const error = await refusal(writer.append([ev.custom("ok", 1), ev.custom("bad", { n: BigInt(1) })]));
    expect(error.code).toBe("invalid-append");
    expect(error.message).toContain("the CUSTOM at index 1 does not serialize");
    expect(await store.read("t", writer.started.cursor)).toEqual({ kind: "resume", after: writer.started.cursor, events: [] });
  });

  test.each(["maxThreads", "maxRunsPerThread", "maxBytes", "lease"] as const)("%s must be a positive number", (name) => {
    expect(() => memoryStore({ [name]: 0 })).toThrow(`memoryStore: expected ${name} to be a positive number, but got 0`);
  });

  test("no lease timer outlives its run", async () => {
    const clock = new ManualClock();
    const store = memoryStore({ clock, lease: 1000 });
    await fullRun(store, "a", "r1");
    const writer = await store.beginRun(runAgentInput("b", "r1"));
    expect(clock.pending).toBe(1);
    clock.advance(500);
    await writer.append(text("m1", "a"));
    clock.advance(700); // the first timer finds the deadline moved and sets one more
    expect(clock.pending).toBe(1);
    await writer.append([finished("b", "r1")]);
    expect(clock.pending).toBe(0);
    expect(store.stats()).toMatchObject({ threads: 2, liveRuns: 0 });
  });
});
