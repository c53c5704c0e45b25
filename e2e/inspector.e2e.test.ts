/**
 * `agui-rx inspect` in headless chromium (docs/observability.md#inspect-cli): its server in process,
 * its page built from the sources as `npm run build` builds it, against two endpoints over real
 * loopback HTTP:
 *
 * - our own handler with a memory store: the page joins a thread whose run is live (started by
 *   another client), and shows the rest of the run as it streams: grouped by run, step, tool call and
 *   message; an event opened shows its raw SSE frame and the state before, after and the diff;
 * - a server written with the official `@ag-ui/encoder` and nothing of this library, which has no
 *   `/connect` and sends a run with ordering mistakes: the page sends from its own composer and the
 *   verifier's findings show at the events that caused them.
 *
 * Screenshots into test-artifacts/inspect-*.png; `INSPECT_DOCS_SCREENSHOT=1` also writes the one
 * docs/observability.md shows (docs/images/inspector.png).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as t from "io-ts";
import type { Page } from "playwright-core";
import { Session } from "../src/client/Session";
import { HttpTransport } from "../src/client/transports/HttpTransport";
import { startInspectServer, type RunningInspectServer } from "../src/cli/startInspectServer";
import { serve, type Served } from "../src/node";
import { createHandler, memoryStore, success, type Agent } from "../src/server";
import { stateSpec } from "../src/protocol/stateSpec";
import { seriousViolations } from "./axe";
import { BAD_RUN_TRACE_ID, startBadSequenceServer, type BadSequenceServer } from "./badSequenceServer";
import { launchChromium, type LaunchedBrowser } from "./browser";
import { ARTIFACTS } from "./taskBoardPages";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the page's bundler is a CommonJS script shared with rollup.config.mjs, without types to import
const { buildInspectorPage } = require("../scripts/inspector/buildInspectorPage.cjs") as { buildInspectorPage: (outdir: string) => Promise<string> };

const Board = t.type({ tasks: t.array(t.type({ title: t.string, done: t.boolean })) });
type Board = t.TypeOf<typeof Board>;
/** The board a thread starts with: big enough that the second change goes out as a STATE_DELTA (a snapshot would be larger). */
const START: Board = { tasks: ["call mom", "water the plants", "book the dentist"].map((title) => ({ title, done: false })) };
const MILK = { title: "buy milk", done: false };

/** An agent that waits, once it has started, until the test lets it go on: a step with a tool call that changes the state twice, then a message. */
function gatedAgent() {
  let reach = (): void => undefined;
  let release = (): void => undefined;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const agent: Agent<Board> = {
    state: stateSpec(Board, START),
    async run(ctx) {
      reach();
      await released;
      await ctx.step("plan", async () => {
        const call = ctx.toolCall("add_task");
        call.argsJson({ title: "buy milk" });
        call.updateState((board) => ({ tasks: [...board.tasks, MILK] }));
        call.updateState((board) => ({ tasks: board.tasks.map((task) => (task.title === "buy milk" ? { ...task, done: true } : task)) }));
        call.resultJson({ ok: true });
      });
      ctx.say("Added buy milk, and it is done already.");
      return success();
    },
  };
  return { agent, reached, release };
}

let browser: LaunchedBrowser;
let pageRoot: string;
const pageErrors: string[] = [];
/** Every answer of 400 or more the page got, as `status method path`: each test says which it expects. */
const failedRequests: string[] = [];
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  pageRoot = mkdtempSync(join(tmpdir(), "agui-rx-inspect-page-"));
  await buildInspectorPage(pageRoot);
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  rmSync(pageRoot, { recursive: true, force: true });
});
afterEach(() => expect(pageErrors.splice(0)).toEqual([]));
afterEach(() => void failedRequests.splice(0));

const pages: Page[] = [];
/** Closes the pages a test opened (before its servers go: a page left open would retry and log refused connections). */
async function closePages(): Promise<void> {
  for (const page of pages.splice(0)) await page.close();
}

