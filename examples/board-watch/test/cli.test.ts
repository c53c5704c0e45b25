/**
 * The board-watch CLI as a user runs it: a child process (`node -r ts-node/register`) against the
 * task-board server and against a server writing with the official `EventEncoder`, answering
 * interrupts from the command line and, on a real terminal (a pty from `script`), at the prompt.
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

/**
 * Runs the CLI with a real terminal as its stdin and stdout (util-linux `script` allocates a pty),
 * typing each reply once the prompt for it has appeared; the input ends after the last reply.
 */
function onTerminal(args: string[], replies: string[]): Promise<{ code: number | null; out: string }> {
  const command = [process.execPath, "-r", "ts-node/register/transpile-only", "examples/board-watch/main.ts", ...args].map(shellQuote).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" } });
    let out = "";
    let prompts = 0;
    const remaining = [...replies];
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      // one reply per prompt, typed only once that prompt is on the screen
      const seen = out.split("or a JSON payload ›").length - 1;
      for (; prompts < seen; prompts++) {
        const reply = remaining.shift();
        if (reply === undefined)
          child.stdin.end("\u0004"); // Ctrl-D on the terminal: end of input
        else child.stdin.write(`${reply}\r`);
      }
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out: out.replace(/\r/g, "") }));
  });
}

const shellQuote = (word: string): string => `'${word.replace(/'/g, "'\\''")}'`;

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
    // the user's own message comes as a content change like the others: printed once, by the same code
    expect(lines.filter((line) => line.includes("add buy milk; add call mom"))).toEqual(["you › add buy milk; add call mom"]);
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

  it("without a terminal or an answer, prints the approval prompt, says how to answer, and exits 2", async () => {
    const { code, out } = await cli(board.url, "add a; clear");
    expect(code).toBe(2);
    expect(out).toMatch(/^\? confirmation: Clear the 1 task from the board\? \[clear:1:/m);
    expect(out).toContain("⏸ interrupted (1 waiting)");
    expect(out).toMatch(/^no answer for clear:1:\S+: pass --approve, or --answer 'clear:1:\S+=\{"approved":true\}', or run in a terminal to be asked$/m);
  }, 30_000);

  it("--approve answers the interrupt, resumes, and exits 0 with the board cleared", async () => {
    const { code, out } = await cli(board.url, "add a; add b; clear", "--approve");
    expect(out).toMatch(/^\(answering clear:2:\S+: resolved \{"approved":true\}\)$/m);
    expect(out).toContain("assistant › Approved: clearing the board.");
    expect(out).toContain('  ← {"removed":2}');
    expect(out).toContain("assistant › The board is empty.");
    expect(out.split("\n").at(-2)).toBe("✓ done");
    expect(code).toBe(0);
  }, 30_000);

  it("--answer with an id prefix (id*) and a JSON payload declines, and the board stays", async () => {
    const { code, out } = await cli(board.url, "add a; clear", "--answer", 'clear:*={"approved":false}');
    expect(out).toMatch(/^\(answering clear:1:\S+: resolved \{"approved":false\}\)$/m);
    expect(out).toContain("Not approved: the board stays as it is.");
    expect(code).toBe(0);
  }, 30_000);

  it("a malformed --answer is a usage error naming what is wrong (exit 1, nothing sent)", async () => {
    const { code, out } = await cli(board.url, "clear", "--answer", "clear:1={approved}");
    expect(out).toMatch(/^expected the payload of --answer clear:1 to be JSON, got "\{approved\}"/m);
    expect(out).not.toContain("→");
    expect(code).toBe(1);
  }, 30_000);

  it("on a terminal, asks; re-asks after an unreadable reply; a 'y' approves and resumes", async () => {
    const { code, out } = await onTerminal([board.url, "add a; clear"], ["maybe", "y"]);
    expect(out).toMatch(/answer clear:1:\S+: \[y\]es, \[n\]o, \[c\]ancel, or a JSON payload ›/);
    expect(out).toContain('! expected y, n, c or a JSON payload, got "maybe"');
    expect(out).toContain("Approved: clearing the board.");
    expect(code).toBe(0);
  }, 30_000);

  it("on a terminal, input that ends before an answer exits 2", async () => {
    const { code, out } = await onTerminal([board.url, "add a; clear"], []);
    expect(out).toMatch(/no answer for clear:1:/);
    expect(code).toBe(2);
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

  it("exits 2 on the interrupt scenario without an answer", async () => {
    const { code, out } = await cli(`${official.url}interrupt`, "go");
    expect(code).toBe(2);
    expect(out).toContain("? confirmation: Send the email? [approve-1]");
  }, 30_000);

  it("--answer <id>=<json> resumes the interrupt scenario to its end", async () => {
    const { code, out } = await cli(`${official.url}interrupt`, "go", "--answer", 'approve-1={"approved":true}');
    expect(out).toContain('(answering approve-1: resolved {"approved":true})');
    expect(out).toContain("assistant › Sent.");
    expect(code).toBe(0);
  }, 30_000);

  it("an --answer for another id leaves the interrupt unanswered (exit 2)", async () => {
    const { code, out } = await cli(`${official.url}interrupt`, "go", "--answer", "approve-2=true");
    expect(out).toContain("no answer for approve-1");
    expect(code).toBe(2);
  }, 30_000);
});
