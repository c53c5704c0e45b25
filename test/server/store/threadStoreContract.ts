/**
 * The ThreadStore contract (docs/durability.md#stores-and-routes) as one suite, run against every store:
 * `describeThreadStore("memoryStore", (options) => memoryStore(options))` here, and the same call
 * with `redisStore` against a real redis-server. Everything goes through the interface; time only
 * moves through the ManualClock the factory is given, so a store must read its leases from it.
 */
import { PROTOCOL_VERSION } from "../../../src/protocol/version";
import { lastValueFrom, toArray, type Observable } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import { StoreError, type StoreErrorCode } from "../../../src/server/store/StoreError";
import type { StoredEvent, ThreadRead, ThreadStore } from "../../../src/server/store/ThreadStore";
import type { ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";
import { ManualClock } from "./manualClock";
import { asLogged } from "../../support/storedEvents";

/** What a store under test is made with. */
export interface ContractStoreOptions {
  readonly clock: ManualClock;
  /** The lease in ms, read from `clock`. */
  readonly lease: number;
  /** Runs whose events a thread keeps; a cursor into an older run takes the snapshot path. */
  readonly maxRunsPerThread: number;
}

/** Makes a fresh store for one test; `close` (optional) releases it after the test. */
export type StoreFactory = (options: ContractStoreOptions) => Promise<ThreadStore> | ThreadStore;

const LEASE = 1000;
const MAX_RUNS = 3;
let threads = 0;
/** Thread ids unique across tests, so stores sharing a backend never see each other's threads. */
const newThread = (): string => `contract-${process.pid}-${Date.now().toString(36)}-${threads++}`;

const user = (id: string, content: string): Message => ({ id, role: "user", content });
const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];
const finished = (threadId: string, runId: string): Event => ev.runFinished(threadId, runId, { outcome: { type: "success" } });

function collect<T>(source: Observable<T>): Promise<T[]> {
  return lastValueFrom(source.pipe(toArray()));
}

/** A tail's events as logged (`asLogged`: the JSON text a live tail may add checked, then left out). */
async function collectTail(source: Observable<StoredEvent>): Promise<StoredEvent[]> {
  return (await collect(source)).map(asLogged);
}

