/** `npm start` as a user runs it: a child process that must print the conversation and exit 0. */
import { spawn } from "node:child_process";
import { join } from "node:path";

it("npm start plays the scripted conversation over HTTP and exits 0", async () => {
  const { code, out } = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "examples/task-board/start.ts"], {
      cwd: join(__dirname, "..", "..", ".."),
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ code: exit, out }));
  });
  expect(code).toBe(0);
  const lines = out.split("\n");
  expect(lines[0]).toMatch(/^task-board agent listening on http:\/\/127\.0\.0\.1:\d+\/$/);
  expect(lines).toContain('assistant › On it: I will add "buy milk", then add "call mom". ');
  expect(lines).toContain('  state {"op":"add","path":"/tasks/-","value":{"id":2,"title":"call mom","done":false}}');
  expect(lines).toContain("  ┌ researcher started (Looks up background on a topic)");
  expect(lines).toContain("  └ researcher finished");
  expect(out).toMatch(/^\? confirmation: Clear all 3 tasks from the board\? /m);
  expect(lines).toContain('(the user answers "Clear all 3 tasks from the board?" with: yes)');
  expect(lines).toContain('final board: {"tasks":[]}');
}, 30_000);
