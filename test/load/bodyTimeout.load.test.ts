/**
 * Fault: 200 concurrent request bodies that never finish (issue #14 C8). Each must get 408 once
 * the server's `bodyTimeoutMs` (500 ms here) has passed, instead of holding its connection: before
 * the timeout, 200 such bodies held for 20 s got no reply at all.
 */
import { request as httpRequest } from "node:http";
import { bounded, loadAgent, startLoadServer, type LoadServer } from "./support/loadClient";

const BODIES = 200;
const TIMEOUT_MS = 500;

let server: LoadServer | undefined;
afterAll(async () => server?.stop());

test(`${BODIES} never-finished bodies all get 408 after ${TIMEOUT_MS} ms`, async () => {
  server = await startLoadServer({ bodyTimeoutMs: TIMEOUT_MS });
  const url = server.url;
  const t0 = performance.now();
  const answers = await bounded(
    30_000,
    Promise.all(
      Array.from(
        { length: BODIES },
        () =>
          new Promise<{ status: number; ms: number }>((resolve, reject) => {
            const req = httpRequest(url, { method: "POST", agent: loadAgent, headers: { "Content-Type": "application/json" } }, (response) => {
              response.resume();
              response.on("end", () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - t0 }));
            });
            req.on("error", reject);
            req.write('{"threadId":"t","runId":"r","messages":['); // and never the rest
          }),
      ),
    ),
    `${BODIES} answers`,
  );
  const times = answers.map((answer) => answer.ms).sort((a, b) => a - b);
  const stats = await server.ask("stats");
  console.log(
    `faults: ${BODIES} never-finished bodies\n${JSON.stringify(
      {
        bodies: BODIES,
        bodyTimeoutMs: TIMEOUT_MS,
        statuses: [...new Set(answers.map((answer) => answer.status))],
        firstAnswerMs: Math.round(times[0]),
        lastAnswerMs: Math.round(times[times.length - 1]),
        agentsStarted: stats.started,
      },
      null,
      2,
    )}`,
  );
  expect(answers.every((answer) => answer.status === 408)).toBe(true);
  expect(times[0]).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
  expect(stats.started).toBe(0);
}, 60_000);