/** Awaits `promise` expecting a StoreError rejection, and returns it (any other outcome fails). */
export async function rejection(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (error) {
    if (StoreError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a StoreError rejection, but the promise resolved");
}

async function expectRefused(promise: Promise<unknown>, code: StoreErrorCode): Promise<StoreError> {
  const error = await rejection(promise);
  expect(error.code).toBe(code);
  return error;
}

function snapshotOf(read: ThreadRead | undefined): ThreadSnapshot {
  if (read?.kind !== "snapshot") throw new Error(`expected the snapshot path, got ${read === undefined ? "an unknown thread" : read.kind}`);
  return read.snapshot;
}

function resumeOf(read: ThreadRead | undefined): readonly StoredEvent[] {
  if (read?.kind !== "resume") throw new Error(`expected the cursor path, got ${read === undefined ? "an unknown thread" : read.kind}`);
  return read.events;
}

/** Runs `describe(name)` with the whole contract against stores from `make`. */
export function describeThreadStore(name: string, make: StoreFactory, close: (store: ThreadStore) => Promise<void> = async () => undefined): void {
  describe(`ThreadStore contract: ${name}`, () => {
    let clock: ManualClock;
    let store: ThreadStore;
    beforeEach(async () => {
      clock = new ManualClock();
      store = await make({ clock, lease: LEASE, maxRunsPerThread: MAX_RUNS });
    });
    afterEach(() => close(store));

    /** Begins a run and appends `batches`; returns the writer and every stored event, RUN_STARTED first. */
    async function logRun(threadId: string, runId: string, batches: readonly (readonly Event[])[], messages: Message[] = []) {
      const writer = await store.beginRun(runAgentInput(threadId, runId, { messages }));
      const stored: StoredEvent[] = [writer.started];
      for (const batch of batches) {
        const cursors = await writer.append(batch);
        expect(cursors).toHaveLength(batch.length);
        batch.forEach((event, i) => stored.push({ cursor: cursors[i], event }));
      }
      return { writer, stored };
    }

    describe("runs and ordering", () => {
      test("beginRun logs the run's RUN_STARTED, folds the input's messages and takes the thread's one live slot", async () => {
        const threadId = newThread();
        const writer = await store.beginRun(runAgentInput(threadId, "r1", { messages: [user("u1", "hello")], parentRunId: "r0" }));
        expect(writer.started.event).toEqual(ev.runStarted(threadId, "r1", { parentRunId: "r0", protocolVersion: PROTOCOL_VERSION }));
        const snapshot = snapshotOf(await store.read(threadId));
        expect(snapshot).toMatchObject({
          threadId,
          cursor: writer.started.cursor,
          messages: [user("u1", "hello")],
          run: { runId: "r1", status: "running", reopen: [] },
        });
        const refused = await expectRefused(store.beginRun(runAgentInput(threadId, "r2")), "run-active");
        expect(refused.message).toContain('run "r1" is still live');
        await writer.append([finished(threadId, "r1")]);
        await expect(store.beginRun(runAgentInput(threadId, "r2"))).resolves.toMatchObject({ runId: "r2" });
      });

      test("batches are logged in call order with one cursor per event, also when appended without waiting", async () => {
        const threadId = newThread();
        const writer = await store.beginRun(runAgentInput(threadId, "r1"));
        const batches = [text("m1", "a"), [ev.stateSnapshot({ n: 1 })], text("m2", "b"), [finished(threadId, "r1")]];
        const results = await Promise.all(batches.map((batch) => writer.append(batch)));
        const expected = batches.flat();
        const read = resumeOf(await store.read(threadId, writer.started.cursor));
        expect(read.map((stored) => stored.event)).toEqual(expected);
        expect(read.map((stored) => stored.cursor)).toEqual(results.flat());
      });

      test("cursors are distinct and strictly increasing: reading after each one gives exactly the events after it", async () => {
        const threadId = newThread();
        const { stored } = await logRun(threadId, "r1", [text("m1", "a"), text("m2", "b"), [finished(threadId, "r1")]]);
        expect(new Set(stored.map((s) => s.cursor)).size).toBe(stored.length);
        for (let i = 0; i < stored.length - 1; i++) {
          expect(resumeOf(await store.read(threadId, stored[i].cursor))).toEqual(stored.slice(i + 1));
        }
      });

      test("reading after a cursor stops at its run's terminal event, even when later runs are logged", async () => {
        const threadId = newThread();
        const first = await logRun(threadId, "r1", [text("m1", "a"), [finished(threadId, "r1")]]);
        await logRun(threadId, "r2", [text("m2", "b"), [finished(threadId, "r2")]]);
        expect(resumeOf(await store.read(threadId, first.stored[1].cursor))).toEqual(first.stored.slice(2));
      });

      test("a cursor with nothing left of its run, and any cursor the store did not make, take the snapshot path", async () => {
        const threadId = newThread();
        const { stored } = await logRun(threadId, "r1", [text("m1", "a"), [finished(threadId, "r1")]]);
        const terminal = stored[stored.length - 1].cursor;
        for (const cursor of [terminal, "", "not-a-cursor", `${terminal}0`, "0", "99999999999999999999", `${stored[0].cursor}\n`]) {
          expect(snapshotOf(await store.read(threadId, cursor)).run).toMatchObject({ runId: "r1", status: "finished" });
        }
        // the end of run 1 is spent once run 2 has started too
        await logRun(threadId, "r2", [text("m2", "b")]);
        expect(snapshotOf(await store.read(threadId, terminal)).run).toMatchObject({ runId: "r2", status: "running" });
      });

      test("a live run read at its last event resumes with nothing yet, and its tail brings the rest", async () => {
        const threadId = newThread();
        const { writer, stored } = await logRun(threadId, "r1", [text("m1", "a")]);
        const last = stored[stored.length - 1].cursor;
        expect(await store.read(threadId, last)).toEqual({ kind: "resume", after: last, events: [] });
        const tail = collectTail(store.tail(threadId, last));
        const cursors = await writer.append([finished(threadId, "r1")]);
        expect(await tail).toEqual([{ cursor: cursors[0], event: finished(threadId, "r1") }]);
      });

      test("an unknown thread reads as undefined, stops as unknown, and cannot be tailed", async () => {
        const threadId = newThread();
        expect(await store.read(threadId)).toBeUndefined();
        expect(await store.read(threadId, "c1")).toBeUndefined();
        expect(await store.stop(threadId, "r1")).toBe("unknown");
        const error = await rejection(collectTail(store.tail(threadId, "c1")));
        expect(error.code).toBe("evicted");
      });
    });

    describe("refused appends log nothing", () => {
      test.each<[string, (threadId: string) => Event[]]>([
        ["a chunk", () => [ev.textMessageChunk({ messageId: "m1", delta: "x" })]],
        ["a second RUN_STARTED", (threadId) => [ev.runStarted(threadId, "r1")]],
        ["an event after the terminal", (threadId) => [ev.stepStarted("a"), finished(threadId, "r1"), ev.custom("late", 1)]],
        ["another run's RUN_FINISHED", (threadId) => [ev.runFinished(threadId, "other")]],
      ])("%s", async (_name, batch) => {
        const threadId = newThread();
        const { writer, stored } = await logRun(threadId, "r1", [text("m1", "a")]);
        const error = await expectRefused(writer.append([ev.custom("fine", 1), ...batch(threadId)]), "invalid-append");
        expect(error.message).toMatch(/expected .+, but /);
        expect(resumeOf(await store.read(threadId, stored[0].cursor))).toEqual(stored.slice(1));
      });

      test("after the terminal event the run is over: append refuses, renewLease answers false", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", [[finished(threadId, "r1")]]);
        await expectRefused(writer.append(text("m9", "late")), "run-ended");
        expect(await writer.renewLease()).toBe(false);
      });
    });

    describe("tails", () => {
      test("every tail gets exactly the events after its cursor, once each and in order, through the terminal, with appends racing its subscription", async () => {
        const threadId = newThread();
        const writer = await store.beginRun(runAgentInput(threadId, "r1"));
        const all: StoredEvent[] = [writer.started];
        const tails: { after: number; done: Promise<StoredEvent[]> }[] = [];
        const follow = (after: number) => tails.push({ after, done: collectTail(store.tail(threadId, all[after].cursor)) });
        follow(0);
        const batches = [
          text("m1", "a"),
          [ev.stateSnapshot({ n: 1 }), ev.stateDelta([{ op: "replace", path: "/n", value: 2 }])],
          text("m2", "b"),
          text("m3", "c"),
          [finished(threadId, "r1")],
        ];
        for (const batch of batches) {
          const pending = writer.append(batch); // a tail subscribes while this append is in flight
          follow(all.length - 1);
          const cursors = await pending;
          batch.forEach((event, i) => all.push({ cursor: cursors[i], event }));
          follow(Math.max(0, all.length - 3));
        }
        for (const tail of tails) expect(await tail.done).toEqual(all.slice(tail.after + 1));
      });

      test("a tail follows only its own thread", async () => {
        const [mine, other] = [newThread(), newThread()];
        const a = await store.beginRun(runAgentInput(mine, "r1"));
        const b = await store.beginRun(runAgentInput(other, "r1"));
        const tail = collectTail(store.tail(mine, a.started.cursor));
        await b.append(text("x1", "theirs"));
        await a.append(text("m1", "mine"));
        await b.append([finished(other, "r1")]);
        await a.append([finished(mine, "r1")]);
        expect((await tail).map((s) => s.event)).toEqual([...text("m1", "mine"), finished(mine, "r1")]);
      });

      test("a tail after a run's terminal event waits for the next run and follows it through its terminal", async () => {
        const threadId = newThread();
        const first = await logRun(threadId, "r1", [[finished(threadId, "r1")]]);
        const tail = collectTail(store.tail(threadId, first.stored[1].cursor));
        const second = await logRun(threadId, "r2", [text("m2", "b"), [finished(threadId, "r2")]]);
        expect(await tail).toEqual(second.stored);
      });

      test("a tail is cold, and unsubscribing stops it", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", []);
        const tail = store.tail(threadId, writer.started.cursor);
        await writer.append(text("m1", "a")); // not subscribed yet: nothing read, and nothing lost either
        const seen: Event[] = [];
        const subscription = tail.subscribe((stored) => seen.push(stored.event));
        await until(() => seen.length === 3);
        subscription.unsubscribe();
        await writer.append([...text("m2", "b"), finished(threadId, "r1")]);
        await collectTail(store.tail(threadId, writer.started.cursor)); // the whole run has been delivered to a tail by now
        expect(seen).toEqual(text("m1", "a"));
      });
    });

    describe("the compacted snapshot", () => {
      test("is what a fresh client builds from the thread's events, each run's RUN_STARTED with its input", async () => {
        const threadId = newThread();
        const interrupt = { id: "i1", reason: "approve" };
        const run1 = [
          text("a1", "hi"),
          [ev.stateSnapshot({ tasks: ["x"] })],
          [ev.runFinished(threadId, "r1", { outcome: { type: "interrupt", interrupts: [interrupt] } })],
        ];
        await logRun(threadId, "r1", run1, [user("u1", "add x")]);
        const afterRun1 = snapshotOf(await store.read(threadId));
        expect(afterRun1).toMatchObject({ interrupts: [interrupt], run: { runId: "r1", status: "interrupted" } });
        const run2 = [
          [ev.toolCallStart("tc1", "search"), ev.toolCallArgs("tc1", '{"q":'), ev.stateDelta([{ op: "add", path: "/tasks/-", value: "y" }])],
          [ev.textMessageStart("a2"), ev.textMessageContent("a2", "par")],
        ];
        const live = await logRun(threadId, "r2", run2, [user("u1", "add x"), user("u2", "and y")]);
        const client = ClientState.untyped();
        for (const event of [ev.runStarted(threadId, "r1", { input: runAgentInput(threadId, "r1", { messages: [user("u1", "add x")] }) }), ...run1.flat()])
          applyEvent(client, event);
        for (const event of [
          ev.runStarted(threadId, "r2", { input: runAgentInput(threadId, "r2", { messages: [user("u1", "add x"), user("u2", "and y")] }) }),
          ...run2.flat(),
        ])
          applyEvent(client, event);
        const snapshot = snapshotOf(await store.read(threadId));
        expect(snapshot.messages).toEqual(client.messages.snapshot());
        expect(snapshot.state).toEqual({ tasks: ["x", "y"] });
        expect(snapshot.interrupts).toEqual([interrupt]); // pending until a RUN_FINISHED replaces them (I3)
        expect(snapshot.cursor).toBe(live.stored[live.stored.length - 1].cursor);
        expect(snapshot.run).toEqual({ runId: "r2", status: "running", reopen: [ev.toolCallStart("tc1", "search"), ev.textMessageStart("a2")] });
      });

      test("keeps the effect of runs whose events were dropped: an old cursor takes the snapshot path with the whole history", async () => {
        const threadId = newThread();
        const runs = [];
        for (let i = 1; i <= MAX_RUNS + 2; i++)
          runs.push(await logRun(threadId, `r${i}`, [text(`a${i}`, `answer ${i}`), [finished(threadId, `r${i}`)]], [user(`u${i}`, `q${i}`)]));
        const snapshot = snapshotOf(await store.read(threadId, runs[0].stored[1].cursor));
        expect(snapshot.messages.map((m) => m.id)).toEqual(runs.map((_, i) => [`u${i + 1}`, `a${i + 1}`]).flat());
        expect(snapshotOf(await store.read(threadId, runs[0].stored[1].cursor)).run.runId).toBe(`r${MAX_RUNS + 2}`);
        // the newest runs are still readable by cursor
        const last = runs[runs.length - 1];
        expect(resumeOf(await store.read(threadId, last.stored[0].cursor))).toEqual(last.stored.slice(1));
        await expectRefused(collectTail(store.tail(threadId, runs[0].stored[1].cursor)), "evicted");
      });

      test("a failed or cancelled last run keeps the thread's full history (ag-ui #2408)", async () => {
        const threadId = newThread();
        await logRun(threadId, "r1", [text("a1", "one"), [finished(threadId, "r1")]], [user("u1", "q1")]);
        await logRun(
          threadId,
          "r2",
          [[ev.textMessageStart("a2"), ev.textMessageContent("a2", "tw"), ev.runError("model down", { code: "UPSTREAM" })]],
          [user("u1", "q1"), user("u2", "q2")],
        );
        const failed = snapshotOf(await store.read(threadId));
        expect(failed.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2"]);
        expect(failed.run).toEqual({ runId: "r2", status: "failed", reopen: [], errorMessage: "model down", errorCode: "UPSTREAM" });
        await logRun(threadId, "r3", [[ev.runFinished(threadId, "r3", { outcome: { type: "cancelled" } })]], [user("u3", "q3")]);
        const cancelled = snapshotOf(await store.read(threadId));
        expect(cancelled.messages.map((m) => m.id)).toEqual(["u1", "a1", "u2", "a2", "u3"]);
        expect(cancelled.run.status).toBe("cancelled");
      });
    });

    describe("leases", () => {
      test("a run whose lease runs out is ended ABANDONED: its tails end, reads show it failed, its writer is refused", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", [[ev.textMessageStart("m1"), ev.textMessageContent("m1", "half")]]);
        const tail = collectTail(store.tail(threadId, writer.started.cursor));
        const stopped = collect(writer.stopRequested);
        clock.advance(LEASE);
        const events = (await tail).map((s) => s.event);
        expect(events[events.length - 1]).toMatchObject({ type: "RUN_ERROR", code: "ABANDONED" });
        expect(snapshotOf(await store.read(threadId)).run).toMatchObject({ runId: "r1", status: "failed", errorCode: "ABANDONED" });
        await expectRefused(writer.append(text("m2", "late")), "run-ended");
        expect(await writer.renewLease()).toBe(false);
        expect(await stopped).toEqual([]);
        await expect(store.beginRun(runAgentInput(threadId, "r2"))).resolves.toMatchObject({ runId: "r2" });
      });

      test("appends and renewals keep a run alive; only a full lease of silence ends it", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", []);
        clock.advance(LEASE - 1);
        await writer.append(text("m1", "a"));
        clock.advance(LEASE - 1);
        expect(await writer.renewLease()).toBe(true);
        clock.advance(LEASE - 1);
        expect(snapshotOf(await store.read(threadId)).run.status).toBe("running");
        clock.advance(1);
        const read = await store.read(threadId);
        expect(snapshotOf(read).run.status).toBe("failed");
      });

      test("whoever notices an expired lease first, and however many notice at once, ABANDONED is logged exactly once", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", [text("m1", "a")]);
        clock.jump(LEASE); // past the deadline, before any timer has run
        const noticed = await Promise.allSettled([
          store.read(threadId),
          store.stop(threadId, "r1"),
          writer.renewLease(),
          writer.append(text("m2", "late")),
          store.read(threadId, writer.started.cursor),
          store.beginRun(runAgentInput(threadId, "r2")),
          store.beginRun(runAgentInput(threadId, "r3")),
        ]);
        clock.advance(LEASE * 3); // and the timers, late
        expect(noticed[1]).toEqual({ status: "fulfilled", value: "ended" });
        expect(noticed[2]).toEqual({ status: "fulfilled", value: false });
        expect(noticed[3]).toMatchObject({ status: "rejected", reason: { code: "run-ended" } });
        const begun = [noticed[5], noticed[6]].filter((result) => result.status === "fulfilled");
        expect(begun).toHaveLength(1); // one run per thread, even when both begin at once
        const log = (await collectTail(store.tail(threadId, writer.started.cursor))).map((s) => s.event);
        expect(log.filter((event) => event.type === "RUN_ERROR")).toEqual([expect.objectContaining({ code: "ABANDONED" })]);
      });
    });

    describe("stop", () => {
      test("reaches the live run's producer, subscribed before or after the request; an ended run answers ended, an unknown one unknown", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", [text("m1", "a")]);
        const before = collect(writer.stopRequested);
        expect(await store.stop(threadId, "r1")).toBe("stopping");
        expect(await before).toEqual([undefined]);
        expect(await collect(writer.stopRequested)).toEqual([undefined]);
        expect(await store.stop(threadId, "r1")).toBe("stopping"); // asking twice is harmless
        expect(await store.stop(threadId, "nope")).toBe("unknown");
        await writer.append([ev.runFinished(threadId, "r1", { outcome: { type: "cancelled" } })]);
        expect(await store.stop(threadId, "r1")).toBe("ended");
      });

      test("stopRequested completes without a value when the run ends unstopped", async () => {
        const threadId = newThread();
        const { writer } = await logRun(threadId, "r1", []);
        const watching = collect(writer.stopRequested);
        await writer.append([finished(threadId, "r1")]);
        expect(await watching).toEqual([]);
        expect(await collect(writer.stopRequested)).toEqual([]);
      });
    });
  });
}

/** Resolves once `condition()` holds, checking after each turn of the event loop (bounded: fails after 1,000 turns). */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error("the condition did not hold within 1,000 event-loop turns");
}
