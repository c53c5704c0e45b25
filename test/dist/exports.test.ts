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
const entries = ["agui-rx", "agui-rx/server", "agui-rx/client", "agui-rx/client/telemetry", "agui-rx/node", "agui-rx/ai", "agui-rx/redis", "agui-rx/testing", "agui-rx/testing/ai"];

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

// `agui-rx/redis` reaches Redis only through the client it is given (node-redis 5, an optional
// peer): the bundle imports nothing of `redis`. Without a server, a store over a client that was
// never connected fails its calls with the server entry's StoreError (one class, one chunk).
const redisCheck = `
  const store = r.redisStore({ client: createClient({ url: "redis://127.0.0.1:1" }), timeout: 500 });
  store.read("t1").then(
    () => console.log(JSON.stringify({ resolved: true })),
    (error) => console.log(JSON.stringify({
      shared: error instanceof s.StoreError,
      code: error.code,
      message: error.message.slice(0, 45),
      keys: r.threadKeys("agui:", "t1"),
      defaults: r.REDIS_STORE_DEFAULTS.maxRunsPerThread,
    })),
  );`;
const redisExpected = {
  shared: true,
  code: "unavailable",
  message: 'expected Redis to answer the read script for ',
  keys: {
    events: "agui:{t1}:events",
    meta: "agui:{t1}:meta",
    queue: "agui:{t1}:queue",
    queueEntries: "agui:{t1}:queue-entries",
    queueOutcomes: "agui:{t1}:queue-outcomes",
    lease: "agui:{t1}:lease",
    snapshot: "agui:{t1}:snapshot",
    runs: "agui:{t1}:runs",
    messages: "agui:{t1}:messages",
    ids: "agui:{t1}:ids",
    tombstone: "agui:{t1}:tombstone",
    sync: "agui:{t1}:sync",
  },
  defaults: 50,
};

test("agui-rx/redis fails a store's calls with the server entry's StoreError through require()", () => {
  expect(JSON.parse(viaRequire(`const r = require("agui-rx/redis"), s = require("agui-rx/server"), { createClient } = require("redis");${redisCheck}`))).toEqual(redisExpected);
});

test("agui-rx/redis fails a store's calls with the server entry's StoreError through import()", () => {
  expect(JSON.parse(viaImport(`const r = await import("agui-rx/redis"), s = await import("agui-rx/server"), { createClient } = await import("redis");${redisCheck}`))).toEqual(redisExpected);
});

test("the redis bundles carry no Redis client: the caller's is used", () => {
  const bundles = readFileSync(path.join(root, "dist/esm/redis.mjs"), "utf8") + readFileSync(path.join(root, "dist/cjs/redis.cjs"), "utf8");
  expect(bundles).not.toMatch(/from 'redis'|require\('redis'\)|@redis\/client/);
  expect(bundles).toMatch(/XREAD/);
});
