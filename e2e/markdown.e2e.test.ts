/**
 * Markdown in the three chat pages (the task board in React and in Angular, the AI chat), in
 * headless chromium against stand-in agents (markdownAgents.ts): an answer's heading, list and
 * code block drawn from markdown, Copy on the code block and on the message (checked on the real
 * clipboard), a code fence still open while the answer streams (drawn as code in progress, what
 * follows it not read as markdown), a 50 kB answer streamed to the end, the reasoning folded and
 * unfolded (mouse and keyboard), and a 7-line message sent while scrolled up: the pane goes to the
 * bottom and the reply is in view. Screenshots: test-artifacts/<page>-md-<state>.png.
 */
import type { Page } from "playwright-core";
import { buildChatPage } from "../examples/ai-chat/buildChatPage";
import { buildAngularPage } from "../examples/angular/buildAngularPage";
import { buildReactPage } from "../examples/react/buildPage";
import { startWebServer } from "../examples/react/webServer";
import type { Served } from "../src/node";
import { ChatPage } from "./chatPage";
import { Gates, markdownChat, markdownTaskBoard } from "./markdownAgents";
import { FENCE_AFTER, LONG, MARKDOWN_ANSWER, SNIPPET } from "./markdownScripts";
import { ARTIFACTS, suiteBrowser } from "./taskBoardPages";

const browser = suiteBrowser();

/** The three pages, each served with its stand-in. */
const PAGES: readonly { readonly name: string; readonly start: (gates: Gates) => Promise<Served> }[] = [
  { name: "react", start: async (gates) => startWebServer({ root: await buildReactPage(), agent: markdownTaskBoard(gates) }) },
  { name: "ai-chat", start: async (gates) => startWebServer({ root: await buildChatPage(), agent: markdownChat(gates) }) },
  { name: "angular", start: async (gates) => startWebServer({ root: await buildAngularPage(), agent: markdownTaskBoard(gates) }) },
];

