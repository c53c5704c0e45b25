/**
 * `npm run serve -- --redis <url>` as a user runs it (issue #11 §2): the real npm script in a child
 * process, on the suite's Redis, serving the task-board agent over HTTP with its threads in Redis.
 * A second instance on the same Redis joins what it wrote, and it joins what the second wrote;
 * SIGTERM stops it cleanly. A Redis that cannot be reached fails the start with a clear error
 * instead of retrying forever.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { openRedisStore } from "../../../examples/task-board/redis";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { counter } from "../../client/support";
import { comparable } from "../../support/boardTurns";
import { redisUrl } from "../support/clients";
import { killAll, startInstance } from "../support/instances";
import { freePort } from "../support/redisServer";

const ROOT = join(__dirname, "..", "..", "..");
let serve: ChildProcess | undefined;

afterAll(async () => {
  // The npm script's process group (npm, its shell, node), started detached by this test.
  if (serve?.pid !== undefined && serve.exitCode === null && serve.signalCode === null) {
    try {
      process.kill(-serve.pid, "SIGKILL");
    } catch {
      // the group is gone already
    }
  }
  await killAll();
});

/** Starts `npm run serve -- <args>` on a free port; resolves with its URL once it prints it. */
async function npmServe(args: readonly string[]): Promise<{ child: ChildProcess; url: string; output: () => string; closed: Promise<void> }> {
  const child = spawn("npm", ["run", "--silent", "serve", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  serve = child;
  let output = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  // Once every process of the script (npm, its shell, node) has let go of the pipes.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`npm run serve exited with ${code} before it listened:\n${output}`)));
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const found = /^task-board AG-UI endpoint: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(output);
      if (found) resolve(found[1]);
    });
  });
  return { child, url, output: () => output, closed };
}

test("npm run serve -- --redis <url> keeps the task board's threads in Redis: another instance joins them, and it joins theirs", async () => {
  const served = await npmServe(["--redis", redisUrl()]);
  expect(served.output()).toMatch(/^threads kept in Redis at redis:\/\/127\.0\.0\.1:\d+ \(store instance \w+\)$/m);
  const other = await startInstance({ name: "other", redisUrl: redisUrl(), prefix: "agui:" }); // serve's default prefix
  const threadId = `serve-${process.pid}-${Date.now().toString(36)}`;

  // A turn on `serve`: every frame with id:, the thread in Redis.
  const session = new Session<Board>(new HttpTransport(served.url), { threadId, state: boardSpec, newId: counter("u") });
  const updates = await lastValueFrom(session.send("add buy milk; add call mom").pipe(toArray()));
  expect(updates[updates.length - 1]).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });
  expect((await new HttpTransport(served.url).capabilities()).transport).toEqual({ streaming: true, resumable: true });

  // Joined from the other instance: the same history and board.
  const joined = new Session<Board>(new HttpTransport(other.url), { threadId, state: boardSpec, newId: counter("v") });
  await lastValueFrom(joined.connect().pipe(toArray()));
  expect(comparable(joined.messages)).toBe(comparable(session.messages));
  expect(joined.rawState).toEqual({
    tasks: [
      { id: 1, title: "buy milk", done: false },
      { id: 2, title: "call mom", done: false },
    ],
  });

  // The next turn on the other instance, joined back on `serve`.
  await lastValueFrom(joined.send("done 1").pipe(toArray()));
  const back = new Session<Board>(new HttpTransport(served.url), { threadId, state: boardSpec });
  await lastValueFrom(back.connect().pipe(toArray()));
  expect(comparable(back.messages)).toBe(comparable(joined.messages));
  expect(back.rawState).toEqual({
    tasks: [
      { id: 1, title: "buy milk", done: true },
      { id: 2, title: "call mom", done: false },
    ],
  });

  // Ctrl-C / SIGTERM: the server, the store and the client close, and it exits.
  if (served.child.pid === undefined) throw new Error("npm run serve has no pid");
  process.kill(-served.child.pid, "SIGTERM"); // the group, as a terminal's Ctrl-C reaches npm and the script
  await served.closed;
  expect(served.output()).toMatch(/^task-board endpoint stopped\.$/m);
  expect(served.output()).not.toMatch(/Error|failed/);
}, 60_000);

test("a Redis that cannot be reached fails the start with an error naming it, instead of retrying forever", async () => {
  const url = `redis://127.0.0.1:${await freePort()}`;
  const heard: Error[] = [];
  await expect(openRedisStore(url, { onConnectionError: (error) => heard.push(error) })).rejects.toThrow(
    new RegExp(`^expected a Redis at ${url}, but connecting failed: connect ECONNREFUSED`),
  );
  expect(heard.length).toBe(1); // one attempt, not a retry loop
});
