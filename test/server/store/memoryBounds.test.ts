/**
 * memoryStore's byte rule (docs/durability.md §6), one clause per block: live runs count as they
 * are appended; a run holds at most `maxRunBytes` (and no more than its thread's history leaves)
 * and then ends RUN_TOO_LARGE; eviction frees only what a write needs, in the documented order,
 * never a live run; the total stays within maxBytes plus one maxRunBytes. Then issue #20's
 * scenario: 20 small threads and a 2 MB answer into maxBytes 1 MiB.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { isTerminal } from "../../../src/thread/isTerminal";
import { memoryStore, RUN_TOO_LARGE_ERROR_CODE, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import { StoreError } from "../../../src/server/store/StoreError";
import type { RunWriter, StoredEvent } from "../../../src/server/store/ThreadStore";
import { refusedOrNot } from "./refusedOrNot";

const MiB = 1024 * 1024;
const size = (value: unknown): number => JSON.stringify(value).length;
const sizes = (events: readonly Event[]): number => events.reduce((total, event) => total + size(event), 0);
const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];
const finished = (threadId: string, runId: string): Event => ev.runFinished(threadId, runId, { outcome: { type: "success" } });
const user = (id: string, content = `question ${id}`): Message => ({ id, role: "user", content });

async function fullRun(store: MemoryStore, threadId: string, runId: string, content = "answer"): Promise<void> {
  const writer = await store.beginRun(runAgentInput(threadId, runId, { messages: [user(`${threadId}-${runId}-u`)] }));
  await writer.append([...text(`${threadId}-${runId}-a`, content), finished(threadId, runId)]);
}

/** Appends `chunk`-sized deltas to an open message until the store refuses one (at most `limit` bytes of text); returns the refusal and the text accepted. */
async function growUntilRefused(writer: RunWriter, messageId: string, chunk: number, limit: number, check: () => void = () => undefined) {
  let accepted = "";
  for (let i = 0; accepted.length < limit; i++) {
    const delta = String.fromCharCode(97 + (i % 26)).repeat(chunk);
    const refused = await refusedOrNot(writer.append([ev.textMessageContent(messageId, delta)]));
    check();
    if (refused !== undefined) return { refused, accepted };
    accepted += delta;
  }
  return { refused: undefined, accepted };
}

/** The figures a per-run refusal names: what the run held, and what its batch would have added. */
function figures(refused: StoreError | undefined): { readonly held: number; readonly incoming: number } {
  const match = /it holds (\d+) and its next batch would take (\d+) bytes more$/.exec(refused?.message ?? "");
  if (match === null) throw new Error(`expected a per-run refusal, got ${refused?.message}`);
  return { held: Number(match[1]), incoming: Number(match[2]) };
}

/** Whether the store still holds `threadId`, looked at through `tail` (which, unlike `read`, is no use: the LRU order stays). */
function held(store: MemoryStore, threadId: string, cursor: string): boolean {
  let ok = true;
  store
    .tail(threadId, cursor)
    .subscribe({ error: () => (ok = false) })
    .unsubscribe();
  return ok;
}

describe("live runs count as they are appended", () => {
  test("a batch counts its JSON text twice (its log entries, its growth of the compacted state), the RUN_STARTED its input's new messages; at the end the state is measured instead", async () => {
    const store = memoryStore();
    const question = user("u1");
    const writer = await store.beginRun(runAgentInput("t", "r1", { messages: [question] }));
    const started = size(writer.started.event);
    expect(store.stats()).toMatchObject({ liveRuns: 1, liveRunBytes: started + size(question), bytes: started + size(question) });
    const answer = text("m1", "Hello there.");
    await writer.append(answer);
    const live = started + size(question) + 2 * sizes(answer);
    expect(store.stats()).toMatchObject({ liveRunBytes: live, bytes: live });

    await writer.append([finished("t", "r1")]);
    const read = await store.read("t");
    if (read?.kind !== "snapshot") throw new Error("expected the snapshot path");
    const logged = started + sizes(answer) + size(finished("t", "r1"));
    const measured = size({ messages: read.snapshot.messages, state: read.snapshot.state });
    expect(store.stats()).toMatchObject({ liveRuns: 0, liveRunBytes: 0, bytes: logged + measured });

    // the next run's input repeats the thread's message: already there, it adds nothing
    const second = await store.beginRun(runAgentInput("t", "r2", { messages: [question, user("u2")] }));
    expect(store.stats().liveRunBytes).toBe(size(second.started.event) + size(user("u2")));
  });
});

