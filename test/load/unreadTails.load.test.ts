/**
 * Fault: tails that never read (issue #20 A2). 500 `POST {url}/connect` clients join one live run
 * of about 6 MB, read their response headers and then stop reading (their sockets paused), while
 * one honest client reads the run itself. The server (its own process, memory store) must hold
 * each frame once for all of them, not once per tail: its memory after a full collection grows by
 * less than 200 MB. The honest client's time and the server's CPU time are bounded against the
 * same run alone (loosely: see the bounds' comment). The figures are printed (growth as RSS and as
 * heap used + external memory, CPU time, `/capabilities` latency during the run).
 */
import { fork, type ChildProcess } from "node:child_process";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import * as path from "node:path";
import type { TailCommand, TailMemory } from "./support/tailServer";
import { bounded, loadAgent, mb, summarize } from "./support/loadClient";

const TAILS = 500;
const DELTAS = 6000;
const DELTA_BYTES = 1000;
/** The model's pace: a pause of this many ms after every tenth delta (600 pauses: a run of about 7 s alone, as in the scenario). */
const EVERY_MS = 10;
/** The idle-write timeout given to the server: longer than the scenario, so that what is measured is sharing, not tails being closed. */
const IDLE_WRITE_TIMEOUT_MS = 600_000;

interface TailServer {
  readonly url: string;
  readonly port: number;
  ask(command: TailCommand): Promise<TailMemory | undefined>;
  stop(): Promise<void>;
}

let server: TailServer | undefined;
const sockets: Socket[] = [];

afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.stop();
});

function startTailServer(): Promise<TailServer> {
  const child: ChildProcess = fork(path.join(__dirname, "support", "tailServer.ts"), [JSON.stringify({ idleWriteTimeoutMs: IDLE_WRITE_TIMEOUT_MS })], {
    cwd: path.join(__dirname, "..", ".."),
    execArgv: [
      "--expose-gc",
      ...(process.env.LOAD_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.LOAD_PROFILE}`] : []),
      "-r",
      "ts-node/register/transpile-only",
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the tail server exited with ${code} before it listened`)));
    child.once("message", (message: { url?: string }) => {
      if (message.url === undefined) return reject(new Error("the tail server did not send its url"));
      resolve({
        url: message.url,
        port: Number(new URL(message.url).port),
        ask: (command) =>
          new Promise((answer) => {
            const onMessage = (reply: { reply?: string; memory?: TailMemory }) => {
              if (reply.reply !== command.cmd) return;
              child.off("message", onMessage);
              answer(reply.memory);
            };
            child.on("message", onMessage);
            child.send(command);
          }),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/** POSTs a run on `threadId` and resolves with the response once its headers are in (the body not read yet). */
function openThreadRun(threadId: string): Promise<IncomingMessage> {
  const body = JSON.stringify({ threadId, runId: `run-${threadId}`, messages: [{ id: "u1", role: "user", content: "go" }] });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server!.url}agent?deltas=${DELTAS}&size=${DELTA_BYTES}&every=${EVERY_MS}`,
      { method: "POST", agent: loadAgent, headers: { "Content-Type": "application/json", Accept: "text/event-stream" } },
      resolve,
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * Starts a run on `threadId`; once its client has the headers, `beforeGo` runs, then the run may
 * write and `whileRead` runs beside the read. Resolves with the time the client took to read it all.
 */
async function honestRun(
  threadId: string,
  beforeGo: () => Promise<void> = async () => undefined,
  whileRead: (read: Promise<unknown>) => Promise<unknown> = async () => undefined,
): Promise<{ ms: number; bytes: number; last: string }> {
  const response = await openThreadRun(threadId);
  await beforeGo();
  const started = performance.now();
  await server!.ask({ cmd: "go", threadId });
  const read = bounded(90_000, summarize(response), `the run on ${threadId} to be read to its end`);
  const [body] = await Promise.all([read, whileRead(read)]);
  return { ms: performance.now() - started, bytes: body.bytes, last: body.last };
}

/** Opens a raw `/connect` on `threadId`, resolves once the status line and headers are in, then stops reading (the socket paused). */
function unreadTail(threadId: string): Promise<void> {
  const body = JSON.stringify({ threadId });
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: server!.port });
    sockets.push(socket);
    let head = "";
    socket.setEncoding("latin1");
    socket.on("error", reject);
    socket.on("connect", () =>
      socket.write(
        `POST /agent/connect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      ),
    );
    const onData = (chunk: string): void => {
      head += chunk;
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      socket.pause();
      if (!head.startsWith("HTTP/1.1 200")) reject(new Error(`expected 200 for a tail, but got ${JSON.stringify(head.slice(0, 200))}`));
      else resolve();
    };
    socket.on("data", onData);
  });
}

