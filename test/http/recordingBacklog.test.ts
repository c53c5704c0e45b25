/** RecordingBacklog: a stored run's producer paced by the events still waiting for the store, and failed past the hard bound (issue #20 A4). */
import { Subject } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { RecordingBacklog } from "../../src/server/http/RecordingBacklog";
import { StoreError } from "../../src/server/store/StoreError";
import type { StoredEvent } from "../../src/server/store/ThreadStore";

const run = { threadId: "t1", runId: "r1" };
const delta = (i: number): Event => ev.textMessageContent("m1", `${i}`);
const stored = (i: number): StoredEvent => ({ cursor: `${i}-0`, event: delta(i) });

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

test("ready waits while paceAt events wait for the store, and goes on once one of them is logged", async () => {
  const backlog = new RecordingBacklog(run, { paceAt: 3, failAt: 10 });
  const taken = new Subject<Event>();
  const logged = new Subject<StoredEvent>();
  let turns = 0;
  const ready = backlog.pace(async () => void turns++);
  taken.pipe(backlog.taken()).subscribe();
  logged.pipe(backlog.logged()).subscribe();

  for (let i = 0; i < 2; i++) taken.next(delta(i));
  expect(await settled(ready())).toBe(true); // 2 waiting: below the bound
  taken.next(delta(2));
  const waiting = ready();
  expect(await settled(waiting)).toBe(false); // 3 waiting: the producer waits
  logged.next(stored(0));
  expect(await settled(waiting)).toBe(true);
  expect(turns).toBe(2); // and then the response's own pace, as before
});

test("a producer that goes on past failAt fails the recording with a clear capacity error; a waiting producer is let go when the recording ends", async () => {
  const backlog = new RecordingBacklog(run, { paceAt: 2, failAt: 4 });
  const taken = new Subject<Event>();
  const logged = new Subject<StoredEvent>();
  let failure: unknown;
  taken.pipe(backlog.taken()).subscribe({ error: (error: unknown) => (failure = error) });
  const recording = logged.pipe(backlog.logged()).subscribe();
  for (let i = 0; i < 5; i++) taken.next(delta(i));
  if (!StoreError.isInstance(failure)) throw new Error(`expected a StoreError, but got ${String(failure)}`);
  expect({ code: failure.code, message: failure.message, runId: failure.runId }).toEqual({
    code: "capacity",
    message: 'expected at most 4 events of run "r1" waiting for the store (a producer awaits ready() while 2 do), but the producer went on without waiting',
    runId: "r1",
  });

  const waiting = backlog.pace(async () => undefined)();
  expect(await settled(waiting)).toBe(false);
  recording.unsubscribe();
  expect(await settled(waiting)).toBe(true);
});