describe("a run holds at most maxRunBytes", () => {
  test("by default a quarter of maxBytes: the batch that would pass it is refused run-too-large, naming the limit and the run, and logs nothing; one RUN_ERROR RUN_TOO_LARGE ends the run", async () => {
    const store = memoryStore({ maxBytes: 8_000 }); // maxRunBytes 2,000
    const writer = await store.beginRun(runAgentInput("t", "r1"));
    const log = lastValueFrom(store.tail("t", writer.started.cursor).pipe(toArray()));
    await writer.append([ev.textMessageStart("m1")]);
    const { refused, accepted } = await growUntilRefused(writer, "m1", 100, 10_000, () => expect(store.stats().liveRunBytes).toBeLessThanOrEqual(2_000));
    expect(refused).toMatchObject({ code: "run-too-large", threadId: "t", runId: "r1" });
    expect(refused?.message).toMatch(
      /^expected run "r1" of thread "t" to stay within maxRunBytes \(2000 bytes\).*but it holds \d+ and its next batch would take \d+ bytes more$/,
    );
    const { held, incoming } = figures(refused);
    expect(held).toBeLessThanOrEqual(2_000); // it ran until the bound, not before
    expect(held + incoming).toBeGreaterThan(2_000);

    const events: StoredEvent[] = await log; // the tail ends with the run
    const ends = events.filter((stored) => isTerminal(stored.event));
    expect(ends.map((stored) => stored.event)).toEqual([{ type: "RUN_ERROR", code: RUN_TOO_LARGE_ERROR_CODE, message: refused?.message }]);
    expect(events[events.length - 1]).toBe(ends[0]);
    const deltas = events.flatMap((stored) => (stored.event.type === "TEXT_MESSAGE_CONTENT" ? [stored.event.delta] : []));
    expect(deltas.join("")).toBe(accepted); // nothing of the refused batch
    const read = await store.read("t");
    expect(read?.kind === "snapshot" && read.snapshot.run).toMatchObject({ status: "failed", errorCode: RUN_TOO_LARGE_ERROR_CODE });
    expect(store.stats()).toMatchObject({ liveRuns: 0, liveRunBytes: 0, tooLargeRuns: 1 });
    expect((await refusedOrNot(writer.append([ev.textMessageEnd("m1")])))?.code).toBe("run-ended");
    await expect(writer.renewLease()).resolves.toBe(false);
  });

  test("maxRunBytes given is the limit; it may not exceed maxBytes", async () => {
    const store = memoryStore({ maxBytes: 8_000, maxRunBytes: 6_000 });
    const writer = await store.beginRun(runAgentInput("t", "r1"));
    await writer.append([ev.textMessageStart("m1")]);
    const { refused } = await growUntilRefused(writer, "m1", 100, 10_000);
    expect(refused?.message).toContain("maxRunBytes (6000 bytes)");
    expect(figures(refused).held).toBeGreaterThan(8_000 / 4); // past the default
    expect(() => memoryStore({ maxBytes: 1_000, maxRunBytes: 1_001 })).toThrow("memoryStore: expected maxRunBytes to be at most maxBytes (1000), but got 1001");
    expect(() => memoryStore({ maxRunBytes: 0 })).toThrow("memoryStore: expected maxRunBytes to be a positive number, but got 0");
  });

  test("a RUN_STARTED whose input's new messages alone pass the limit is refused run-too-large: nothing is logged, no thread is made", async () => {
    const store = memoryStore({ maxBytes: 4_000 }); // maxRunBytes 1,000
    const refused = await refusedOrNot(store.beginRun(runAgentInput("t", "r1", { messages: [user("u1", "x".repeat(1_200))] })));
    expect(refused).toMatchObject({ code: "run-too-large", threadId: "t", runId: "r1" });
    expect(refused?.message).toContain("maxRunBytes (1000 bytes)");
    expect(await store.read("t")).toBeUndefined();
    expect(store.stats()).toMatchObject({ threads: 0, bytes: 0 });
  });

  test("a thread's compacted history never passes maxBytes: its runs are refused at what the history leaves, and the thread stays", async () => {
    const store = memoryStore({ maxBytes: 10_000, maxRunBytes: 4_000 });
    let refused: StoreError | undefined;
    let runs = 0;
    while (refused === undefined && runs < 20) {
      runs++;
      let writer: RunWriter;
      try {
        writer = await store.beginRun(runAgentInput("long", `r${runs}`));
      } catch (error) {
        if (!StoreError.isInstance(error)) throw error;
        refused = error; // the RUN_STARTED alone no longer fits beside the history
        break;
      }
      await writer.append([ev.textMessageStart(`m${runs}`)]);
      const grown = await growUntilRefused(writer, `m${runs}`, 100, 1_000);
      refused = grown.refused;
      if (refused === undefined) await writer.append([ev.textMessageEnd(`m${runs}`), finished("long", `r${runs}`)]);
      expect(store.stats().bytes).toBeLessThanOrEqual(10_000 + 4_000);
    }
    expect(refused?.code).toBe("run-too-large");
    expect(refused?.message).toMatch(/leaves under maxBytes \(10000\)/);
    expect(runs).toBeGreaterThan(3); // earlier runs had room
    const read = await store.read("long");
    if (read?.kind !== "snapshot") throw new Error("expected the thread to stay");
    expect(size({ messages: read.snapshot.messages, state: read.snapshot.state })).toBeLessThanOrEqual(10_000);
    expect(store.stats()).toMatchObject({ threads: 1, evictedThreads: 0 });
  });
});

