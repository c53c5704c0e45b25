/**
 * Readers that never read (issue #20 A2, docs/http.md): a store's frame is encoded once and its
 * bytes shared by every tail, the bytes queued to tails are counted once against `maxTailBytes`
 * (past it a new `/connect` is answered 503 `capacity`, a run never), and a response whose reader
 * took nothing for `idleWriteTimeoutMs` is closed on the handler's clock (virtual time here).
 */
import { Observable } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { createHandler, type RunFunction } from "../../src/server/http/createHandler";
import { IdleWriteError } from "../../src/server/http/IdleWriteError";
import { tailFrames, type TailFrames } from "../../src/server/http/TailFrames";
import { memoryStore, type MemoryStore } from "../../src/server/store/memory/memoryStore";
import type { RunWriter } from "../../src/server/store/ThreadStore";
import { ManualClock } from "../server/store/manualClock";
import { inputFor, until } from "./durable/support";

const never: RunFunction = () => new Observable<Event>(() => undefined);

function post(path: string, body: unknown): Request {
  return new Request(`http://localhost/agent${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
}

/** A live run on `threadId`, written to the store directly (its events reach every tail of the thread). */
async function liveRun(store: MemoryStore, threadId: string): Promise<RunWriter> {
  const writer = await store.beginRun(inputFor(threadId, "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  return writer;
}

/** Opens a `/connect` tail and reads its prelude, through its last frame (the one with an `id:`); the reader is handed back unread further. */
async function openTail(handler: (request: Request) => Promise<Response>, threadId: string): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const response = await handler(post("/connect", { threadId }));
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  let prelude = "";
  while (!/(^|\n)id: /.test(prelude)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`expected a prelude ending with a cursor, but the tail ended after ${JSON.stringify(prelude)}`);
    prelude += new TextDecoder().decode(value);
  }
  expect(prelude).toContain('"RUN_STARTED"');
  return reader;
}

const deltas = (count: number, size: number): Event[] => Array.from({ length: count }, () => ev.textMessageContent("m1", "x".repeat(size)));

describe("shared frames", () => {
  test("two tails of one run are handed the very same bytes for a frame, which the pool holds and counts once", async () => {
    const store = memoryStore();
    const pool = tailFrames();
    const handler = createHandler(never, { store, tailFrames: pool });
    const writer = await liveRun(store, "t1");
    const [a, b] = [await openTail(handler, "t1"), await openTail(handler, "t1")];
    const reads = [a.read(), b.read()]; // both wait for the next frame
    await writer.append([ev.textMessageContent("m1", "shared")]);
    const [chunkA, chunkB] = await Promise.all(reads);
    expect(new TextDecoder().decode(chunkA.value)).toMatch(/^id: .+\ndata: \{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"shared"\}\n\n$/);
    expect(chunkA.value).toBe(chunkB.value); // one encoding, one buffer
    // unread, both queue the next 10 frames: the pool holds each once
    await writer.append(deltas(10, 100));
    expect(pool.frames).toBe(10);
    const oneFrame = new TextEncoder().encode(`data: ${JSON.stringify(ev.textMessageContent("m1", "x".repeat(100)))}\n\n`).byteLength;
    expect(pool.queuedBytes).toBeGreaterThan(10 * oneFrame); // each frame has its own id: line too
    expect(pool.queuedBytes).toBeLessThan(10 * (oneFrame + 40));
    await a.cancel();
    expect(pool.frames).toBe(10); // b still holds them
    await b.cancel();
    expect(pool.queuedBytes).toBe(0);
    expect(pool.frames).toBe(0);
  });
});

describe("the tail budget (maxTailBytes)", () => {
  test("past it a new /connect is answered 503 capacity with Retry-After, a run is still served, and room comes back as tails let go", async () => {
    const store = memoryStore();
    const pool = tailFrames();
    const handler = createHandler(never, { store, tailFrames: pool, maxTailBytes: 50_000 });
    const writer = await liveRun(store, "t2");
    const tails = [await openTail(handler, "t2"), await openTail(handler, "t2")];
    await writer.append(deltas(40, 1000)); // 40 kB queued twice, counted once: within the budget
    expect(pool.queuedBytes).toBeGreaterThan(40_000);
    expect(pool.queuedBytes).toBeLessThan(50_000);
    const third = await openTail(handler, "t2");
    await writer.append(deltas(20, 1000)); // now past it
    expect(pool.queuedBytes).toBeGreaterThan(50_000);

    const refused = await handler(post("/connect", { threadId: "t2" }));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toMatchObject({ error: "capacity", message: expect.stringContaining("maxTailBytes") });
    const run = await handler(post("", inputFor("t3", "r1")));
    expect(run.status).toBe(200); // a run's own response is never refused by the budget
    await run.body!.cancel();

    for (const tail of [...tails, third]) await tail.cancel();
    expect(pool.queuedBytes).toBe(0);
    const again = await handler(post("/connect", { threadId: "t2" }));
    expect(again.status).toBe(200);
    await again.body!.cancel();
    // the run on t3 outlives its response (a store detaches): stop it, so that no heartbeat of it outlives the test
    expect(await store.stop("t3", "r1")).toBe("stopping");
    await until(() => store.stats().liveRuns === 1, "the stopped run to end (the one on t2 stays live)");
  });
});

describe("the idle-write timeout (idleWriteTimeoutMs)", () => {
  test("a tail that takes nothing for 30 s while frames wait is closed with an IdleWriteError, its queue let go; the run goes on", async () => {
    const store = memoryStore();
    const pool = tailFrames();
    const clock = new ManualClock();
    const handler = createHandler(never, { store, tailFrames: pool, clock });
    const writer = await liveRun(store, "t4");
    const tail = await openTail(handler, "t4");
    await writer.append(deltas(5, 100)); // queued; nobody asks
    clock.advance(29_999);
    expect(pool.frames).toBe(5);
    clock.advance(1);
    expect(pool.frames).toBe(0);
    await expect(tail.read()).rejects.toBeInstanceOf(IdleWriteError);
    // only the tail went: the run is live and takes more events
    expect(store.stats().liveRuns).toBe(1);
    await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t4", "r1")]);
    expect(store.stats().liveRuns).toBe(0);
  });

  test("a tail whose reader keeps asking, however slowly, is never closed; nor one with nothing queued", async () => {
    const store = memoryStore();
    const clock = new ManualClock();
    const handler = createHandler(never, { store, tailFrames: tailFrames(), clock });
    const writer = await liveRun(store, "t5");
    const tail = await openTail(handler, "t5");
    clock.advance(120_000); // nothing queued: not idle
    for (let i = 0; i < 4; i++) {
      await writer.append(deltas(1, 10));
      clock.advance(20_000);
      const next = await tail.read();
      expect(new TextDecoder().decode(next.value)).toContain('"TEXT_MESSAGE_CONTENT"');
    }
    await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t5", "r1")]);
    let text = "";
    for (let next = await tail.read(); !next.done; next = await tail.read()) text += new TextDecoder().decode(next.value);
    expect(text).toContain('"RUN_FINISHED"');
  });

  test("a stored run whose own client stops reading is detached after the timeout and runs to its end on its own", async () => {
    let written = 0;
    const paced: RunFunction = (input, { ready }) =>
      new Observable<Event>((subscriber) => {
        let stopped = false;
        void (async () => {
          subscriber.next(ev.runStarted(input.threadId, input.runId));
          subscriber.next(ev.textMessageStart("m1"));
          for (let i = 0; i < 200 && !stopped; i++) {
            await ready();
            subscriber.next(ev.textMessageContent("m1", "y".repeat(100)));
            written++;
          }
          subscriber.next(ev.textMessageEnd("m1"));
          subscriber.next(ev.runFinished(input.threadId, input.runId));
          subscriber.complete();
        })();
        return () => (stopped = true);
      });
    const store = memoryStore();
    const clock = new ManualClock();
    const handler = createHandler(paced, { store, tailFrames: tailFrames(), clock, highWaterMark: 8 });
    const response = await handler(post("", inputFor("t6", "r1")));
    const reader = response.body!.getReader();
    await reader.read(); // then nothing more: the run waits for this reader at the high-water mark
    const turns = async (count: number): Promise<void> => {
      for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    };
    await turns(100);
    const stalled = written;
    await turns(100);
    expect(written).toBe(stalled); // held at the response's high-water mark
    expect(stalled).toBeLessThan(200);
    expect(store.stats().liveRuns).toBe(1);
    clock.advance(30_000);
    await expect(reader.read()).rejects.toBeInstanceOf(IdleWriteError);
    await until(() => store.stats().liveRuns === 0, "the detached run to end in the store");
    expect(written).toBe(200);
  });

  test("Infinity turns it off", async () => {
    const store = memoryStore();
    const pool: TailFrames = tailFrames();
    const clock = new ManualClock();
    const handler = createHandler(never, { store, tailFrames: pool, clock, idleWriteTimeoutMs: Infinity });
    const writer = await liveRun(store, "t7");
    const tail = await openTail(handler, "t7");
    await writer.append(deltas(3, 10));
    clock.advance(3_600_000);
    expect(clock.pending).toBe(0);
    expect(pool.frames).toBe(3);
    await tail.cancel();
  });
});
