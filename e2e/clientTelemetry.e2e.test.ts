/**
 * A traced Session in Chromium, cross-origin (docs/observability.md#client): the page on one
 * loopback origin, the agent on another with `cors` allowing the page. With the agent's origin in
 * `propagateCrossOrigin` the browser's preflight asks for `traceparent`, the server allows it, and
 * the POST carries the page's run span as its parent; without it the POST carries none.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { serve, type Served } from "../src/node/serve";
import { createHandler } from "../src/server/http/createHandler";
import { memoryStore } from "../src/server/store/memory/memoryStore";
import { launchChromium, type LaunchedBrowser } from "./browser";
import type { TracedRunResult } from "./clientTelemetryPage";

interface Seen {
  readonly method: string;
  readonly traceparent: string | null;
  readonly requestHeaders: string | null;
}

let browser: LaunchedBrowser;
let pageServer: Server;
let pageOrigin: string;
let agent: Served;
let agentUrl: string;
const seen: Seen[] = [];
let page: Page;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [path.join(__dirname, "clientTelemetryPage.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]?.text ?? "";
  pageServer = createServer((request, response) => {
    if (request.url === "/page.js") response.writeHead(200, { "Content-Type": "text/javascript" }).end(script);
    else response.writeHead(200, { "Content-Type": "text/html" }).end('<!doctype html><title>traced</title><script src="/page.js"></script>');
  });
  await new Promise<void>((resolve) => pageServer.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`; // a TCP listener's address is an AddressInfo
  const handler = createHandler(
    { run: async (ctx) => void ctx.say("Hello, page.") },
    { store: memoryStore(), cors: { origin: pageOrigin }, onRunError: () => undefined },
  );
  agent = await serve((request) => {
    seen.push({
      method: request.method,
      traceparent: request.headers.get("traceparent"),
      requestHeaders: request.headers.get("access-control-request-headers"),
    });
    return handler(request);
  });
  agentUrl = `${agent.url}agent`;
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(`${pageOrigin}/`);
  await page.waitForFunction(() => "tracedRun" in globalThis);
});

afterAll(async () => {
  await browser?.close();
  await agent?.close();
  await new Promise<void>((resolve) => pageServer?.close(() => resolve()));
});

const tracedRun = (allowed: readonly string[]): Promise<TracedRunResult> =>
  page.evaluate(
    async ([url, origins]) =>
      (globalThis as unknown as { tracedRun: (url: string, allowed: readonly string[]) => Promise<TracedRunResult> }).tracedRun(url, origins),
    [agentUrl, allowed] as const,
  );

test("the agent's origin named: the preflight asks for traceparent and passes, and the POST's traceparent is the page's run span", async () => {
  seen.length = 0;
  const agentOrigin = new URL(agentUrl).origin;
  expect(agentOrigin).not.toBe(pageOrigin);
  const result = await tracedRun([agentOrigin]);
  expect(result.end).toEqual({ kind: "success" });
  const [span] = result.spans;
  expect(result.spans.map((recorded) => recorded.name)).toEqual(["invoke_agent"]);
  const preflight = seen.find((request) => request.method === "OPTIONS");
  expect(preflight?.requestHeaders?.split(",").map((name) => name.trim())).toEqual(expect.arrayContaining(["traceparent"]));
  const posts = seen.filter((request) => request.method === "POST");
  expect(posts.map((request) => request.traceparent)).toEqual([`00-${span.traceId}-${span.spanId}-0${span.traceFlags}`]);
});

test("the agent's origin not named: the span is recorded in the page, and the POST carries no traceparent", async () => {
  seen.length = 0;
  const result = await tracedRun([]);
  expect(result.end).toEqual({ kind: "success" });
  expect(result.spans.map((recorded) => recorded.name)).toEqual(["invoke_agent"]);
  expect(seen.filter((request) => request.method === "POST").map((request) => request.traceparent)).toEqual([null]);
  expect(seen.filter((request) => request.requestHeaders?.includes("traceparent") === true)).toEqual([]);
});