describe("eviction frees only what the incoming bytes need", () => {
  test("ended runs' events first (cursors then take the snapshot path), then the least recently used idle threads, as few as fit; never one with a live run", async () => {
    const max = 12_000;
    const store = memoryStore({ maxBytes: max, maxRunBytes: max });
    const parked = await store.beginRun(runAgentInput("parked", "r1")); // the least recently used thread, but live
    await parked.append(text("p1", "waiting"));
    const cursors = new Map<string, string>();
    for (let i = 0; i < 10; i++) {
      await fullRun(store, `idle-${i}`, "r1", "y".repeat(200));
      const read = await store.read(`idle-${i}`);
      if (read?.kind === "snapshot") cursors.set(`idle-${i}`, read.snapshot.cursor);
    }
    const recent = await store.read("idle-0"); // now the most recently used idle thread
    if (recent?.kind !== "snapshot") throw new Error("expected the snapshot path");
    const snapshotOf = size({ messages: recent.snapshot.messages, state: recent.snapshot.state }); // what each idle thread holds once its run's events are gone
    expect(store.stats().bytes).toBeLessThan(max);

    const writer = await store.beginRun(runAgentInput("big", "r1"));
    await writer.append([ev.textMessageStart("m1")]);
    await writer.append([ev.textMessageContent("m1", "z".repeat(4_800))]); // needs more room than all ended runs' events make
    const after = store.stats();
    expect(after.bytes).toBeLessThanOrEqual(max);
    expect(after.droppedRunLogs).toBe(10); // every idle thread's ended run went before any thread did
    expect(after.evictedThreads).toBeGreaterThan(1);
    // as few threads as fit: keeping one more would not have
    expect(after.bytes + snapshotOf).toBeGreaterThan(max);
    const gone = [...cursors.keys()].filter((threadId) => !held(store, threadId, cursors.get(threadId) ?? ""));
    const lru = ["idle-1", "idle-2", "idle-3", "idle-4", "idle-5", "idle-6", "idle-7", "idle-8", "idle-9", "idle-0"];
    expect(gone).toEqual(lru.slice(0, after.evictedThreads).sort()); // the least recently used ones
    expect(held(store, "parked", parked.started.cursor)).toBe(true);
    const kept = await store.read("idle-9");
    expect(kept?.kind === "snapshot" && kept.snapshot.messages.map((message) => message.content)).toEqual(["question idle-9-r1-u", "y".repeat(200)]);
  });

  test("when live runs hold the rest, nothing is evicted: the batch is refused run-too-large and its run ends; beginRun answers capacity", async () => {
    const max = 6_000;
    const store = memoryStore({ maxBytes: max, maxRunBytes: 4_000 });
    await fullRun(store, "idle", "r1");
    const a = await store.beginRun(runAgentInput("a", "r1"));
    await a.append([ev.textMessageStart("a1"), ev.textMessageContent("a1", "a".repeat(1_300))]);
    const b = await store.beginRun(runAgentInput("b", "r1"));
    await b.append([ev.textMessageStart("b1"), ev.textMessageContent("b1", "b".repeat(900))]);
    const { bytes, liveRunBytes } = store.stats();
    const idleBytes = bytes - liveRunBytes; // the idle thread is all that may go
    const batch = [ev.textMessageContent("b1", "b".repeat(600))];
    expect(bytes + 2 * sizes(batch) - max).toBeGreaterThan(idleBytes); // it cannot fit however much goes
    const refused = await refusedOrNot(b.append(batch));
    expect(refused?.code).toBe("run-too-large");
    expect(refused?.message).toMatch(
      /^expected room for \d+ more bytes of run "r1" of thread "b", but the store holds \d+ of its maxBytes \(6000\) and may free only \d+/,
    );
    expect(store.stats()).toMatchObject({ evictedThreads: 0, droppedRunLogs: 0, liveRuns: 1 });
    expect((await store.read("idle"))?.kind).toBe("snapshot");
    expect((await store.read("b"))?.kind === "snapshot").toBe(true);

    // a new run's RUN_STARTED with an input larger than the room left, with a's run live: 503 capacity, nothing logged
    const full = memoryStore({ maxBytes: 2_000, maxRunBytes: 1_800 });
    const c = await full.beginRun(runAgentInput("c", "r1"));
    await c.append([ev.textMessageStart("c1"), ev.textMessageContent("c1", "c".repeat(700))]);
    const capacity = await refusedOrNot(full.beginRun(runAgentInput("d", "r1", { messages: [user("u", "d".repeat(600))] })));
    expect(capacity?.code).toBe("capacity");
    expect(await full.read("d")).toBeUndefined();
  });
});

