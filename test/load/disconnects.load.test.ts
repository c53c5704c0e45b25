/**
 * Fault: 200 clients that go away at random points of their runs (issue #14 D). Every agent's
 * `ctx.signal` must be aborted (with an AbortError), no run may stay live, and no stream may stay
 * registered with the fair scheduler. The disconnect points come from a fixed seed.
 */
import { seededRandom } from "../support/seededRandom";
import { bounded, openRun, startLoadServer, type LoadServer } from "./support/loadClient";

const CLIENTS = 200;
const SEED = 20261214;

let server: LoadServer | undefined;
afterAll(async () => server?.stop());

/** Reads `budget` bytes of the body (0: none at all), then drops the connection. */
function readThenDrop(url: string, budget: number): Promise<number> {
  return openRun(url).then(
    ({ response, destroy }) =>
      new Promise<number>((resolve) => {
        let read = 0;
        const drop = () => {
          destroy();
          resolve(read);
        };
        if (budget === 0) return drop();
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read >= budget) drop();
        });
        response.on("error", () => resolve(read));
      }),
  );
}

test(`${CLIENTS} random disconnects: every agent aborted, 0 live runs after`, async () => {
  server = await startLoadServer();
  const random = seededRandom(SEED);
  // endless agents: each run streams until its client goes away
  const url = `${server.url}endless?size=50`;
  const budgets = Array.from({ length: CLIENTS }, () => (random() < 0.1 ? 0 : Math.floor(random() * 200_000)));
  const read = await bounded(60_000, Promise.all(budgets.map((budget) => readThenDrop(url, budget))), `${CLIENTS} clients`);

  // The server sees each close as its socket closes: it answers once every run has ended.
  const stats = await bounded(30_000, server.ask({ cmd: "settled", completed: CLIENTS }), "every run to end");
  console.log(
    `faults: ${CLIENTS} random disconnects (seed ${SEED})\n${JSON.stringify(
      {
        clients: CLIENTS,
        bytesReadBeforeDropping: { min: Math.min(...read), max: Math.max(...read) },
        agentsStarted: stats.started,
        agentsEnded: stats.completed,
        abortedBy: stats.aborted,
        liveAfter: stats.live,
        streamsLeftInScheduler: stats.streams,
        lagP99Ms: stats.lag.p99,
      },
      null,
      2,
    )}`,
  );
  expect(stats.started).toBe(CLIENTS);
  expect(stats.completed).toBe(CLIENTS);
  expect(stats.aborted).toEqual({ AbortError: CLIENTS });
  expect(stats.live).toBe(0);
  expect(stats.streams).toBe(0);
}, 120_000);
