/**
 * The load suite's side of the wire: starts `loadServer.ts` in a child process, asks it for its
 * figures over IPC, and drives requests at it over loopback with `node:http` (cheap per request,
 * so the clients' parsing stays small next to the server's work).
 */
import { fork, type ChildProcess } from "node:child_process";
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import * as path from "node:path";
import type { LoadCommand, LoadStats } from "./loadServer";
import type { HandlerOptions } from "../../../src/server";

/** A started load server. */
export interface LoadServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Sends a command and resolves with the figures the server answers with. */
  ask(command: LoadCommand | LoadCommand["cmd"]): Promise<LoadStats>;
  stop(): Promise<void>;
}

const ROOT = path.join(__dirname, "..", "..", "..");

/**
 * Forks the server (with `--expose-gc`, so its heap figures are after a real collection) and waits
 * until it listens. `nodeFlags` go to the child's node (a small young generation makes a sampled
 * heap peak track live data instead of garbage not yet collected).
 */
export function startLoadServer(
  options: Pick<HandlerOptions, "maxBufferedBytes" | "highWaterMark" | "bodyTimeoutMs"> = {},
  nodeFlags: readonly string[] = [],
): Promise<LoadServer> {
  const child = fork(path.join(__dirname, "loadServer.ts"), [JSON.stringify(options)], {
    cwd: ROOT,
    execArgv: [
      "--expose-gc",
      ...nodeFlags,
      ...(process.env.LOAD_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.LOAD_PROFILE}`] : []),
      "-r",
      "ts-node/register/transpile-only",
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the load server exited with ${code} before it listened`)));
    child.once("message", (message: { url?: string }) => {
      if (message.url === undefined) return reject(new Error("the load server did not send its url"));
      const url = message.url;
      resolve({
        url,
        child,
        ask: (command) =>
          new Promise<LoadStats>((answer) => {
            const message = typeof command === "string" ? { cmd: command } : command;
            const cmd = message.cmd;
            const onMessage = (reply: { reply?: string; stats?: LoadStats }) => {
              if (reply.reply !== cmd || reply.stats === undefined) return;
              child.off("message", onMessage);
              answer(reply.stats);
            };
            child.on("message", onMessage);
            child.send(message);
          }),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/** One connection per request: 500 concurrent runs are 500 sockets, as 500 browsers would be. */
export const loadAgent = new HttpAgent({ keepAlive: false, maxSockets: Infinity });

export const RUN_BODY = JSON.stringify({ threadId: "load", runId: "run", messages: [{ id: "u1", role: "user", content: "go" }] });

/** POSTs a run and resolves with the response once its headers are in (the body not read yet). */
export function openRun(url: string): Promise<{ response: IncomingMessage; destroy: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: "POST", agent: loadAgent, headers: { "Content-Type": "application/json", Accept: "text/event-stream" } },
      (response) => resolve({ response, destroy: () => req.destroy() }),
    );
    req.on("error", reject);
    req.end(RUN_BODY);
  });
}

/** What a read of a whole SSE body saw: frames counted by their blank-line ends, and the last frame. */
export interface BodySummary {
  readonly frames: number;
  readonly bytes: number;
  readonly last: string;
}

/** Reads a response to its end, counting frames without parsing them (the server's figures are the point). */
export function summarize(response: IncomingMessage): Promise<BodySummary> {
  return new Promise((resolve, reject) => {
    let frames = 0;
    let bytes = 0;
    let tail = "";
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
      let from = 0;
      for (;;) {
        const at = chunk.indexOf("\n\n", from);
        if (at === -1) break;
        frames++;
        from = at + 2;
      }
      tail = (tail + chunk).slice(-4096);
    });
    response.on("end", () => {
      const parts = tail.split("\n\n").filter((part) => part.length > 0);
      resolve({ frames, bytes, last: parts[parts.length - 1] ?? "" });
    });
    response.on("error", reject);
  });
}

/** Rejects after `ms` unless `promise` settles first: a bound on a load scenario, not a synchronisation. */
export function bounded<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`expected ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** Megabytes, one decimal. */
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