async function openPage(url: string): Promise<Page> {
  const page = await browser.context.newPage();
  pages.push(page);
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    // a failed load is in failedRequests, with its URL
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) pageErrors.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) failedRequests.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  await page.goto(url);
  return page;
}

/** The inspector's button for the event at `index` of its stream, of `type`. */
const eventButton = (page: Page, index: number, type: string) => page.getByRole("button", { name: new RegExp(`^#${index} ${type}\\b`) });

/** The text of the `<pre>` under the detail heading `name`. */
const block = (page: Page, name: string) => page.locator(`h4:text-is("${name}") + pre`);

describe("against our server", () => {
  const TOKEN = "alice-token";
  let served: Served;
  let inspector: RunningInspectServer;
  afterEach(async () => {
    await closePages();
    await inspector?.close();
    await served?.close();
  });

  test("joins a live run's thread and shows the rest as it streams: grouped, an event opened with its raw frame and state diff", async () => {
    const { agent, reached, release } = gatedAgent();
    // `identify`: threads have owners, and the thread list routes exist; the inspector passes the owner's token on (`--header`).
    const identify = (request: Request) => (request.headers.get("authorization") === `Bearer ${TOKEN}` ? "alice" : undefined);
    served = await serve(createHandler(agent, { store: memoryStore(), identify }));
    // Another client of the same owner starts the run; the page joins while it is live.
    const other = new Session(new HttpTransport(served.url, { headers: { Authorization: `Bearer ${TOKEN}` } }), { threadId: "inspect-board" });
    const updates: string[] = [];
    const finished = new Promise<void>((resolve) => other.send("add buy milk").subscribe({ next: (update) => updates.push(update.kind), complete: resolve }));
    await reached;
    inspector = await startInspectServer({
      url: served.url,
      threadId: "inspect-board",
      headers: { Authorization: `Bearer ${TOKEN}` },
      traceLink: "http://traces.example/trace/{traceId}",
      pageRoot,
    });
    const page = await openPage(inspector.url);
    await page.getByTestId("inspect-mode").getByText("joins threads").waitFor();
    await page
      .getByTestId("inspect-thread-list")
      .getByRole("button", { name: /^add buy milk/ })
      .waitFor(); // the owner's thread list, titled by its first message
    await eventButton(page, 0, "RUN_STARTED").first().waitFor(); // joined: the live run's start
    release();
    await finished;
    await eventButton(page, 0, "RUN_FINISHED")
      .or(page.getByRole("button", { name: /RUN_FINISHED/ }))
      .first()
      .waitFor();

    // grouped: the run, its step, the tool call inside the step, the assistant's message
    const groups = await page.locator(".agui-inspector summary").allTextContents();
    expect(groups.some((text) => /^run \S+/.test(text))).toBe(true);
    expect(groups).toContain("step plan");
    expect(groups.some((text) => /^tool call \S+/.test(text))).toBe(true);
    expect(groups.some((text) => /^message \S+/.test(text))).toBe(true);
    expect(await page.getByText(/\d+ events · 0 errors · 0 warnings/).count()).toBe(1);

    // an event opened: the state delta's raw SSE frame, the state before and after, and the diff
    await page
      .getByRole("button", { name: /STATE_DELTA/ })
      .last()
      .click();
    expect(await block(page, "Raw SSE frame").textContent()).toMatch(/^(id: .*\n)?data: \{"type":"STATE_DELTA"/m);
    expect(JSON.parse((await block(page, "State before").textContent()) ?? "")).toEqual({ tasks: [...START.tasks, MILK] });
    expect(JSON.parse((await block(page, "State after").textContent()) ?? "")).toEqual({ tasks: [...START.tasks, { ...MILK, done: true }] });
    expect(JSON.parse((await block(page, "Diff (JSON Patch)").textContent()) ?? "")).toEqual([{ op: "replace", path: "/tasks/3/done", value: true }]);
    await page.screenshot({ path: join(ARTIFACTS, "inspect-our-server.png"), fullPage: true });
    expect(await seriousViolations(page, ARTIFACTS, "inspect-our-server")).toEqual([]);
    expect(updates).toContain("done");
    other.close();
    expect(failedRequests).toEqual([]);
  });
});

describe("against an @ag-ui/encoder server that sends a bad sequence", () => {
  let bad: BadSequenceServer;
  let inspector: RunningInspectServer;
  afterEach(async () => {
    await closePages();
    await inspector?.close();
    await bad?.close();
  });

  test("no /connect: the page sends from its composer, and the verifier's findings show at the events that caused them", async () => {
    bad = await startBadSequenceServer();
    inspector = await startInspectServer({ url: bad.url, traceLink: "http://traces.example/trace/{traceId}", pageRoot });
    const page = await openPage(inspector.url);
    await page
      .getByTestId("inspect-mode")
      .getByText(/sends its own runs/)
      .waitFor();
    await page.getByLabel(/Message to thread/).fill("Hello");
    await page.getByRole("button", { name: "Send" }).click();
    await eventButton(page, 4, "TEXT_MESSAGE_CONTENT").waitFor();
    expect(bad.runs).toHaveLength(1);

    // the findings are listed under the event that caused them, and only there
    const orphan = page.getByRole("list", { name: "Findings of event 4" });
    expect(await orphan.textContent()).toMatch(/R15/);
    expect(await page.getByRole("list", { name: "Findings of event 9" }).textContent()).toMatch(/R2/); // the second RUN_STARTED
    await page.getByText("12 events · 2 errors · 0 warnings").waitFor();
    expect(await page.getByRole("list", { name: "Findings of event 3" }).count()).toBe(0);
    // the run's trace id, linked through --trace-link
    expect(await page.getByRole("link", { name: BAD_RUN_TRACE_ID }).getAttribute("href")).toBe(`http://traces.example/trace/${BAD_RUN_TRACE_ID}`);
    await page.getByRole("button", { name: /^#8 STATE_DELTA/ }).click();
    expect(JSON.parse((await block(page, "Diff (JSON Patch)").textContent()) ?? "")).toEqual([{ op: "replace", path: "/count", value: 2 }]);
    await page.screenshot({ path: join(ARTIFACTS, "inspect-bad-sequence.png"), fullPage: true });
    if (process.env.INSPECT_DOCS_SCREENSHOT === "1") await page.screenshot({ path: join(__dirname, "..", "docs", "images", "inspector.png") });
    expect(await seriousViolations(page, ARTIFACTS, "inspect-bad-sequence")).toEqual([]);
    expect(failedRequests).toEqual(["404 GET /agent/capabilities"]); // the probe: a server without threads
  });

  test("capabilities that claim threads but a /connect that answers 404: the join is refused, and the page composes instead", async () => {
    bad = await startBadSequenceServer({ claimResumable: true });
    inspector = await startInspectServer({ url: bad.url, threadId: "t-elsewhere", pageRoot });
    const page = await openPage(inspector.url);
    await page
      .getByTestId("inspect-mode")
      .getByText(/^sends its own runs: joining thread t-elsewhere was refused/)
      .waitFor();
    await page.getByLabel(/Message to thread inspect-/).fill("Hello");
    await page.getByRole("button", { name: "Send" }).click();
    await eventButton(page, 11, "RUN_FINISHED").waitFor();
    expect(bad.runs.map((run) => run.threadId)).toEqual([expect.stringMatching(/^inspect-/)]);
    // the join refused; the thread list's stream, asked at the same time, is 404 too when it went out
    // before the refusal took the list away (a loaded machine may cancel it first: then it is not seen)
    expect(failedRequests.filter((request) => request !== "404 GET /agent/threads/events")).toEqual(["404 POST /agent/connect"]);
    expect(failedRequests.filter((request) => request === "404 GET /agent/threads/events").length).toBeLessThanOrEqual(1);
  });
});