describe.each(PAGES)("markdown on the $name page", ({ name, start }) => {
  const gates = new Gates();
  let web: Served;
  let page: Page;
  let chat: ChatPage;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    web = await start(gates);
    await browser().context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.url });
    page = await browser().context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      // A new tab joining its not yet known thread is answered 404 (docs/durability.md §4): Chromium logs it.
      const unknownThread = message.location().url.endsWith("/agent/connect") && /status of 404/.test(message.text());
      if (message.type() === "error" && !unknownThread) pageErrors.push(`console: ${message.text()}`);
    });
    chat = new ChatPage(page, `${name}-md`, ARTIFACTS);
    await page.goto(web.url);
    await chat.input.waitFor();
  }, 300_000); // a production `ng build` alone takes 90–150 s on a busy two-core machine
  afterAll(async () => {
    await page?.close();
    await web?.close();
  });
  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  const assistant = () => page.locator('[data-testid="message"][data-role="assistant"]').last();
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  it("draws an answer's markdown, with Copy on its code block and on the message", async () => {
    await chat.say("show me markdown");
    await chat.idle();
    const answer = assistant();
    expect(await answer.locator("h2").textContent()).toBe("Sending a message");
    expect(await answer.locator("strong").textContent()).toBe("Session");
    expect(await answer.locator("ol > li").allTextContents()).toEqual(["make the transport", "make the session"]);
    const block = answer.getByTestId("code-block");
    expect(await block.count()).toBe(1);
    expect(await block.getAttribute("data-open")).toBeNull();
    expect(await block.locator(".code-lang").textContent()).toBe("ts");
    // The code is text: the markup inside it is shown, not run or dropped.
    expect(await block.locator("pre > code").textContent()).toBe(SNIPPET);
    expect(await block.locator("pre b").count()).toBe(0);
    await chat.screenshot("code");

    await block.getByTestId("copy-code").click();
    await block.locator('[data-testid="copy-code"][data-copied="copied"]').waitFor();
    expect(await clipboard()).toBe(SNIPPET);
    expect(await block.getByTestId("copy-code").textContent()).toBe("Copied");

    await answer.getByTestId("copy-message").click();
    await answer.locator('[data-testid="copy-message"][data-copied="copied"]').waitFor();
    expect(await clipboard()).toBe(MARKDOWN_ANSWER);
    await chat.screenshot("copied");
  });

  it("folds the reasoning away and opens it again, by mouse and by keyboard", async () => {
    const reasoning = page.getByTestId("reasoning").last();
    const body = reasoning.locator("p");
    expect(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    expect(await body.isVisible()).toBe(true);
    await reasoning.getByTestId("reasoning-toggle").click();
    await body.waitFor({ state: "hidden" });
    expect(await reasoning.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
    await chat.screenshot("reasoning-closed");
    await reasoning.getByTestId("reasoning-toggle").focus();
    await page.keyboard.press("Enter");
    await body.waitFor({ state: "visible" });
    await page.keyboard.press(" ");
    await body.waitFor({ state: "hidden" });
    await page.keyboard.press("Enter");
    await body.waitFor({ state: "visible" });
  });

  it("draws a code fence still open while the answer streams as code in progress", async () => {
    const gate = gates.arm();
    await chat.say("a fence, please");
    await gate.reached;
    const answer = assistant();
    const open = answer.locator('[data-testid="code-block"][data-open]');
    await open.locator("pre > code").filter({ hasText: "print(" }).waitFor();
    // After the open fence everything is code: the "#" line is not a heading, nothing after it is markdown.
    expect(await open.locator("pre > code").textContent()).toBe("import sys\n# not a heading while the fence is open\nprint(");
    expect(await answer.locator("h1").count()).toBe(0);
    expect(await open.locator(".code-lang").textContent()).toBe("python");
    await chat.screenshot("open-fence");

    gate.release();
    await chat.idle();
    const done = answer.getByTestId("code-block");
    expect(await done.getAttribute("data-open")).toBeNull();
    expect(await done.locator("pre > code").textContent()).toBe('import sys\n# not a heading while the fence is open\nprint("done")');
    expect(await answer.locator("p code").last().textContent()).toBe("python script.py");
    expect(FENCE_AFTER.endsWith("`python script.py`.")).toBe(true);
  });

  it("streams a 50 kB answer to its end", async () => {
    await chat.say("a long answer");
    await chat.idle();
    const answer = assistant();
    expect(await answer.getByTestId("code-block").count()).toBe(LONG.codeBlocks);
    expect(await answer.locator("h2").count()).toBe(LONG.sections);
    expect(await answer.locator("h2").last().textContent()).toBe(LONG.lastHeading);
    expect(await answer.locator('[data-testid="code-block"][data-open]').count()).toBe(0);
    await chat.atBottom();
    await chat.screenshot("long");
  });

  it("goes to the bottom when a 7-line message is sent while scrolled up, and shows the reply", async () => {
    // Scroll up into the long answer: the pane lets go of the bottom.
    await chat.pane.hover();
    await page.mouse.wheel(0, -3000);
    await page.getByTestId("jump-to-latest").waitFor();
    expect((await chat.paneMetrics()).belowView).toBeGreaterThan(1000);
    const lines = ["one", "two", "three", "four", "five", "six", "seven"];
    await chat.input.fill(lines.join("\n"));
    await page.getByTestId("send").click();
    await chat.idle();
    await chat.atBottom();
    await chat.frames();
    const metrics = await chat.paneMetrics();
    expect(metrics.pinned).toBe(true);
    expect(await page.getByTestId("jump-to-latest").count()).toBe(0);
    expect(await page.locator('[data-testid="message"][data-role="user"]').last().textContent()).toContain(lines.join("\n"));
    expect(await assistant().textContent()).toContain("Noted.");
    expect(await chat.inView(assistant())).toBe(true);
    await chat.screenshot("seven-lines");
  });
});
