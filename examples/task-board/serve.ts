/**
 * `npm run serve`: keeps the task-board endpoint up on loopback (port `$PORT`, 8000 by default;
 * `PORT=0` picks a free one) and prints how to talk to it. Ctrl-C, a SIGTERM (to it or to npm), or
 * npm going away stops it (`stopOnSignals`); a port already taken is told with the `PORT` hint.
 *
 * `npm run serve -- --redis <url>` keeps the threads in that Redis (`redisStore`,
 * docs/durability.md "Redis"): every frame carries `id:`, a client cut mid-run reconnects through
 * `/connect`, `/stop` cancels a run, and several `serve` processes on the same Redis serve the same
 * threads (a run started on one is joined, resumed and stopped through any other). Without it,
 * nothing changed: no store, a disconnect stops the run. No `authorize` hook either way (this is a
 * loopback demo): with a store the thread ids are the only protection.
 */
import type { ThreadStore } from "../../src/server/store/ThreadStore";
import { openRedisStore } from "./redis";
import { createTaskBoardServer } from "./server";
import { parseServeArgs, SERVE_USAGE } from "./serveArgs";
import { startFailure, stopOnSignals } from "./stopOnSignals";

const port = Number(process.env.PORT ?? 8000);

async function main(): Promise<void> {
  const args = parseServeArgs(process.argv.slice(2));
  if (args.kind === "error") {
    process.stderr.write(`${args.message}\n${SERVE_USAGE}`);
    process.exitCode = 1;
    return;
  }
  const redisUrl = args.kind === "redis" ? args.url : undefined;
  const redis = redisUrl === undefined ? undefined : await openRedisStore(redisUrl);
  const store: ThreadStore | undefined = redis?.store;
  const server = await createTaskBoardServer({ port, host: process.env.HOST ?? "127.0.0.1", typingDelayMs: 40, store }).catch(async (error: unknown) => {
    await redis?.close();
    throw error;
  });
  process.stdout.write(
    `task-board AG-UI endpoint: ${server.url}\n` +
      (redis === undefined || redisUrl === undefined ? "" : `threads kept in Redis at ${redactPassword(redisUrl)} (store instance ${redis.store.instance})\n`) +
      `try:  npm run watch -- ${server.url} "add buy milk; add call mom; research bees; clear"\n` +
      `Ctrl-C to stop.\n`,
  );
  stopOnSignals({ close: () => server.close().then(() => redis?.close()), stopped: "task-board endpoint stopped.\n" });
}

/** The URL as it may be printed: a password in it is replaced by `***`. */
function redactPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== "") parsed.password = "***";
  return parsed.href;
}

main().catch((error: unknown) => {
  process.stderr.write(startFailure(error, port));
  process.exitCode = 1;
});
