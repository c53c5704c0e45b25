/**
 * A producer as a child process of its own, on the suite's cluster (producerMain.ts, bundled once
 * per worker with esbuild): it begins a run on a thread, appends, prints the cursor, and keeps its
 * lease until it is killed, so that `kill -9` is a real producer crash.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { bundledEntry } from "../../support/bundledEntry";

const ROOT = join(__dirname, "..", "..", "..", "..");
/** Inside the repository (test-artifacts/ is ignored by git), so that the bundle's `require("redis")` finds node_modules. */
export const CLUSTER_BUNDLES = join(ROOT, "test-artifacts", "redis-cluster");

/** What the producer was asked to do. */
export interface ProducerConfig {
  readonly nodes: readonly string[];
  readonly prefix: string;
  readonly threadIds: readonly string[];
  readonly lease: number;
}

/** A producer that has begun its runs: the last cursor of each thread, and its kill. */
export interface Producer {
  readonly cursors: Readonly<Record<string, string>>;
  kill(): Promise<void>;
}

/**
 * Starts a producer and resolves once its runs have begun and appended (within 20 s).
 *
 * @example
 * const producer = await startProducer({ nodes, prefix, threadIds: ["t1"], lease: 1500 });
 * await producer.kill();
 */
export async function startProducer(config: ProducerConfig): Promise<Producer> {
  const file = await bundledEntry(join(__dirname, "producerMain.ts"), CLUSTER_BUNDLES, "producer");
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...process.env, AGUI_PRODUCER: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const cursors = await new Promise<Record<string, string>>((resolve, reject) => {
    let stdout = "";
    const timer = setTimeout(() => fail(new Error(`the producer did not begin within 20 s; stderr:\n${stderr}`)), 20_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const early = (code: number | null): void => fail(new Error(`the producer exited with code ${code}; stderr:\n${stderr}`));
    child.once("exit", early);
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes("\n")) return;
      clearTimeout(timer);
      child.off("exit", early);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- producerMain's own line, written by the test support
      resolve(JSON.parse(stdout.split("\n")[0])); // test-only: producerMain's announcement
    });
  });
  return {
    cursors,
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