test("issue #20's scenario: 20 small threads, then a 2 MB answer into maxBytes 1 MiB — the big run ends RUN_TOO_LARGE and every small thread is still readable", async () => {
  const store = memoryStore({ maxBytes: MiB });
  for (let i = 0; i < 20; i++) await fullRun(store, `small-${i}`, "r1");
  const writer = await store.beginRun(runAgentInput("big", "r1", { messages: [user("big-u")] }));
  const log = lastValueFrom(store.tail("big", writer.started.cursor).pipe(toArray()));
  await writer.append([ev.textMessageStart("m1")]);
  const within = (): void => expect(store.stats().bytes).toBeLessThanOrEqual(MiB + MiB / 4);
  const { refused, accepted } = await growUntilRefused(writer, "m1", 16 * 1024, 2 * MiB, within);
  expect(refused?.code).toBe("run-too-large");
  expect(refused?.message).toContain(`maxRunBytes (${MiB / 4} bytes)`);
  expect(accepted.length).toBeLessThan(MiB / 8); // counted twice: its events and its growth of the compacted state

  const events = await log;
  expect(events[events.length - 1].event).toMatchObject({ type: "RUN_ERROR", code: "RUN_TOO_LARGE" });
  for (let i = 0; i < 20; i++) {
    const read = await store.read(`small-${i}`);
    if (read?.kind !== "snapshot") throw new Error(`expected small-${i} to be readable, but the store answered ${read === undefined ? "unknown" : read.kind}`);
    expect(read.snapshot.messages.map((message) => message.content)).toEqual([`question small-${i}-r1-u`, "answer"]);
  }
  const big = await store.read("big");
  expect(big?.kind === "snapshot" && big.snapshot.run).toMatchObject({ status: "failed", errorCode: "RUN_TOO_LARGE" });
  const stats = store.stats();
  expect(stats).toMatchObject({ threads: 21, liveRuns: 0, liveRunBytes: 0, evictedThreads: 0, tooLargeRuns: 1 });
  expect(stats.bytes).toBeLessThanOrEqual(MiB);
});
