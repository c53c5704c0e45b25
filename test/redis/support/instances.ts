/**
 * Server instances as child processes for the multi-instance tests: `instanceMain.ts` bundled once
 * per test worker with esbuild (a child then starts in a fraction of a second, where ts-node would
 * take seconds, which matters for tests that restart every instance), started with `node`, each
 * on its own loopback port. `kill()` is a crash (SIGKILL), `stop()` a graceful restart (SIGTERM).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { bundledEntry } from "./bundledEntry";
import type { InstanceConfig } from "./instanceConfig";

const ROOT = join(__dirname, "..", "..", "..");
/** Inside the repository (test-artifacts/ is ignored by git), so that the bundle's `require("redis")` finds node_modules. */
export const INSTANCE_BUNDLES = join(ROOT, "test-artifacts", "redis-instances");

/** A running instance. */
export interface Instance {
  readonly name: string;
  readonly port: number;
  /** `http://127.0.0.1:<port>/agent`. */
  readonly url: string;
  /** The store instance's id (its connections are named `agui-rx:<store>:reader` and `…:signals`). */
  readonly store: string;
  readonly pid: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGKILL, as a crash: resolves once it has exited. */
  kill(): Promise<void>;
  /** SIGTERM: resolves with its exit code once it has exited. */
  stop(): Promise<number | null>;
}

const started = new Set<Instance>();

/**
 * Starts an instance and resolves once it listens (within 20 s).
 *
 * @example
 * const a = await startInstance({ name: "A", redisUrl: redisUrl(), prefix });
 */
export async function startInstance(config: InstanceConfig): Promise<Instance> {
  const file = await bundledEntry(join(__dirname, "instanceMain.ts"), INSTANCE_BUNDLES, "instance");
  const child: ChildProcess = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: { ...process.env, AGUI_INSTANCE: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const announced = await new Promise<{ port: number; store: string }>((resolve, reject) => {
    let stdout = "";
    let settled = false;
    const timer = setTimeout(() => fail(new Error(`instance ${config.name} did not start within 20 s; stderr:\n${stderr}`)), 20_000);
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    child.once("error", fail);
    child.once("exit", (code) => fail(new Error(`instance ${config.name} exited with code ${code} before it listened; stderr:\n${stderr}`)));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const line = stdout.split("\n")[0];
      if (stdout.includes("\n") && !settled) {
        settled = true;
        clearTimeout(timer);
        // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- instanceMain's own announcement, written by the test support
        resolve(JSON.parse(line)); // test-only: instanceMain's own announcement
      }
    });
  });
  const instance: Instance = {
    name: config.name,
    port: announced.port,
    url: `http://127.0.0.1:${announced.port}/agent`,
    store: announced.store,
    pid: child.pid ?? -1,
    stderr: () => stderr,
    kill: async () => {
      started.delete(instance);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      started.delete(instance);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
  started.add(instance);
  return instance;
}

/** Kills every instance still running (call in afterEach/afterAll). */
export async function killAll(): Promise<void> {
  await Promise.all([...started].map((instance) => instance.kill()));
}
