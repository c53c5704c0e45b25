/**
 * `agui-rx check` as a user runs it: the built bin (`node dist/cli/agui-rx.cjs`, built by `npm run
 * build`) in a child process, against our own handler (the task board: clean, exit 0) and against
 * a server writing broken sequences with the official `@ag-ui/encoder` (findings, exit 1).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import type { Served } from "../../src/node/serve";
import { createTaskBoardServer } from "../../examples/task-board";
import { ROOT, ensureBuilt, pkg } from "../dist/ensureBuilt";
import { startBadEncoderServer, type BadServer } from "./badEncoderServer";

/** Runs the bin package.json names; resolves with its exit code and output. */
function bin(...args: string[]): Promise<{ code: number | null; out: string }> {
  const file = pkg.bin?.["agui-rx"];
  if (file === undefined) throw new Error('expected package.json to have bin["agui-rx"]');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, file), ...args], { cwd: ROOT });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

let board: Served;
let bad: BadServer;
beforeAll(async () => {
  ensureBuilt();
  board = await createTaskBoardServer();
  bad = await startBadEncoderServer();
}, 300_000);
afterAll(async () => {
  await board.close();
  await bad.close();
});

test("package.json names the bin, and the built file starts with a node shebang", () => {
  expect(pkg.bin).toEqual({ "agui-rx": "./dist/cli/agui-rx.cjs" });
  expect(readFileSync(path.join(ROOT, "dist/cli/agui-rx.cjs"), "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
});

test("a clean run against our handler: no findings, exit 0", async () => {
  const { code, out } = await bin("check", board.url, "add buy milk; add call mom");
  expect(out).toMatch(/^✓ no findings in \d+ frames; the run finished \(success\)$/m);
  expect(code).toBe(0);
}, 60_000);

test("an interrupted run is not a finding", async () => {
  const { code, out } = await bin("check", board.url, "add a; clear");
  expect(out).toMatch(/^✓ no findings in \d+ frames; the run finished \(interrupt\)$/m);
  expect(code).toBe(0);
}, 60_000);

test("a bad sequence from the official encoder: every finding with its stage, rule id and event index, exit 1", async () => {
  const { code, out } = await bin("check", `${bad.url}/bad`);
  const findings = out.split("\n").filter((line) => line.startsWith("✗ #"));
  expect(findings.map((line) => line.split(" ").slice(1, 4).join(" "))).toEqual([
    "#1 verify R15",
    "#4 decode unknown-type",
    "#7 apply patch",
    "#8 normalize C5",
    "#10 verify R3",
  ]);
  expect(findings[1]).toContain("HOLOGRAM");
  expect(out).toMatch(/^✗ 5 findings \(5 errors, 0 warnings\) in 11 frames; the run finished \(success\)$/m);
  expect(code).toBe(1);
}, 60_000);

test("a truncated stream is reported as E8, exit 1", async () => {
  const { code, out } = await bin("check", `${bad.url}/truncated`);
  expect(out).toMatch(/^✗ - run-end E8 the stream ended after 3 frames without RUN_FINISHED or RUN_ERROR/m);
  expect(code).toBe(1);
}, 60_000);

test("--json prints the report as data", async () => {
  const { code, out } = await bin("check", `${bad.url}/truncated`, "--json");
  const report = JSON.parse(out) as { url: string; frames: number; findings: { stage: string; rule: string }[]; end: { kind: string } };
  expect(report).toMatchObject({ url: `${bad.url}/truncated`, frames: 3, end: { kind: "none" } });
  expect(report.findings.map((finding) => `${finding.stage} ${finding.rule}`)).toEqual(["run-end E8"]);
  expect(code).toBe(1);
}, 60_000);

test("an answer that is not SSE, a 404 and a refused connection are http and transport findings", async () => {
  const notSse = await bin("check", `${bad.url}/not-sse`);
  expect(notSse.out).toMatch(/^✗ - http content-type expected Content-Type text\/event-stream, got application\/json$/m);
  expect(notSse.code).toBe(1);
  const missing = await bin("check", `${bad.url}/nobody`);
  expect(missing.out).toMatch(/^✗ - http status expected a 2xx answer, got 404 Not Found: no such agent$/m);
  expect(missing.code).toBe(1);
  const closed = await startBadEncoderServer();
  await closed.close();
  const refused = await bin("check", `${closed.url}/bad`);
  expect(refused.out).toMatch(/^✗ - transport network POST .* failed: fetch failed \(.*ECONNREFUSED.*\)$/m);
  expect(refused.code).toBe(1);
}, 60_000);

test("bad usage prints the usage and exits 2; --help exits 0", async () => {
  const none = await bin();
  expect(none.out).toMatch(/^usage: agui-rx check <url>/);
  expect(none.code).toBe(2);
  const wrong = await bin("check", "not-a-url");
  expect(wrong.out).toMatch(/^agui-rx: expected an http\(s\) URL, got "not-a-url"/);
  expect(wrong.code).toBe(2);
  const help = await bin("--help");
  expect(help.code).toBe(0);
}, 60_000);
