/**
 * The run's trace in the RUN_STARTED a store logs (docs/observability.md#traces, `BeginOptions.runTrace`),
 * on a real Redis and in the memory store alike: written beside a fork marker, read back by another
 * store instance's tail, and absent (no `metadata` at all) when the run is not traced.
 */
import { firstValueFrom } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import { runTraceOf } from "../../../src/protocol/runTraceMeta";
import { forkMarkerOf } from "../../../src/protocol/branchMeta";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { contractRedisStores } from "../support/contractStores";
import { ManualClock } from "../../server/store/manualClock";

const TRACE = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
const [makeRedis, closeRedis] = contractRedisStores("runTrace");
const opened: ThreadStore[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await closeRedis(store);
});

async function redisPair(): Promise<[ThreadStore, ThreadStore]> {
  const options = { clock: new ManualClock(), lease: 10_000, maxRunsPerThread: 100 };
  const first = await makeRedis(options);
  const second = await makeRedis(options);
  opened.push(first, second);
  return [first, second];
}

describe.each([
  ["redisStore", redisPair],
  [
    "memoryStore",
    (): Promise<[ThreadStore, ThreadStore]> => {
      const store = memoryStore();
      return Promise.resolve([store, store]);
    },
  ],
])("%s", (_name, pair) => {
  test("the logged RUN_STARTED carries the run's trace, beside a fork marker, and another instance's tail reads it", async () => {
    const [store, other] = await pair();
    const threadId = `trace-${Math.random().toString(36).slice(2)}`;
    const first = await store.beginRun(runAgentInput(threadId, "r1", { messages: [{ id: "u1", role: "user", content: "hi" }] }));
    expect(first.started.event.metadata).toBeUndefined(); // untraced: unchanged
    const [end] = await first
      .append([ev.textMessageStart("a1"), ev.textMessageContent("a1", "Hello."), ev.textMessageEnd("a1"), ev.runFinished(threadId, "r1")])
      .then((cursors) => cursors.slice(-1));

    const second = await store.beginRun(
      runAgentInput(threadId, "r2", {
        messages: [
          { id: "u1", role: "user", content: "hi" },
          { id: "u2", role: "user", content: "again" },
        ],
      }),
      {
        runTrace: TRACE,
        forkAfter: "u1",
      },
    );
    expect(runTraceOf(second.started.event.metadata)).toEqual(TRACE);
    expect(forkMarkerOf(second.started.event.metadata)).toBeDefined();
    const logged = await firstValueFrom(other.tail(threadId, end));
    expect(logged.event).toMatchObject({ type: "RUN_STARTED", runId: "r2" });
    expect(runTraceOf(logged.event.metadata)).toEqual(TRACE);
  });
});
