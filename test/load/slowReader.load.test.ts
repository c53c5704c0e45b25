/**
 * Fault: a slow reader (issue #14 C3, D). Against a client that reads what its buffer holds every 2 ms, a paced agent
 * (`ctx.ready()` between deltas) streams everything in bounded memory; an unpaced one (ignores
 * `ctx.ready()`, as a model stream might) is stopped by the send-buffer cap, 16 MiB by default:
 * its `ctx.signal` aborts with a SlowConsumerError and the client's stream ends with RUN_ERROR
 * SLOW_CONSUMER. The figures are printed; heap figures are the server process's.
 */
import type { IncomingMessage } from "node:http";
import { DEFAULT_MAX_BUFFERED_BYTES } from "../../src/server/http/toEventStream";
import { bounded, mb, openRun, startLoadServer, type LoadServer } from "./support/loadClient";

let server: LoadServer | undefined;
beforeAll(async () => {
  // a 1 MB young generation: the sampled heap peak then follows what is held, not garbage awaiting a scavenge
  server = await startLoadServer({}, ["--max-semi-space-size=1"]);
});
afterAll(async () => server?.stop());

/**
 * Reads `response` slowly (what its buffer holds, every 2 ms) until `fast` resolves, then at full
 * speed to the end. Resolves with the bytes read and the last frame.
 */
function readSlowly(response: IncomingMessage, fast: Promise<unknown>): Promise<{ bytes: number; last: string }> {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let tail = "";
    const take = (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString("utf8")).slice(-4096);
    };
    response.pause();
    const timer = setInterval(() => {
      for (let chunk: Buffer | null; (chunk = response.read()) !== null;) take(chunk);
    }, 2);
    void fast.then(() => {
      clearInterval(timer);
      for (let chunk: Buffer | null; (chunk = response.read()) !== null;) take(chunk);
      response.on("data", take);
      response.resume();
    });
    response.on("end", () => {
      clearInterval(timer);
      const frames = tail.split("\n\n").filter((frame) => frame.length > 0);
      resolve({ bytes, last: frames[frames.length - 1] ?? "" });
    });
    response.on("error", reject);
  });
}

test("a paced agent against a slow reader streams 20 MB in bounded memory and finishes", async () => {
  const before = await server!.ask("reset");
  const { response } = await openRun(`${server!.url}paced?deltas=20000&size=1000`);
  const body = await bounded(60_000, readSlowly(response, new Promise(() => undefined)), "the paced run to end");
  const after = await server!.ask("stats");
  const figures = {
    sent: mb(body.bytes),
    heapBefore: mb(before.heapUsed),
    heapPeak: mb(after.heapPeak),
    heapPeakOverBaseline: mb(after.heapPeak - before.heapUsed),
  };
  console.log(`slow reader, paced agent\n${JSON.stringify(figures, null, 2)}`);
  expect(body.last).toContain('"RUN_FINISHED"');
  expect(body.bytes).toBeGreaterThan(20_000_000);
  // what waits for the reader is the high-water mark's 16 frames and one chunk: the peak is far below what was sent
  expect(after.heapPeak - before.heapUsed).toBeLessThan(8 * 1024 * 1024);
}, 90_000);

test("an unpaced agent against the same reader is stopped by the 16 MiB cap: SlowConsumerError, RUN_ERROR SLOW_CONSUMER, bounded memory", async () => {
  const before = await server!.ask("reset");
  const total = 200_000; // 200 MB if nothing stopped it
  const { response } = await openRun(`${server!.url}unpaced?deltas=${total}&size=1000&every=100`);
  const ended = server!.ask({ cmd: "settled", completed: before.completed + 1 });
  const body = await bounded(90_000, readSlowly(response, ended), "the capped run to end");
  const after = await server!.ask("stats");
  const figures = {
    cap: mb(DEFAULT_MAX_BUFFERED_BYTES),
    agentWrote: `${after.deltas - before.deltas} of ${total} deltas (${mb((after.deltas - before.deltas) * 1000)})`,
    clientReceived: mb(body.bytes),
    abortedBy: after.aborted,
    abortReason: after.lastAbortMessage,
    lastFrame: body.last.slice(0, 120),
    heapBefore: mb(before.heapUsed),
    heapPeak: mb(after.heapPeak),
    heapPeakOverBaseline: mb(after.heapPeak - before.heapUsed),
  };
  console.log(`slow reader, unpaced agent (the send-buffer cap in action)\n${JSON.stringify(figures, null, 2)}`);
  expect(after.aborted.SlowConsumerError).toBe(1);
  expect(after.lastAbortMessage).toContain("the client reads too slowly");
  expect(body.last).toContain('"code":"SLOW_CONSUMER"');
  expect(after.deltas - before.deltas).toBeLessThan(total / 4);
  // the queue is capped at 16 MiB; the peak holds it as strings, plus the events being made and the chunk in flight
  expect(after.heapPeak - before.heapUsed).toBeLessThan(3 * DEFAULT_MAX_BUFFERED_BYTES);
}, 120_000);
