/**
 * The board-watch CLI as a user runs it: a child process (`node -r ts-node/register`) against the
 * task-board server and against a server writing with the official `EventEncoder`.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import type { Served } from "../../../src/node/serve";
import { createTaskBoardServer } from "../../task-board";
import { startOfficialEncoderServer, type OfficialServer } from "../../../test/http/officialEncoderServer";

const ROOT = join(__dirname, "..", "..", "..");

/** Runs the CLI to completion; resolves with its exit code and output. */
function cli(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "examples/board-watch/main.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

let board: Served;
let official: OfficialServer;
beforeAll(async () => {
  board = await createTaskBoardServer();
  official = await startOfficialEncoderServer();
});
afterAll(async () => {
  await board.close();
  await official.close();
});

describe("board-watch against the task board", () => {
  it("prints streamed text on one line, tool calls, state as JSON Patch lines, and exits 0", async () => {
    const { code, out } = await cli(board.url, "add buy milk; add call mom");
    expect(code).toBe(0);
    const lines = out.split("\n");
    expect(lines).toContain('assistant › On it: I will add "buy milk", then add "call mom". ');
    expect(lines).toContain('  state {"op":"add","path":"/tasks/-","value":{"id":2,"title":"call mom","done":false}}');
    expect(lines).toContain('  → add_task {"title":"buy milk"}');
    expect(lines).toContain('  ← {"id":1}');
    expect(lines).toContain("assistant › The board has 2 tasks, 0 done.");
    expect(lines[lines.length - 2]).toBe("✓ done");
  }, 30_000);

  it("shows the researcher as an indented group", async () => {
    const { code, out } = await cli(board.url, "research honeybees");
    expect(code).toBe(0);
    const lines = out.split("\n");
    const start = lines.indexOf("  ┌ researcher started (Looks up background on a topic)");
    expect(start).toBeGreaterThan(0);
    expect(lines[start + 1]).toMatch(/^ {2}│ researcher › Notes on honeybees/);
    expect(lines[start + 2]).toBe("  └ researcher finished");
  }, 30_000);

  it("prints the approval prompt and exits 2 when the run is interrupted", async () => {
    const { code, out } = await cli(board.url, "add a; clear");
    expect(code).toBe(2);
    expect(out).toMatch(/^\? confirmation: Clear all 1 tasks from the board\? \[clear:1:/m);
    expect(out).toContain("⏸ interrupted (1 waiting)");
  }, 30_000);

  it("prints the error on its own line and exits 1 when the run fails", async () => {
    const { code, out } = await cli(`${official.url}no-such-scenario`, "hello");
    expect(code).toBe(1);
    expect(out).toMatch(/^! http: .*404/m);
    expect(out).toMatch(/^✗ failed: /m);
  }, 30_000);
});

describe("board-watch against the official EventEncoder", () => {
  it("follows two interleaved subagents and exits 0", async () => {
    const { code, out } = await cli(`${official.url}subagents`, "go");
    expect(code).toBe(0);
    expect(out).toContain("  ┌ writer started (drafts)");
    expect(out).toContain("  ┌ critic started (reviews)");
    // Interleaved text: each switch starts a new line, a continued message is marked "…".
    expect(out).toContain("  │ writer › First draft, \n  │ critic › Too long, \n  │ writer … second sentence.\n  │ critic … cut it.\n");
    expect(out).toContain("  └ critic finished");
    expect(out).toContain("  └ writer finished");
    expect(out).toContain("assistant › Both are done.");
  }, 30_000);

  it("exits 2 on the interrupt scenario", async () => {
    const { code, out } = await cli(`${official.url}interrupt`, "go");
    expect(code).toBe(2);
    expect(out).toContain("? confirmation: Send the email? [approve-1]");
  }, 30_000);
});
