/**
 * How the examples' long-running scripts (`npm run serve`, `npm run web`, `npm run ai-chat`, and
 * `npm start` while it plays) end: on SIGINT or SIGTERM, and when the process that started them
 * went away, they close their server and exit; a second signal exits at once. A port already
 * taken is told as a hint naming `PORT`, not a stack trace.
 */

/** How `stopOnSignals` stops the script and what it says. */
export interface StopOptions {
  /** Closes what the script opened (the server, a Redis connection); the process exits when it settles. */
  readonly close: () => Promise<unknown>;
  /** Printed once the close settled (default nothing). */
  readonly stopped?: string | undefined;
  /** How often the parent is looked at, in ms (default 500). */
  readonly parentCheckMs?: number | undefined;
}

/**
 * Stops the script on the first SIGINT or SIGTERM: closes (`close`), prints `stopped`, and exits 0
 * (1 if closing failed); a second signal while closing exits 1 at once. Also stops when the
 * script's parent process is gone: `npm run x` runs the script under `sh -c`, and a shell such as
 * dash neither forwards the SIGTERM npm hands it nor waits, so a script whose npm was stopped by
 * its PID would otherwise keep its port with nobody left to stop it.
 *
 * @example
 * const server = await createTaskBoardServer({ port });
 * stopOnSignals({ close: () => server.close(), stopped: "task-board endpoint stopped.\n" });
 */
export function stopOnSignals(options: StopOptions): void {
  const parent = process.ppid;
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(1); // a second signal: the close is taking too long for whoever asked
    stopping = true;
    clearInterval(watch);
    options.close().then(
      () => {
        if (options.stopped !== undefined) process.stdout.write(options.stopped);
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop(); // re-parented: whoever started the script is gone
  }, options.parentCheckMs ?? 500);
  watch.unref(); // bookkeeping: the server is what keeps the process up
}

/**
 * The message for a failure to start listening: for `EADDRINUSE`, which port is taken and how to
 * pick another (`PORT`, or `PORT=0` for a free one); for anything else, its message.
 *
 * @example
 * main().catch((error) => { process.stderr.write(startFailure(error, port)); process.exitCode = 1; });
 */
export function startFailure(error: unknown, port: number): string {
  if (error instanceof Error && "code" in error && error.code === "EADDRINUSE") {
    return `port ${port} is already in use (is another server still running?): set PORT to another port, e.g. PORT=${port + 1}, or PORT=0 for any free one\n`;
  }
  return `${error instanceof Error ? error.message : String(error)}\n`;
}
