/**
 * `npm run watch -- <url> "<message>"`: sends one message to any AG-UI endpoint and prints each
 * update as it arrives. Exit code: 0 success, 2 interrupted (the interrupts are printed), 1 failed
 * (or bad usage).
 */
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { Session } from "../../src/client/Session";
import type { RunEnd } from "../../src/client/Update";
import { createUpdatePrinter, type Write } from "./render";

/** The exit code for a run's end: 0 success, 2 interrupted, 1 failed (or no end at all). */
export function exitCodeOf(end: RunEnd | undefined): number {
  if (end === undefined) return 1;
  return end.kind === "success" ? 0 : end.kind === "interrupted" ? 2 : 1;
}

/**
 * Runs the CLI on `argv` (the arguments after the script) and resolves with the exit code.
 *
 * @example
 * process.exitCode = await watch(["http://127.0.0.1:8000/", "add milk"], (text) => process.stdout.write(text));
 */
export function watch(argv: readonly string[], write: Write): Promise<number> {
  const [url, ...words] = argv;
  const message = words.join(" ");
  if (url === undefined || message === "") {
    write('usage: npm run watch -- <url> "<message>"\n');
    return Promise.resolve(1);
  }
  const session = new Session(new HttpTransport(url), { threadId: `board-watch-${Date.now()}` });
  const print = createUpdatePrinter(write, session.rawState);
  write(`→ ${url}\n`);
  return new Promise((resolve) => {
    let end: RunEnd | undefined;
    session.send(message).subscribe({
      next: (update) => {
        print(update);
        if (update.kind === "done") end = update.end;
      },
      // The session reports failures as updates; an error here would be a bug worth showing.
      error: (error: unknown) => {
        write(`! ${error instanceof Error ? error.message : String(error)}\n`);
        resolve(1);
      },
      complete: () => resolve(exitCodeOf(end)),
    });
  });
}

if (require.main === module) {
  void watch(process.argv.slice(2), (text) => process.stdout.write(text)).then((code) => {
    process.exitCode = code;
  });
}
