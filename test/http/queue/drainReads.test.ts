/**
 * What the drain at a stored run's end reads (docs/queue.md#who-starts-a-waiting-message): with
 * nothing waiting, one look at the thread's last message (`limit: 1`), so that a run reads its
 * whole thread once, for the anchor check at its start (docs/threads.md#bench); the whole thread
 * only when a waiting message may start.
 */
import { memoryStore, type MemoryStore } from "../../../src/server/store/memory/memoryStore";
import { ManualClock } from "../../server/store/manualClock";
import { closeAll, serveStored } from "../durable/support";
import { noticeOf, post, readQueued, scriptedAgent, sendInput, statuses } from "./support";

afterEach(closeAll);

/** The store, with the `limit` of every `read` noted (`"all"` for the whole thread), in order. */
function notingReads(): { readonly store: MemoryStore; readonly reads: (number | "all")[] } {
  const inner = memoryStore();
  const reads: (number | "all")[] = [];
  const store = Object.create(inner) as MemoryStore; // every other member from the store itself
  store.read = (threadId, after, options) => {
    reads.push(options?.limit ?? "all");
    return inner.read(threadId, after, options);
  };
  return { store, reads };
}

test("runs with nothing waiting read their whole thread once each, at their start; the drain at their end looks at one message", async () => {
  const { store, reads } = notingReads();
  const { agent } = scriptedAgent();
  const { url } = await serveStored(agent, { store, clock: new ManualClock() });
  await (await post(url, sendInput("r1", "first"))).rest();
  await (await post(url, sendInput("r2", "second"))).rest();
  await (await post(url, sendInput("r3", "third"))).rest();
  // each run's drain has looked before the next post's read (the post waits on the HTTP round trip)
  expect(reads.slice(0, 5)).toEqual(["all", 1, "all", 1, "all"]);
  // the last run's look may come after its answer ended; never a second read of the whole thread
  expect(reads.slice(5).every((limit) => limit === 1)).toBe(true);
});

test("a run's end with a message waiting: the drain looks at one message, then reads the whole thread and starts it", async () => {
  const { store, reads } = notingReads();
  const { agent, script } = scriptedAgent();
  const { url } = await serveStored(agent, { store, clock: new ManualClock() });
  const first = await post(url, sendInput("r1", "hold"));
  await script.reached("r1");
  const waiting = await post(url, sendInput("r2", "meanwhile", "queue"));
  await waiting.until(noticeOf("queued"));
  const before = reads.length;
  script.release("r1");
  await first.rest();
  expect(statuses(await readQueued(await waiting.rest())).slice(-1)).toEqual(["started"]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r2"]);
  // r1's drain: a look, then the whole thread for the anchor check of r2, which then starts
  expect(reads.slice(before, before + 2)).toEqual([1, "all"]);
});
