/**
 * A load client in a process of its own, for suites that measure what something costs the server
 * process as a whole (the telemetry suite): a client in the measured process would pay the same
 * process-wide costs (Node's promise hooks once an `AsyncLocalStorage` context is entered) and
 * charge them to the server, where a real server's clients run in browsers and other processes.
 *
 * `startReaderProcess()` forks this file; the child answers each `read` with how many frames and
 * bytes the SSE answer had and how long it took, timed in the child from the request to the end.
 */
import { fork, type ChildProcess } from "node:child_process";
import { postSse, readAll } from "./sseReading";

/** One request the child makes: POST `body` as JSON to `url`, read the SSE answer whole. */
interface ReadRequest {
  readonly id: number;
  readonly url: string;
  readonly body: unknown;
}

/** What the child answers: the answer's frames and bytes and the milliseconds from request to end, or why it failed. */
interface ReadReply {
  readonly id: number;
  readonly frames?: number;
  readonly bytes?: number;
  readonly ms?: number;
  readonly error?: string;
}

/** A read timed in the reader process. */
export interface TimedRead {
  readonly frames: number;
  readonly bytes: number;
  readonly seconds: number;
}

/** The reader process seen from the suite: `read` one answer whole, `close` the process. */
export interface ReaderProcess {
  readonly read: (url: string, body: unknown) => Promise<TimedRead>;
  readonly close: () => Promise<void>;
}

/**
 * Forks a reader process (this file, through ts-node as the bench runs) and resolves once it is up.
 * Reads are answered in the order asked; a failed read rejects with the child's error.
 *
 * @example
 * const reader = await startReaderProcess();
 * const { frames, seconds } = await reader.read(`${server.url}agent`, input);
 * await reader.close();
 */
export async function startReaderProcess(): Promise<ReaderProcess> {
  const child: ChildProcess = fork(__filename, ["--reader"], { execArgv: ["-r", "ts-node/register/transpile-only"], stdio: "inherit" });
  const waiting = new Map<number, { resolve: (read: TimedRead) => void; reject: (error: Error) => void }>();
  let next = 0;
  child.on("message", (message: ReadReply | "ready") => {
    if (message === "ready") return;
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(`reader process: ${message.error}`));
    else waiter?.resolve({ frames: message.frames!, bytes: message.bytes!, seconds: message.ms! / 1000 });
  });
  child.on("exit", (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`reader process exited (${code}) with a read outstanding`));
    waiting.clear();
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", (message) =>
      message === "ready" ? resolve() : reject(new Error(`reader process: expected "ready", got ${JSON.stringify(message)}`)),
    );
    child.once("error", reject);
  });
  return {
    read: (url, body) =>
      new Promise<TimedRead>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ id, url, body } satisfies ReadRequest);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.disconnect();
      }),
  };
}

/** The child: answers each request until its parent disconnects. */
function serveReads(): void {
  process.on("message", (request: ReadRequest) => {
    void (async () => {
      try {
        const start = performance.now();
        const { frames, bytes } = await readAll(await postSse(request.url, request.body));
        process.send!({ id: request.id, frames, bytes, ms: performance.now() - start } satisfies ReadReply);
      } catch (error) {
        process.send!({ id: request.id, error: error instanceof Error ? error.message : String(error) } satisfies ReadReply);
      }
    })();
  });
  process.send!("ready");
}

if (require.main === module && process.argv.includes("--reader")) serveReads();
