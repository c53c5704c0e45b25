/**
 * `npm run watch -- <url> "<message>" [--approve] [--answer <id>=<json>]...`: sends one message to
 * any AG-UI endpoint and prints each update as it arrives. When the run is interrupted it answers
 * and resumes: with `--answer` for the interrupts it names, `--approve` for the rest, and on a
 * terminal by asking. Exit code: 0 success, 2 interrupted with no answer given, 3 cancelled (stopped
 * on the server), 1 failed (or bad usage).
 */
import { createInterface } from "node:readline";
import { lastValueFrom, tap } from "rxjs";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { Session } from "../../src/client/Session";
import type { RunEnd, Update } from "../../src/thread/Update";
import type { Interrupt, ResumeEntry } from "../../src/protocol/outcomes";
import { answerFromPlan, answerFromReply, parseArgs, promptFor, type AnswerPlan } from "./answers";
import { createUpdatePrinter, type Write } from "./render";

/** Asks one question on the terminal; resolves with the reply, or `undefined` when input has ended. */
export type Ask = (question: string) => Promise<string | undefined>;

/** How many times one invocation resumes at most: an agent that interrupts forever must not keep the CLI forever. */
export const MAX_RESUMES = 20;

/** How many times the prompt asks again after a reply it cannot read. */
const MAX_TRIES = 3;

const USAGE = 'usage: npm run watch -- <url> "<message>" [--approve] [--answer <id>=<json>]...\n';

/** The exit code for a run's end: 0 success, 2 interrupted, 3 cancelled (not a failure, not a success), 1 failed (or no end at all). */
export function exitCodeOf(end: RunEnd | undefined): number {
  if (end === undefined) return 1;
  switch (end.kind) {
    case "success":
      return 0;
    case "interrupted":
      return 2;
    case "cancelled":
      return 3;
    case "failed":
      return 1;
    default: {
      const never: never = end;
      return never;
    }
  }
}

/**
 * Runs the CLI on `argv` (the arguments after the script) and resolves with the exit code. `ask`
 * is the terminal prompt (given when stdin is a TTY); without it, an interrupt the command line
 * does not answer ends the CLI with exit code 2 and a hint.
 *
 * @example
 * process.exitCode = await watch(["http://127.0.0.1:8000/", "clear", "--approve"], (text) => process.stdout.write(text));
 */
export async function watch(argv: readonly string[], write: Write, ask?: Ask): Promise<number> {
  const parsed = parseArgs(argv);
  if (parsed.kind === "error") {
    write(`${parsed.message}\n${USAGE}`);
    return 1;
  }
  const [url, ...words] = parsed.positional;
  const message = words.join(" ");
  if (url === undefined || message === "") {
    write(USAGE);
    return 1;
  }
  const session = new Session(new HttpTransport(url), { threadId: `board-watch-${Date.now()}` });
  const print = createUpdatePrinter(write, session.rawState);
  write(`→ ${url}\n`);

  let end = await runOnce(session.send(message), print);
  for (let resumes = 0; end?.kind === "interrupted"; resumes++) {
    if (resumes === MAX_RESUMES) {
      write(`! still interrupted after ${MAX_RESUMES} answers; stopping\n`);
      return 1;
    }
    const answers = await answerAll(end.interrupts, parsed.plan, write, ask);
    if (answers === undefined) return 2;
    for (const answer of answers)
      write(`(answering ${answer.interruptId}: ${answer.status}${answer.payload === undefined ? "" : ` ${JSON.stringify(answer.payload)}`})\n`);
    end = await runOnce(session.resume(answers), print);
  }
  return exitCodeOf(end);
}

/** Plays one run through the printer; resolves with how it ended. */
async function runOnce(updates$: ReturnType<Session["send"]>, print: (update: Update<unknown>) => void): Promise<RunEnd | undefined> {
  let end: RunEnd | undefined;
  await lastValueFrom(
    updates$.pipe(
      tap((update) => {
        print(update);
        if (update.kind === "done") end = update.end;
      }),
    ),
    { defaultValue: undefined },
  );
  return end;
}

/** An answer for every pending interrupt, or `undefined` (with a hint written) when one stays unanswered. */
async function answerAll(interrupts: readonly Interrupt[], plan: AnswerPlan, write: Write, ask: Ask | undefined): Promise<ResumeEntry[] | undefined> {
  const answers: ResumeEntry[] = [];
  for (const interrupt of interrupts) {
    let answer = answerFromPlan(plan, interrupt);
    for (let tries = 0; answer === undefined && ask !== undefined && tries < MAX_TRIES; tries++) {
      const reply = await ask(promptFor(interrupt));
      if (reply === undefined) break;
      answer = answerFromReply(interrupt, reply);
      if (answer === undefined) write(`! expected y, n, c or a JSON payload, got ${JSON.stringify(reply)}\n`);
    }
    if (answer === undefined) {
      write(`no answer for ${interrupt.id}: pass --approve, or --answer '${interrupt.id}={"approved":true}', or run in a terminal to be asked\n`);
      return undefined;
    }
    answers.push(answer);
  }
  return answers;
}

/** The terminal prompt over stdin/stdout; `close` ends it so the process can exit. */
function terminalAsk(): { ask: Ask; close(): void } {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  let closed = false;
  rl.on("close", () => (closed = true));
  return {
    ask: (question) =>
      new Promise((resolve) => {
        if (closed) return resolve(undefined);
        const onClose = (): void => resolve(undefined);
        rl.once("close", onClose);
        rl.question(question, (reply) => {
          rl.off("close", onClose);
          resolve(reply);
        });
      }),
    close: () => rl.close(),
  };
}

if (require.main === module) {
  const terminal = process.stdin.isTTY ? terminalAsk() : undefined;
  watch(process.argv.slice(2), (text) => process.stdout.write(text), terminal?.ask)
    .then(
      (code) => {
        process.exitCode = code;
      },
      // The session reports failures as updates; an error here would be a bug worth showing.
      (error: unknown) => {
        process.stderr.write(`! ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exitCode = 1;
      },
    )
    .finally(() => terminal?.close());
}
