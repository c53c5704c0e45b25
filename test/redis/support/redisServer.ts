/**
 * A real `redis-server` child on a free 127.0.0.1 port, without persistence (`--save "" --appendonly
 * no`), for the Redis suite's global setup and for tests that need a server of their own to kill;
 * or, for the restart tests, with an append-only file fsynced on every write in a directory of the
 * test's own, started again on the same port and directory. A missing `redis-server` is an error
 * that says how to install it: the suite never skips. The benches start theirs here too
 * (`benchRedis`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A started server. */
export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Stops it (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash would, and resolves once it has exited. */
  kill(): Promise<void>;
}

/** The executable: `REDIS_SERVER` if set, else `redis-server` on PATH. */
const EXECUTABLE = process.env.REDIS_SERVER ?? "redis-server";

/** A port nothing listens on right now (the kernel's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error("could not find a free port"))));
    });
  });
}

/** Options of `startRedisServer`. */
export interface RedisServerOptions {
  /** The port (default: a free one); a restart passes the port of the server it replaces. */
  readonly port?: number;
  /**
   * Persist in this directory with `--appendonly yes --appendfsync always` (every write is on disk
   * before it is answered, and a SIGTERM flushes the rest), so that a server started again on the
   * same directory has everything the stopped one answered. Default: no persistence.
   */
  readonly appendOnlyDir?: string;
  /** Start as a replica of the server on this loopback port (`--replicaof 127.0.0.1 <port>`). */
  readonly replicaOf?: number;
  /** More arguments for `redis-server` (the cluster suite's `--cluster-enabled yes` and its node file). */
  readonly extraArgs?: readonly string[];
}

/**
 * Starts `redis-server` on a loopback port and resolves once it accepts connections (its "Ready
 * to accept connections" line), within 10 s.
 *
 * @example
 * const server = await startRedisServer();
 * process.env.REDIS_URL = server.url;
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const persistence =
    options.appendOnlyDir === undefined ? ["--appendonly", "no"] : ["--dir", options.appendOnlyDir, "--appendonly", "yes", "--appendfsync", "always"];
  const replica = options.replicaOf === undefined ? [] : ["--replicaof", "127.0.0.1", String(options.replicaOf)];
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--save",
    "",
    ...persistence,
    ...replica,
    "--protected-mode",
    "yes",
    "--loglevel",
    "notice",
    ...(options.extraArgs ?? []),
  ];
  const child = spawn(EXECUTABLE, args, { stdio: ["ignore", "pipe", "pipe"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => fail(new Error(`redis-server did not start within 10 s on port ${port}; it said:\n${output}`)), 10_000);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    child.once("error", (error: NodeJS.ErrnoException) =>
      fail(
        error.code === "ENOENT"
          ? new Error(
              `the Redis suite needs a real redis-server, but "${EXECUTABLE}" is not installed: apt-get install -y redis-server (or set REDIS_URL to a running server)`,
            )
          : error,
      ),
    );
    const early = (code: number | null): void => fail(new Error(`redis-server exited with code ${code} before it was ready; it said:\n${output}`));
    child.once("exit", early);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        child.off("exit", early);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
  });
  return server(child, port, exited);
}

/** A Redis to measure against, or why there is none. */
export type BenchRedis = { readonly url: string; stop(): Promise<void> } | { readonly skipped: string };

/**
 * Redis for a bench: `REDIS_URL` (left running), or a `redis-server` started here without
 * persistence (stopped by `stop`); `skipped` says why when neither can be had. A bench skips its
 * Redis cases and says so, where the test suite would fail.
 *
 * @example
 * const redis = await benchRedis();
 * if ("skipped" in redis) console.log(redis.skipped); else try { … } finally { await redis.stop(); }
 */
export async function benchRedis(): Promise<BenchRedis> {
  if (process.env.REDIS_URL !== undefined && process.env.REDIS_URL !== "") return { url: process.env.REDIS_URL, stop: async () => undefined };
  try {
    const server = await startRedisServer();
    return { url: server.url, stop: () => server.stop() };
  } catch (error) {
    return { skipped: error instanceof Error ? error.message : String(error) };
  }
}

function server(child: ChildProcess, port: number, exited: Promise<void>): RedisServer {
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid ?? 0, stop: () => end("SIGTERM"), kill: () => end("SIGKILL") };
}
