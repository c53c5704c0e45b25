/**
 * Load: 500 concurrent runs × 3,000 deltas against one server process, every agent awaiting
 * `ctx.ready()` between deltas (issue #14 C4, D). Targets: all 500 agents live at once, the
 * server's event-loop lag p99 ≤ 50 ms beyond the machine's own (an idle server process started
 * beside it measures what the scheduler alone costs in the same seconds: on a shared CI machine
 * that floor moves, the server's work on top of it should not), every run delivered whole, and
 * the server's heap back to its baseline after GC. The figures are printed.
 */
import { bounded, mb, openRun, startLoadServer, summarize, type LoadServer } from "./support/loadClient";

const RUNS = 500;
const DELTAS = 3000;

let server: LoadServer | undefined;
let idle: LoadServer | undefined;
afterAll(async () => {
  await server?.stop();
  await idle?.stop();
});

test(`${RUNS} concurrent runs × ${DELTAS} deltas: all live together, lag p99 ≤ 50 ms beyond an idle process's, heap back to baseline`, async () => {
  server = await startLoadServer();
  idle = await startLoadServer();
  const url = `${server.url}paced?deltas=${DELTAS}&size=20`;
  // warm up (JIT, the first connections), then measure from a collected heap
  await Promise.all(Array.from({ length: 20 }, () => openRun(url).then(({ response }) => summarize(response))));
  const before = await server.ask("reset");
  await idle.ask("reset");

  const t0 = performance.now();
  const bodies = await bounded(
    120_000,
    Promise.all(Array.from({ length: RUNS }, () => openRun(url).then(({ response }) => summarize(response)))),
    `${RUNS} runs`,
  );
  const seconds = (performance.now() - t0) / 1000;
  const during = await server.ask("stats");
  const floor = await idle.ask("stats");
  const after = await server.ask("gc");

  const figures = {
    runs: RUNS,
    deltasPerRun: DELTAS,
    seconds: Number(seconds.toFixed(2)),
    runsPerSecond: Number((RUNS / seconds).toFixed(1)),
    eventsPerSecond: Math.round((RUNS * (DELTAS + 4)) / seconds),
    lagP50Ms: during.lag.p50,
    lagP99Ms: during.lag.p99,
    lagMaxMs: during.lag.max,
    idleProcessLagP99Ms: floor.lag.p99,
    mostLiveAgents: during.mostLive,
    heapBefore: mb(before.heapUsed),
    heapPeak: mb(during.heapPeak),
    heapAfterGc: mb(after.heapUsed),
  };
  console.log(`load: ${RUNS} concurrent runs × ${DELTAS} deltas\n${JSON.stringify(figures, null, 2)}`);

  for (const body of bodies) {
    expect(body.frames).toBe(DELTAS + 4); // RUN_STARTED, TEXT_MESSAGE_START, the deltas, TEXT_MESSAGE_END, RUN_FINISHED
    expect(body.last).toContain('"RUN_FINISHED"');
  }
  expect(during.mostLive).toBe(RUNS);
  expect(during.lag.p99).toBeLessThanOrEqual(50 + floor.lag.p99);
  expect(after.live).toBe(0);
  expect(after.streams).toBe(0);
  // back to baseline: within 5 MB of the heap before the load (the peak is far above)
  expect(after.heapUsed - before.heapUsed).toBeLessThan(5 * 1024 * 1024);
}, 180_000);
