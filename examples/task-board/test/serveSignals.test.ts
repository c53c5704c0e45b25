/**
 * `npm run serve` as a user (or a process manager) stops it: through npm's own PID. npm runs the
 * script under `sh -c`, and the shell does not hand the SIGTERM on, so the server stops because
 * its parent went away (`stopOnSignals`): the port is free afterwards and every process of the
 * script has exited. A port already taken is told with the `PORT` hint and a non-zero exit.
 * Everything here waits on events (a printed line, the output's end, an exit), never on time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join } from "node:path";

const ROOT = join(__dirname, "..", "..", "..");

/** A port that was free a moment ago (the kernel's pick), and a way to hold one. */
function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listenOn(0);
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("expected a TCP address");
  return address.port;
}

/** `npm run serve` with PORT set; `ended` resolves when every process holding its output exited (the pipes closed), `exited` with npm's exit code. */
function npmRunServe(port: number) {
  const child: ChildProcessWithoutNullStreams = spawn("npm", ["run", "serve"], { cwd: ROOT, env: { ...process.env, PORT: String(port) } });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  // The pipes stay open while any process of the script (npm, sh, node) holds them.
  const ended = Promise.all([new Promise((resolve) => child.stdout.once("end", resolve)), new Promise((resolve) => child.stderr.once("end", resolve))]);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal === null ? null : -1))));
  const printed = (needle: string) =>
    new Promise<void>((resolve, reject) => {
      const look = () => {
        if (out.includes(needle)) resolve();
      };
      child.stdout.on("data", look);
      child.once("exit", () => (out.includes(needle) ? resolve() : reject(new Error(`expected "${needle}" before the exit, but got: ${out}${err}`))));
      look();
    });
  return { child, ended, exited, printed, output: () => out, errors: () => err };
}

test("SIGTERM to npm's PID: the server closes, every process of the script exits, and the port is free again", async () => {
  const port = await freePort();
  const serve = npmRunServe(port);
  await serve.printed(`task-board AG-UI endpoint: http://127.0.0.1:${port}/`);
  expect(await fetch(`http://127.0.0.1:${port}/agent/capabilities`).then((answer) => answer.status)).toBe(200);
  serve.child.kill("SIGTERM"); // npm's PID, not the server's
  await serve.exited;
  await serve.ended; // node, npm's grandchild, held the pipes until it exited
  expect(serve.output()).toContain("task-board endpoint stopped.");
  const again = await listenOn(port); // the port is free: nothing of the script holds it
  await new Promise<void>((resolve) => again.close(() => resolve()));
}, 120_000);

test("a port already in use: the PORT hint on stderr and a non-zero exit", async () => {
  const taken = await listenOn(0);
  const address = taken.address();
  if (address === null || typeof address === "string") throw new Error("expected a TCP address");
  try {
    const serve = npmRunServe(address.port);
    const code = await serve.exited;
    await serve.ended;
    expect(code).not.toBe(0);
    expect(serve.errors()).toContain(
      `port ${address.port} is already in use (is another server still running?): set PORT to another port, e.g. PORT=${address.port + 1}, or PORT=0 for any free one`,
    );
  } finally {
    await new Promise<void>((resolve) => taken.close(() => resolve()));
  }
}, 120_000);
