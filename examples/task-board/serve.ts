/**
 * `npm run serve`: keeps the task-board endpoint up on loopback (port `$PORT`, 8000 by default;
 * `PORT=0` picks a free one) and prints how to talk to it. Ctrl-C stops it.
 */
import { createTaskBoardServer } from "./server";

async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 8000);
  const server = await createTaskBoardServer({ port, host: process.env.HOST ?? "127.0.0.1", typingDelayMs: 40 });
  process.stdout.write(
    `task-board AG-UI endpoint: ${server.url}\n` +
      `try:  npm run watch -- ${server.url} "add buy milk; add call mom; research bees; clear"\n` +
      `Ctrl-C to stop.\n`,
  );
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
