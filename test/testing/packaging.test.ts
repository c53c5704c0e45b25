/**
 * The built kit as a user loads it (docs/testing.md#which-entry): `agui-rx/testing` loads through
 * require() and import() in a process where `ai` cannot be resolved (the optional peer absent),
 * while `agui-rx/testing/ai` needs it and runs a scripted aiAgent; and the kit runs under
 * `node:test`, with no jest anywhere in the process.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { ROOT, ensureBuilt } from "../dist/ensureBuilt";

const HIDE_AI = ["-r", path.join(__dirname, "support/hideAi.cjs"), "--import", `file://${path.join(__dirname, "support/hideAi.mjs")}`];
const node = (args: string[]): string => execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
/** Runs `node args`, expecting it to fail; returns its stderr. */
const failing = (args: string[]): string => {
  try {
    node(args);
  } catch (error) {
    return String(Reflect.get(error as object, "stderr"));
  }
  throw new Error(`expected node ${args.join(" ")} to fail, but it succeeded`);
};

beforeAll(ensureBuilt, 300_000);

const names = `console.log(JSON.stringify(["collectUpdates", "recordSse", "replayRecording", "inProcessEndpoint", "marbleScheduler"].map((name) => typeof m[name])))`;

test("agui-rx/testing loads with require() and import() where ai cannot be resolved", () => {
  const functions = JSON.stringify(["function", "function", "function", "function", "function"]);
  expect(node([...HIDE_AI, "-e", `const m = require("agui-rx/testing"); ${names}`])).toBe(functions);
  expect(node([...HIDE_AI, "--input-type=module", "-e", `const m = await import("agui-rx/testing"); ${names}`])).toBe(functions);
});

test("the hiding is real: agui-rx/ai and agui-rx/testing/ai fail to load under it, both ways", () => {
  expect(failing([...HIDE_AI, "-e", 'require("agui-rx/testing/ai")'])).toContain("Cannot find module 'ai/test' (hidden");
  expect(failing([...HIDE_AI, "-e", 'require("agui-rx/ai")'])).toContain("Cannot find module 'ai' (hidden");
  expect(failing([...HIDE_AI, "--input-type=module", "-e", 'await import("agui-rx/testing/ai")'])).toContain("Cannot find package 'ai/test' (hidden");
});

test("agui-rx/testing/ai runs a scripted aiAgent through require() and import()", () => {
  const script = (load: string) => `${load}
    const model = k.scriptedModel([[k.reasoning("Hm."), k.text("Hi ", "there.")]], { provider: "scripted" });
    const events = [];
    s.run(a.aiAgent({ model }), { threadId: "t", runId: "r", messages: [{ id: "u", role: "user", content: "hello you" }], tools: [], context: [] }).subscribe({
      next: (event) => events.push(event.type),
      complete: () => console.log(JSON.stringify(events)),
    });`;
  const expected = JSON.stringify([
    "RUN_STARTED",
    "STEP_STARTED",
    "REASONING_START",
    "REASONING_MESSAGE_START",
    "REASONING_MESSAGE_CONTENT",
    "REASONING_MESSAGE_END",
    "REASONING_END",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "STEP_FINISHED",
    "RUN_FINISHED",
  ]);
  expect(node(["-e", script('const k = require("agui-rx/testing/ai"), a = require("agui-rx/ai"), s = require("agui-rx/server");')])).toBe(expected);
  expect(
    node([
      "--input-type=module",
      "-e",
      script('const k = await import("agui-rx/testing/ai"), a = await import("agui-rx/ai"), s = await import("agui-rx/server");'),
    ]),
  ).toBe(expected);
});

test("the kit runs under node:test, without jest and without ai", () => {
  const report = node([...HIDE_AI, "--test", "--test-reporter=tap", path.join(__dirname, "nodeTest/kit.mjs")]);
  expect(report).toMatch(/^# pass 4$/m);
  expect(report).toMatch(/^# fail 0$/m);
}, 60_000);
