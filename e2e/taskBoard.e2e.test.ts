/**
 * Both task-board pages (React via Vite, Angular via the Angular CLI) in headless chromium, against
 * the real task-board agent behind the real HTTP handler: typing commands, watching the board and
 * the streamed text, the researcher's group, the approval for "clear", and stop aborting the
 * server's run.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { buildAngularPage } from "../examples/angular/buildAngularPage";
import { buildReactPage } from "../examples/react/buildPage";
import { startWebServer } from "../examples/react/webServer";
import type { Served } from "../src/node";
import { launchChromium, type LaunchedBrowser } from "./browser";
import { observedTaskBoard, type ObservedAgent } from "./observedTaskBoard";

const ARTIFACTS = join(__dirname, "..", "test-artifacts");

let browser: LaunchedBrowser;
beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const pages: readonly { name: string; build: () => Promise<string> }[] = [
  { name: "react", build: () => buildReactPage() },
  { name: "angular", build: () => buildAngularPage() },
];

describe.each(pages)("the $name page", ({ name, build }) => {
  let web: Served;
  let agent: ObservedAgent;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const root = await build();
    agent = observedTaskBoard();
    web = await startWebServer({ root, agent: agent.handler });
    page = await browser.context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    await page.goto(web.url);
    await page.getByTestId("chat-input").waitFor();
  });
  afterAll(async () => {
    await page?.close();
    await web?.close();
  });
  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  const say = async (text: string) => {
    await page.getByTestId("chat-input").fill(text);
    await page.getByTestId("send").click();
  };
  const idle = () => page.locator('[data-testid="status"][data-status="idle"]').waitFor();

  it("adds two tasks while the assistant's text streams", async () => {
    // Watch from inside the page: the moment the second task shows, is the run still going, and
    // how long is the assistant's text then, compared with at the end?
    await page.evaluate(() => {
      const w = window as unknown as { seen: { tasks: number; running: boolean; text: number }[] };
      w.seen = [];
      new MutationObserver(() => {
        const assistant = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')];
        w.seen.push({
          tasks: document.querySelectorAll('[data-testid="task"]').length,
          running: document.querySelector('[data-testid="status"]')?.getAttribute("data-status") === "running",
          text: assistant.map((m) => m.querySelector("p")?.textContent ?? "").join("").length,
        });
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    await say("add buy milk; add call mom");
    await page.locator('[data-testid="task"]').nth(1).waitFor();
    await idle();
    expect(await page.getByTestId("task").allTextContents()).toEqual(["buy milk", "call mom"]);
    expect(await page.getByTestId("tool-card").count()).toBeGreaterThanOrEqual(2);
    const seen = await page.evaluate(() => (window as unknown as { seen: { tasks: number; running: boolean; text: number }[] }).seen);
    const finalText = seen[seen.length - 1].text;
    expect(finalText).toBeGreaterThan(0);
    // The assistant's text grew in several steps while the run was running (it streamed), and
    // the two tasks arrived through the shared state during that same run.
    const whileRunning = seen.filter((s) => s.running);
    expect(new Set(whileRunning.map((s) => s.text)).size).toBeGreaterThan(2);
    expect(Math.min(...whileRunning.map((s) => s.text))).toBeLessThan(finalText);
  });

  it("groups the researcher subagent's messages under its name", async () => {
    await say("research rxjs");
    const group = page.locator('[data-testid="subagent-group"][data-name="researcher"]');
    await group.waitFor();
    await idle();
    expect(await group.locator('[data-testid="message"]').count()).toBeGreaterThan(0);
    expect((await group.textContent())?.toLowerCase()).toContain("rxjs");
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  });

  it("asks before clearing, and clears once approved", async () => {
    await say("clear");
    await page.getByTestId("interrupt").waitFor();
    expect(await page.getByTestId("task").count()).toBe(2);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-approval.png`), fullPage: true });
    await page.getByTestId("approve").click();
    await page.getByTestId("board-empty").waitFor();
    await idle();
    expect(await page.getByTestId("interrupt").count()).toBe(0);
  });

  it("stop aborts the run on the server", async () => {
    const started = agent.started();
    const aborted = agent.nextAbort();
    await say("research slowly");
    await started;
    // Stop once the researcher is visibly mid-sentence.
    await page.locator('[data-testid="subagent-group"]').nth(1).locator('[data-testid="message"]').waitFor();
    await page.getByTestId("stop").click();
    await expect(aborted).resolves.toBe(true);
    await idle();
    expect(await page.getByTestId("error").count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, `${name}-stopped.png`), fullPage: true });
  });
});
