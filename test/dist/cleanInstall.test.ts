// `@opentelemetry/api` is an optional peer (docs/observability.md#no-sdk): the built `agui-rx/server`,
// `agui-rx/client` and `agui-rx/client/telemetry` load and run a run in a project that does not have
// it, as CommonJS and as ESM. The project is a temporary folder holding a copy of the package
// (package.json and dist, copied so that Node resolves from there rather than from this
// repository's node_modules) and links to its only runtime peers (rxjs, tslib, fp-ts, io-ts);
// `require.resolve("@opentelemetry/api")` failing there proves the absence.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ROOT, ensureBuilt } from "./ensureBuilt";

const PEERS = ["rxjs", "tslib", "fp-ts", "io-ts"];

let app: string;
beforeAll(() => {
  ensureBuilt();
  app = mkdtempSync(path.join(tmpdir(), "agui-rx-clean-"));
  const installed = path.join(app, "node_modules", "agui-rx");
  mkdirSync(installed, { recursive: true });
  cpSync(path.join(ROOT, "package.json"), path.join(installed, "package.json"));
  cpSync(path.join(ROOT, "dist"), path.join(installed, "dist"), { recursive: true });
  for (const name of PEERS) symlinkSync(path.join(ROOT, "node_modules", name), path.join(app, "node_modules", name));
  writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "clean-consumer", private: true, type: "commonjs" }));
  writeFileSync(path.join(app, "run.cjs"), `${requireLines}\n${RUN}`);
  writeFileSync(path.join(app, "run.mjs"), `${importLines}\nimport { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${RUN}`);
}, 300_000);
afterAll(() => rmSync(app, { recursive: true, force: true }));

const requireLines = `const { createHandler } = require("agui-rx/server");
const { Session, HttpTransport } = require("agui-rx/client");
const { clientTelemetry } = require("agui-rx/client/telemetry");`;
const importLines = `import { createHandler } from "agui-rx/server";
import { Session, HttpTransport } from "agui-rx/client";
import { clientTelemetry } from "agui-rx/client/telemetry";`;

/** A run through the handler (the transport's fetch calls it in-process), with the telemetry entry on; prints what it found. */
const RUN = `
let otel = "absent";
try { otel = require.resolve("@opentelemetry/api"); } catch { /* the point: not installed */ }
const handler = createHandler({ run(ctx) { ctx.say("Hello from a clean install."); } });
const transport = new HttpTransport("http://agent.test/agent", { fetch: (url, init) => handler(new Request(url, init)) });
const session = new Session(transport, { threadId: "t1", telemetry: clientTelemetry() });
session.send("hi").subscribe((update) => {
  if (update.kind === "done") console.log(JSON.stringify({ otel, end: update.end, said: session.messages.map((message) => message.content) }));
});`;

test.each([
  ["CommonJS (require)", "run.cjs"],
  ["ESM (import)", "run.mjs"],
])("without @opentelemetry/api, %s: the server and client entries load and a run succeeds", (_label, file) => {
  const printed = execFileSync(process.execPath, [file], { cwd: app, encoding: "utf8" }).trim();
  expect(JSON.parse(printed)).toEqual({ otel: "absent", end: { kind: "success" }, said: ["hi", "Hello from a clean install."] });
});

test("the same project finds @opentelemetry/api once it is linked: the absence above is the folder's, not the check's", () => {
  const link = path.join(app, "node_modules", "@opentelemetry");
  mkdirSync(link, { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules", "@opentelemetry", "api"), path.join(link, "api"));
  try {
    const printed = execFileSync(process.execPath, ["run.cjs"], { cwd: app, encoding: "utf8" }).trim();
    expect((JSON.parse(printed) as { otel: string }).otel).toContain(path.join("@opentelemetry", "api"));
  } finally {
    rmSync(link, { recursive: true, force: true });
  }
});
