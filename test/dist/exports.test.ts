// The built package is importable by its name through the `exports` map, as CommonJS and as ESM.
// Each check runs in a child `node` from the repository root, where Node resolves `agui-rx` to this
// package (self-reference), so a wrong path in package.json or a broken bundle fails here.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { ROOT as root, builtFiles, ensureBuilt, pkg } from "./ensureBuilt";

/** Runs a script in a child node process from the repository root; returns what it printed. */
const node = (args: string[]): string => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" }).trim();
const viaRequire = (script: string) => node(["-e", script]);
const viaImport = (script: string) => node(["--input-type=module", "-e", script]);

/** The entries and the subpath each is reached by. */
const entries = ["agui-rx", "agui-rx/server", "agui-rx/client", "agui-rx/node", "agui-rx/ai"];

beforeAll(ensureBuilt, 300_000);

test("the package is called agui-rx and every file its exports map and bins name exists", () => {
  expect(pkg.name).toBe("agui-rx");
  for (const file of builtFiles) expect([file, existsSync(path.join(root, file))]).toEqual([file, true]);
});

test.each(entries)("%s loads with require() and import(), with the same named exports", (entry) => {
  const required = JSON.parse(viaRequire(`console.log(JSON.stringify(Object.keys(require(${JSON.stringify(entry)})).sort()))`)) as string[];
  const imported = JSON.parse(
    viaImport(`const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m).filter((k) => k !== "default").sort()))`),
  ) as string[];
  expect(imported).toEqual(required);
});

test("require() resolves to the CommonJS build and import() to the ES module build", () => {
  expect(viaRequire('console.log(require.resolve("agui-rx"))')).toBe(path.join(root, "dist/cjs/index.cjs"));
  expect(viaImport('console.log(import.meta.resolve("agui-rx"))')).toBe(`file://${path.join(root, "dist/esm/index.mjs")}`);
});

const rootCheck = `
  const result = m.decodeEvent({ type: "TEXT_MESSAGE_START", messageId: "m" });
  console.log(JSON.stringify({
    decodeEvent: typeof m.decodeEvent,
    ev: typeof m.ev,
    runStarted: typeof m.ev.runStarted,
    DecodeError: typeof m.DecodeError,
    encodeSse: typeof m.encodeSse,
    decodeSse: typeof m.decodeSse,
    decodeSseFrames: typeof m.decodeSseFrames,
    decoded: result.right,
    built: m.ev.runStarted("t", "r"),
    frame: m.encodeSse(m.ev.runStarted("t", "r")),
  }));`;
const rootExpected = {
  decodeEvent: "function",
  ev: "object",
  runStarted: "function",
  DecodeError: "function",
  encodeSse: "function",
  decodeSse: "function",
  decodeSseFrames: "function",
  decoded: { type: "TEXT_MESSAGE_START", messageId: "m", role: "assistant" },
  built: { type: "RUN_STARTED", threadId: "t", runId: "r" },
  frame: 'data: {"type":"RUN_STARTED","threadId":"t","runId":"r"}\n\n',
};

test("the root entry works through require()", () => {
  expect(JSON.parse(viaRequire(`const m = require("agui-rx");${rootCheck}`))).toEqual(rootExpected);
});

test("the root entry works through import()", () => {
  expect(JSON.parse(viaImport(`const m = await import("agui-rx");${rootCheck}`))).toEqual(rootExpected);
});

test("CommonJS and ES module builds are separate but each shares one copy of its classes across entries", () => {
  // `agui-rx/server` re-exports stateSpec from the protocol layer: the same function object as the root's, in each format.
  const same = `console.log(String(a.stateSpec === undefined || b.stateSpec === undefined || a.stateSpec === b.stateSpec))`;
  expect(viaRequire(`const a = require("agui-rx"), b = require("agui-rx/server");${same}`)).toBe("true");
  expect(viaImport(`const a = await import("agui-rx"), b = await import("agui-rx/server");${same}`)).toBe("true");
});

// `agui-rx/ai` keeps `ai` external (an optional peer; ESM-only, which Node ≥ 20.19 can require()):
// the built entry runs a real aiAgent over the SDK's own mock model, in both formats.
const aiCheck = `
  const model = new t.MockLanguageModelV4({ doStream: async () => ({ stream: t.simulateReadableStream({ initialDelayInMs: null, chunkDelayInMs: null, chunks: [
    { type: "text-start", id: "0" }, { type: "text-delta", id: "0", delta: "Hi" }, { type: "text-end", id: "0" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 2 }, outputTokens: { total: 1 } } },
  ] }) }) });
  const events = [];
  s.run(a.aiAgent({ model }), { threadId: "t", runId: "r", messages: [{ id: "u", role: "user", content: "hi" }], tools: [], context: [] }).subscribe({
    next: (event) => events.push(event.type === "RUN_FINISHED" ? event.type + " " + JSON.stringify(event.usage) : event.type),
    complete: () => {
      let refusal;
      try { a.toModelPrompt([{ id: "t", role: "tool", toolCallId: "ghost", content: "" }]); } catch (error) { refusal = error; }
      console.log(JSON.stringify({ sharedAgentError: refusal instanceof s.AgentError, events }));
    },
  });`;
const aiExpected = {
  sharedAgentError: true, // the ai entry's errors are the server entry's class (one chunk)
  events: [
    "RUN_STARTED",
    "STEP_STARTED",
    "TEXT_MESSAGE_START",
    "TEXT_MESSAGE_CONTENT",
    "TEXT_MESSAGE_END",
    "STEP_FINISHED",
    'RUN_FINISHED [{"provider":"mock-provider","model":"mock-model-id","inputTokens":2,"outputTokens":1,"totalTokens":3}]',
  ],
};

test("agui-rx/ai runs an aiAgent over the AI SDK's mock model through require()", () => {
  expect(JSON.parse(viaRequire(`const a = require("agui-rx/ai"), s = require("agui-rx/server"), t = require("ai/test");${aiCheck}`))).toEqual(aiExpected);
});

test("agui-rx/ai runs an aiAgent over the AI SDK's mock model through import()", () => {
  expect(JSON.parse(viaImport(`const a = await import("agui-rx/ai"), s = await import("agui-rx/server"), t = await import("ai/test");${aiCheck}`))).toEqual(aiExpected);
});

test("the ai bundles import the SDK rather than carry a copy of it", () => {
  const esm = readFileSync(path.join(root, "dist/esm/ai.mjs"), "utf8");
  const cjs = readFileSync(path.join(root, "dist/cjs/ai.cjs"), "utf8");
  expect(esm).toMatch(/from 'ai'/);
  expect(cjs).toMatch(/require\('ai'\)/);
  expect(esm + cjs).not.toMatch(/MockLanguageModel|function streamText/);
});
