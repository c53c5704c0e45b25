/** recordRun: a run's events logged in batches and passed on with their cursors, its heartbeat, and how it ends. */
import { PROTOCOL_VERSION } from "../../../src/protocol/version";
import { concat, from, lastValueFrom, Observable, of, Subject, take, throwError, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { AppendTally } from "../../../src/server/store/AppendTally";
import { nextMacrotask, recordRun } from "../../../src/server/store/recordRun";
import type { RunWriter, StoredEvent } from "../../../src/server/store/ThreadStore";
import { run, sequentialIds, success, type Agent } from "../../../src/server";
import { ManualClock } from "./manualClock";

const LEASE = 1000;
const RENEW = 300;
const input = runAgentInput("t", "r1");
const started = ev.runStarted("t", "r1", { protocolVersion: PROTOCOL_VERSION }); // as the driver sends it, and the store logs it
const finished = ev.runFinished("t", "r1", { outcome: { type: "success" } });

async function setup() {
  const clock = new ManualClock();
  const store = memoryStore({ clock, lease: LEASE });
  const writer = await store.beginRun(input);
  const batches: number[] = [];
  const counting: RunWriter = { ...writer, append: (events) => (batches.push(events.length), writer.append(events)) };
  const log = () => lastValueFrom(store.tail("t", writer.started.cursor).pipe(toArray()));
  return { clock, store, writer: counting, batches, log };
}

const collect = (source: Observable<StoredEvent>) => lastValueFrom(source.pipe(toArray()));

/** Lets pending promise callbacks run (the store's answers), a bounded number of event-loop turns. */
async function settle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

const chatty: Agent = {
  async run(ctx) {
    for (let i = 0; i < 50; i++) ctx.say(`line ${i}`);
    return success();
  },
};

test("a run's events are logged in batches, not one by one, and each is passed on with the cursor it was logged under", async () => {
  const { writer, batches, log } = await setup();
  const out = await collect(run(chatty, input, { ids: sequentialIds("x") }).pipe(recordRun(writer)));
  const logged = [writer.started, ...(await log())];
  expect(out.map((s) => s.event)).toEqual(logged.map((s) => s.event));
  expect(out).toEqual(logged);
  expect(out).toHaveLength(1 + 50 * 3 + 1);
  expect(batches.length).toBeLessThan(10); // 151 events after RUN_STARTED
  expect(batches.reduce((a, b) => a + b, 0)).toBe(151);
});

test("a tally counts each batch once as it is logged: batches, events, the largest, and the store's time", async () => {
  const { writer, batches } = await setup();
  let now = 0;
  const tally = new AppendTally(() => (now += 2)); // every batch takes 2 ms on this clock
  await collect(run(chatty, input, { ids: sequentialIds("x") }).pipe(recordRun(writer, { tally })));
  expect(tally.batches).toBe(batches.length);
  expect(tally.events).toBe(151);
  expect(tally.largestBatch).toBe(Math.max(...batches));
  expect(tally.attributes()).toEqual({
    "agui_rx.store.batches": batches.length,
    "agui_rx.store.events": 151,
    "agui_rx.store.largest_batch": Math.max(...batches),
    "agui_rx.store.append_ms": 2 * batches.length,
    "agui_rx.store.slowest_append_ms": 2,
    "agui_rx.store.failed_appends": 0,
  });
});

test("a tally counts a refused batch", async () => {
  const { writer } = await setup();
  const tally = new AppendTally();
  const refusing: RunWriter = { ...writer, append: () => Promise.reject(new Error("store down")) };
  await expect(collect(from([started, ev.custom("n", 1), finished]).pipe(recordRun(refusing, { tally })))).rejects.toThrow("store down");
  expect(tally.failed).toBe(1);
  expect(tally.batches).toBe(0);
});

test("the source's RUN_STARTED is not logged twice; one naming another run errors the output and lets a synchronous source go", async () => {
  const { writer, batches } = await setup();
  const first = await collect(from([started, finished]).pipe(recordRun(writer)));
  expect(first).toEqual([writer.started, { cursor: expect.any(String), event: finished }]);
  expect(batches).toEqual([1]);

  const other = await setup();
  let sent = 0;
  const source = new Observable<Event>((subscriber) => {
    for (let i = 0; i < 100 && !subscriber.closed; i++) {
      sent++;
      subscriber.next(i === 0 ? ev.runStarted("t", "someone-else") : ev.custom("n", i));
    }
  });
  await expect(collect(source.pipe(recordRun(other.writer)))).rejects.toMatchObject({
    code: "invalid-append",
    message: expect.stringContaining('its RUN_STARTED names run "someone-else"'),
  });
  expect(sent).toBe(1);
  expect(other.batches).toEqual([]);
});

test("a source that does not start with RUN_STARTED gets the logged one first", async () => {
  const { writer } = await setup();
  const out = await collect(from([ev.custom("hello", 1), finished]).pipe(recordRun(writer)));
  expect(out.map((s) => s.event.type)).toEqual(["RUN_STARTED", "CUSTOM", "RUN_FINISHED"]);
  expect(out[0]).toBe(writer.started);
});

test("after the terminal event nothing more is taken: a synchronous source is let go, and the output completes once it is logged", async () => {
  const { writer, log } = await setup();
  let sent = 0;
  const source = new Observable<Event>((subscriber) => {
    for (const event of [started, finished, ev.custom("late", 1), ev.custom("later", 2)]) {
      if (subscriber.closed) break;
      sent++;
      subscriber.next(event);
    }
  });
  const out = await collect(source.pipe(recordRun(writer)));
  expect(sent).toBe(2);
  expect(out.map((s) => s.event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect((await log()).map((s) => s.event)).toEqual([finished]);
});

test.each<[string, Observable<Event>, string]>([
  [
    "fails",
    concat(
      of(started),
      throwError(() => new Error("socket gone")),
    ),
    "STREAM_ERROR",
  ],
  ["completes without a terminal event", of(started, ev.custom("n", 1)), "TRUNCATED"],
])("a source that %s has a RUN_ERROR logged for it, so the run ends in the store too", async (_name, source, code) => {
  const { writer, store, log } = await setup();
  const out = await collect(source.pipe(recordRun(writer)));
  const last = out[out.length - 1].event;
  expect(last).toMatchObject({ type: "RUN_ERROR", code });
  expect((await log()).map((s) => s.event)).toEqual(out.slice(1).map((s) => s.event));
  const read = await store.read("t");
  expect(read?.kind === "snapshot" && read.snapshot.run).toMatchObject({ status: "failed", errorCode: code });
});

test("the heartbeat keeps a quiet run alive; once unsubscribed, the lease runs out and the run is ended ABANDONED", async () => {
  const { clock, store, writer, log } = await setup();
  const source = new Subject<Event>();
  const out: StoredEvent[] = [];
  const subscription = source.pipe(recordRun(writer, { clock, renewEvery: RENEW })).subscribe((stored) => out.push(stored));
  source.next(started);
  for (let i = 0; i < 20; i++) {
    clock.advance(RENEW); // 6 leases in all
    await settle();
  }
  const read = await store.read("t");
  expect(read?.kind === "snapshot" && read.snapshot.run.status).toBe("running");
  subscription.unsubscribe();
  expect(source.observed).toBe(false);
  clock.advance(LEASE);
  expect((await log()).map((s) => s.event)).toEqual([expect.objectContaining({ type: "RUN_ERROR", code: "ABANDONED" })]);
  expect(out).toEqual([writer.started]);
});

test("a renewal that finds the run over errors the output with run-ended and lets the source go", async () => {
  const { clock, writer } = await setup();
  const source = new Subject<Event>();
  const done = collect(source.pipe(recordRun(writer, { clock, renewEvery: RENEW })));
  source.next(started);
  clock.jump(LEASE); // past the deadline before any heartbeat (a blocked event loop)
  clock.advance(RENEW);
  await expect(done).rejects.toMatchObject({ code: "run-ended" });
  expect(source.observed).toBe(false);
});

test("a refused append errors the output with the store's error and lets the source go", async () => {
  const { clock, writer } = await setup();
  const source = new Subject<Event>();
  const done = collect(source.pipe(recordRun(writer, { clock, renewEvery: LEASE * 10 })));
  source.next(started);
  clock.advance(LEASE); // the store ends the run ABANDONED; the heartbeat is too rare to have saved it
  source.next(ev.custom("too late", 1));
  await expect(done).rejects.toMatchObject({ code: "run-ended" });
  expect(source.observed).toBe(false);
});

test("unsubscribing while an append is pending emits nothing more and stops the heartbeat", async () => {
  const { clock, writer } = await setup();
  const source = new Subject<Event>();
  const out: StoredEvent[] = [];
  const subscription = source.pipe(recordRun(writer, { clock, renewEvery: RENEW })).subscribe((stored) => out.push(stored));
  source.next(started);
  source.next(ev.custom("pending", 1));
  subscription.unsubscribe();
  await settle();
  expect(out).toEqual([writer.started]);
  expect(clock.pending).toBe(1); // only the store's lease timer is left
});

test("a subscriber that unsubscribes from inside a synchronous source's emission stops the source there", async () => {
  const { writer, batches } = await setup();
  let sent = 0;
  const source = new Observable<Event>((subscriber) => {
    for (let i = 0; i < 100 && !subscriber.closed; i++) {
      sent++;
      subscriber.next(i === 0 ? started : ev.custom("n", i));
    }
  });
  const out = await lastValueFrom(source.pipe(recordRun(writer), take(1), toArray()));
  expect(out).toEqual([writer.started]);
  expect(sent).toBe(1);
  expect(batches).toEqual([]);
});

describe("batching by turns of the event loop", () => {
  /** A deferral the test runs by hand: `run()` sends the waiting batch. */
  function manualDefer() {
    const waiting: (() => void)[] = [];
    let cancelled = 0;
    const defer = (callback: () => void) => {
      waiting.push(callback);
      return () => {
        cancelled++;
        waiting.splice(waiting.indexOf(callback), 1);
      };
    };
    return { defer, waiting, cancelled: () => cancelled, run: () => waiting.splice(0).forEach((callback) => callback()) };
  }

  test("a paced producer (a microtask between events, as awaiting ready() is) has its events of one turn logged in one append", async () => {
    const { writer, batches, log } = await setup();
    const paced = new Observable<Event>((subscriber) => {
      void (async () => {
        subscriber.next(started);
        for (let i = 0; i < 200; i++) {
          await Promise.resolve(); // a ready() that resolves at once
          subscriber.next(ev.custom("n", i));
        }
        subscriber.next(finished);
        subscriber.complete();
      })();
    });
    const out = await collect(paced.pipe(recordRun(writer)));
    expect(batches).toEqual([201]); // every event of the turn, the terminal too, in one append
    expect(out).toEqual([writer.started, ...(await log())]);
  });

  test("nothing is appended before the turn is over; what arrives while an append is pending goes as soon as it resolves", async () => {
    const { writer, batches } = await setup();
    const turns = manualDefer();
    const source = new Subject<Event>();
    const out: StoredEvent[] = [];
    source.pipe(recordRun(writer, { defer: turns.defer })).subscribe((stored) => out.push(stored));
    source.next(started);
    source.next(ev.custom("a", 1));
    source.next(ev.custom("b", 2));
    expect(batches).toEqual([]);
    expect(turns.waiting).toHaveLength(1); // one wait per turn, however many events
    turns.run();
    expect(batches).toEqual([2]);
    source.next(ev.custom("c", 3)); // the append is pending: this waits for it, not for a turn
    expect(turns.waiting).toHaveLength(0);
    await settle(1);
    expect(batches).toEqual([2, 1]);
    expect(out.map((stored) => stored.event.type)).toEqual(["RUN_STARTED", "CUSTOM", "CUSTOM", "CUSTOM"]);
  });

  test("unsubscribing cancels the wait: nothing is appended", async () => {
    const { writer, batches } = await setup();
    const turns = manualDefer();
    const source = new Subject<Event>();
    const subscription = source.pipe(recordRun(writer, { defer: turns.defer })).subscribe();
    source.next(started);
    source.next(ev.custom("a", 1));
    subscription.unsubscribe();
    expect(turns.cancelled()).toBe(1);
    expect(turns.waiting).toHaveLength(0);
    expect(batches).toEqual([]);
  });

  test("a writer whose append throws (instead of rejecting) errors the output in that later turn, never uncaught", async () => {
    const { writer } = await setup();
    const throwing: RunWriter = {
      ...writer,
      append: () => {
        throw new Error("the writer broke");
      },
    };
    await expect(collect(of(started, ev.custom("a", 1), finished).pipe(recordRun(throwing)))).rejects.toThrow("the writer broke");
  });
});

test("nextMacrotask runs its callback after the microtasks of this turn, on setTimeout where there is no setImmediate (edge runtimes), and cancels", async () => {
  const order: string[] = [];
  nextMacrotask(() => order.push("macrotask"));
  void Promise.resolve().then(() => order.push("microtask"));
  const cancelled = nextMacrotask(() => order.push("cancelled"));
  cancelled();
  await settle(2);
  expect(order).toEqual(["microtask", "macrotask"]);

  // Without setImmediate it is setTimeout(…, 0), cleared on cancel (spied on, not waited for).
  const saved = globalThis.setImmediate;
  Reflect.deleteProperty(globalThis, "setImmediate");
  const timeouts = jest.spyOn(globalThis, "setTimeout");
  const clears = jest.spyOn(globalThis, "clearTimeout");
  try {
    const callback = () => undefined;
    const cancel = nextMacrotask(callback);
    expect(timeouts).toHaveBeenCalledWith(callback, 0);
    cancel();
    expect(clears).toHaveBeenCalledWith(timeouts.mock.results[0].value);
  } finally {
    globalThis.setImmediate = saved;
    timeouts.mockRestore();
    clears.mockRestore();
  }
  expect(order).toEqual(["microtask", "macrotask"]);
});

test("a renewal that answers 'not live' after the terminal was queued does not fail the run: the output completes once the terminal is logged", async () => {
  const { clock, writer, log } = await setup();
  let answer: ((live: boolean) => void) | undefined;
  const renewing: RunWriter = { ...writer, renewLease: () => new Promise<boolean>((resolve) => (answer = resolve)) };
  const source = new Subject<Event>();
  const done = collect(source.pipe(recordRun(renewing, { clock, renewEvery: RENEW })));
  source.next(started);
  clock.advance(RENEW); // the heartbeat asks; its answer is pending
  expect(answer).toBeDefined();
  source.next(finished); // the terminal is queued: from here the recording only drains
  answer?.(false);
  const out = await done;
  expect(out.map((stored) => stored.event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  expect((await log()).map((stored) => stored.event)).toEqual([finished]);
});