/** GETs `/capabilities` until `done` settles; resolves with each answer's latency in ms. */
async function capabilitiesLatencies(done: Promise<unknown>): Promise<number[]> {
  let over = false;
  const stop = (): void => {
    over = true;
  };
  done.then(stop, stop);
  const latencies: number[] = [];
  while (!over) {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      httpRequest(`${server!.url}agent/capabilities`, { agent: loadAgent }, (response) => {
        response.resume();
        response.on("end", () => resolve());
        response.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
    latencies.push(performance.now() - started);
  }
  return latencies;
}

test(`${TAILS} tails that never read, on a run of ${(DELTAS * DELTA_BYTES) / 1e6} MB, cost the server less than 200 MB; its honest client still gets the run`, async () => {
  server = await startTailServer();
  await honestRun("warm-up");
  const beforeAlone = (await server.ask({ cmd: "memory" }))!;
  const alone = await honestRun("alone");
  expect(alone.last).toContain('"RUN_FINISHED"');
  const baseline = (await server.ask({ cmd: "memory" }))!;

  let capabilities: number[] = [];
  const crowd = await honestRun(
    "crowd",
    async () => {
      for (let i = 0; i < TAILS; i += 50) await Promise.all(Array.from({ length: Math.min(50, TAILS - i) }, () => unreadTail("crowd")));
    },
    async (read) => (capabilities = await capabilitiesLatencies(read)),
  );
  expect(crowd.last).toContain('"RUN_FINISHED"');
  expect(crowd.bytes).toBeGreaterThan(DELTAS * DELTA_BYTES);
  const withTails = (await server.ask({ cmd: "memory" }))!;

  const rssGrowth = withTails.rss - baseline.rss;
  const heldGrowth = withTails.heapUsed + withTails.external - (baseline.heapUsed + baseline.external);
  const sorted = [...capabilities].sort((a, b) => a - b);
  const figures = {
    tails: TAILS,
    runBytes: mb(crowd.bytes),
    honestAloneMs: Math.round(alone.ms),
    honestWithTailsMs: Math.round(crowd.ms),
    serverCpuAloneMs: Math.round(baseline.cpuMs - beforeAlone.cpuMs),
    serverCpuWithTailsMs: Math.round(withTails.cpuMs - baseline.cpuMs),
    rssGrowth: mb(rssGrowth),
    heapPlusExternalGrowth: mb(heldGrowth),
    arrayBuffersGrowth: mb(withTails.arrayBuffers - baseline.arrayBuffers),
    capabilitiesDuringTheRun: {
      count: sorted.length,
      p50Ms: Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0),
      maxMs: Math.round(sorted[sorted.length - 1] ?? 0),
    },
  };
  console.log(`unread tails\n${JSON.stringify(figures, null, 2)}`);
  expect(rssGrowth).toBeLessThan(200 * 1024 * 1024);
  expect(heldGrowth).toBeLessThan(200 * 1024 * 1024);
  // The honest client is barely slowed (issue #20 A2): the run is paced as a model's, so what the
  // tails cost shows as delay, and the tails cost little once they are let go (PARK_BYTES) and
  // their frames go out uncopied (docs/http.md, "Readers that never read"). On a quiet machine it
  // measures 1.2–1.4× its time alone and the server's CPU 8–11× (the printed figures); before the
  // fix 100 tails made it 40× (29 s against 0.73 s) and 500 never let it finish. The bounds below
  // catch that regression with room for a shared CI machine's noise: a timed ratio this tight
  // belongs to a quiet machine, not to a gate.
  expect(crowd.ms).toBeLessThan(3 * alone.ms);
  expect(figures.serverCpuWithTailsMs).toBeLessThan(30 * figures.serverCpuAloneMs);
});
