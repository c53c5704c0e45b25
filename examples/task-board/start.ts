/**
 * `npm start`: the task board end to end in one process. Starts the server on a free loopback
 * port, plays a scripted conversation through the real HTTP client (`Session` + `HttpTransport`),
 * prints every update as it arrives (streamed text, board changes as JSON Patch lines, the
 * researcher subagent, the approval prompt and its answer), and exits 0 when every run ended as
 * the script expects. Stopped halfway (Ctrl-C, a SIGTERM to it or to npm, npm going away), it
 * closes the server and exits (`stopOnSignals`).
 */
import { lastValueFrom, tap } from "rxjs";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { Session } from "../../src/client/Session";
import type { RunEnd } from "../../src/thread/Update";
import { createUpdatePrinter } from "../board-watch/render";
import { boardSpec, type Board } from "./board";
import { createTaskBoardServer } from "./server";
import { stopOnSignals } from "./stopOnSignals";

const write = (text: string): void => {
  process.stdout.write(text);
};

/** The script: what the user types, and how each run is expected to end. */
const SCRIPT: readonly { readonly say: string; readonly expect: RunEnd["kind"] }[] = [
  { say: "add buy milk; add call mom", expect: "success" },
  { say: "done 1; add water the plants", expect: "success" },
  { say: "research honeybees", expect: "success" },
  { say: "clear", expect: "interrupted" },
];

async function main(): Promise<number> {
  const server = await createTaskBoardServer({ typingDelayMs: 8 });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => (closing ??= server.close()); // once, whether the script ends or is stopped
  stopOnSignals({ close });
  write(`task-board agent listening on ${server.url}\n\n`);
  const session = new Session<Board>(new HttpTransport(server.url), { threadId: "demo", state: boardSpec });
  const print = createUpdatePrinter(write, session.rawState);
  let ok = true;

  const runOnce = async (updates$: ReturnType<Session<Board>["send"]>, expected: RunEnd["kind"]): Promise<void> => {
    let end: RunEnd | undefined;
    await lastValueFrom(
      updates$.pipe(
        tap((update) => {
          print(update);
          if (update.kind === "done") end = update.end;
        }),
      ),
    );
    if (end?.kind !== expected) {
      write(`unexpected: the run ended ${end?.kind ?? "without a done update"}, expected ${expected}\n`);
      ok = false;
    }
    write("\n");
  };

  try {
    for (const step of SCRIPT) await runOnce(session.send(step.say), step.expect);
    const [pending] = session.interrupts;
    if (pending === undefined) {
      write("unexpected: no approval was asked for\n");
      return 1;
    }
    write(`(the user answers "${pending.message}" with: yes)\n`);
    await runOnce(session.resume([{ interruptId: pending.id, status: "resolved", payload: { approved: true } }]), "success");
    write(`final board: ${JSON.stringify(session.state)}\n`);
    if (session.state?.tasks.length !== 0) ok = false;
  } finally {
    await close();
  }
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
