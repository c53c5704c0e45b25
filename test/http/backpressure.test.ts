import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Observable, Subject, firstValueFrom, filter } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { fairTurns } from "../../src/server/http/fairTurns";
import { createHandler, type RunFunction } from "../../src/server/http/createHandler";
import { toNodeHandler } from "../../src/node/toNodeHandler";
import { openPost, validBody } from "./loopback";

/** What the producer reports each time `ready()` made it wait: how many events it had emitted. */
interface Waiting {
  readonly emitted: number;
}

/**
 * A run that emits `total` content events of `size` bytes as fast as it is allowed: it awaits
 * `ready()` before each one. Whenever that await does not resolve within the same event-loop turn,
 * it reports `waiting` with its count so far.
 */
function eager(total: number, size: number, waiting: Subject<Waiting>, counter: { emitted: number }): RunFunction {
  const delta = "x".repeat(size);
  return (input, { ready }) =>
    new Observable<Event>((subscriber) => {
      let stopped = false;
      void (async () => {
        subscriber.next(ev.runStarted(input.threadId, input.runId));
        subscriber.next(ev.textMessageStart("m1"));
        for (let i = 0; i < total && !stopped; i++) {
          const free = ready();
          const turn = await Promise.race([free.then(() => "free" as const), new Promise<"waiting">((resolve) => setImmediate(() => resolve("waiting")))]);
          if (turn === "waiting") {
            waiting.next({ emitted: counter.emitted });
            await free;
          }
          if (stopped) return;
          subscriber.next(ev.textMessageContent("m1", delta));
          counter.emitted++;
        }
        subscriber.next(ev.textMessageEnd("m1"));
        subscriber.next(ev.runFinished(input.threadId, input.runId));
        subscriber.complete();
      })();
      return () => {
        stopped = true;
      };
    });
}

describe("backpressure", () => {
  it("a response nobody reads pulls at most the high-water mark of events from the run", async () => {
    const waiting = new Subject<Waiting>();
    const counter = { emitted: 0 };
    // Turns whose clock stands still: the run never gives way for its turn, so only the queue stops it, however loaded the machine.
    const handler = createHandler(eager(10_000, 100, waiting, counter), { highWaterMark: 8, turns: fairTurns({ now: () => 0 }) });
    const response = await handler(new Request("http://127.0.0.1/", { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody }));
    const reader = response.body!.getReader();
    const blocked = firstValueFrom(waiting);
    const frames = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk).split("\n\n").filter(Boolean);
    const first = await reader.read(); // starts the run; then nobody reads
    expect(first.done).toBe(false);
    // The first read takes the run's burst until the queue is full: RUN_STARTED, TEXT_MESSAGE_START and 6 deltas.
    expect(frames(first.value)).toHaveLength(8);
    // Then the run waits once 8 more are queued, and nothing but a read can release it.
    expect(await blocked).toEqual({ emitted: 6 + 8 });
    expect(counter.emitted).toBe(6 + 8);

    // Reading again takes the queue as one chunk and lets the run go on.
    const second = await reader.read();
    expect(frames(second.value)).toHaveLength(8);
    await reader.cancel();
  });

  it("over HTTP, a client that stops reading stops the run below a bound; reading again delivers everything", async () => {
    const total = 20_000;
    const size = 1000; // 20 000 events of ~1 kB: ~21 MB, more than every buffer on the way (~4 MB on loopback)
    const waiting = new Subject<Waiting>();
    const counter = { emitted: 0 };
    const nodeHandler = toNodeHandler(createHandler(eager(total, size, waiting, counter)));
    let serverResponse: ServerResponse | undefined;
    const server = createServer((req, res) => {
      serverResponse = res;
      void nodeHandler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      // Wait until the run is held back by a socket that takes no more (the adapter waits for
      // `drain`): from then on only the client's reading can move it.
      const heldBack = firstValueFrom(waiting.pipe(filter(() => serverResponse?.writableNeedDrain === true)));
      const { response } = await openPost(url, validBody); // headers read, body paused
      const held = await heldBack;
      // The kernel's socket buffers (send + receive, up to tens of MB on loopback) are what the
      // bound allows for; without backpressure the run would have produced all 20 000.
      expect(held.emitted).toBeLessThan(total / 2);

      let received = 0;
      let tail = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const frames = (tail + chunk).split("\n\n");
        tail = frames.pop() ?? "";
        received += frames.length;
      });
      const ended = new Promise<void>((resolve) => response.on("end", resolve));
      response.resume();
      await ended;
      expect(received).toBe(total + 4);
      expect(counter.emitted).toBe(total);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 30_000);
});

describe("cancellation without node", () => {
  const endless =
    (onStop: () => void): RunFunction =>
    (input) =>
      new Observable<Event>((subscriber) => {
        subscriber.next(ev.runStarted(input.threadId, input.runId));
        return onStop;
      });
  const post = (signal?: AbortSignal) =>
    new Request("http://127.0.0.1/", { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody, signal });

  it("cancelling the response body unsubscribes the run (edge runtimes)", async () => {
    let stops = 0;
    const response = await createHandler(endless(() => stops++))(post());
    const reader = response.body!.getReader();
    await reader.read();
    expect(stops).toBe(0);
    await reader.cancel();
    expect(stops).toBe(1);
  });

  it("aborting the request's signal unsubscribes the run and ends the body", async () => {
    let stops = 0;
    const controller = new AbortController();
    const response = await createHandler(endless(() => stops++))(post(controller.signal));
    const reader = response.body!.getReader();
    await reader.read();
    const next = reader.read();
    controller.abort();
    expect(stops).toBe(1);
    expect((await next).done).toBe(true);
  });
});
