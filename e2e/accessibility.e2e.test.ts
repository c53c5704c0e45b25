/**
 * The pages as a screen-reader or keyboard user meets them (issue #25 §7), in headless chromium:
 * axe-core finds no serious or critical violation in each state the page can be in — empty,
 * streaming, a tool card, an approval card, a client tool's card, reasoning open and closed (the
 * AI chat page), an error, stopped, dark, the thread sidebar, editing a message — on the React
 * and the Angular task-board pages and the AI chat page; the conversation is a log, busy while a
 * reply streams; each message says who speaks; the typing indicator is a status; focus goes to a
 * card that waits for the user. Also what a reload keeps: the theme picked, the AI chat page's
 * conversation, a finished subagent's name and status. Screenshots (and axe's reports) go to
 * test-artifacts/<page>-a11y-<state>.png (.axe.json).
 */
import type { Locator, Page } from "playwright-core";
import { startServeScript, type RunningServeScript } from "../examples/ai-chat/test/serveScript";
import { startWebServer } from "../examples/react/webServer";
import { THEME_KEY } from "../examples/shared/theme";
import type { Served } from "../src/node";
import { seriousViolations } from "./axe";
import { ChatPage } from "./chatPage";
import { observedTaskBoard, type ObservedAgent } from "./observedTaskBoard";
import { ARTIFACTS, refuseNextSend, suiteBrowser, TASK_BOARD_PAGES } from "./taskBoardPages";

const browser = suiteBrowser();

/**
 * The control that opens and closes a reasoning block: its `<summary>` (or a button with
 * `aria-expanded`, should a page draw its own).
 */
function reasoningToggle(page: Page): Locator {
  return page.getByTestId("reasoning").first().locator("summary, button[aria-expanded]").first();
}

/** Whether the first reasoning block shows its text. */
function reasoningOpen(page: Page): Promise<boolean> {
  return page
    .getByTestId("reasoning")
    .first()
    .evaluate((block) => {
      const details = block.closest("details") ?? block.querySelector("details");
      if (details !== null) return details.open;
      const button = block.querySelector("button[aria-expanded]");
      return button === null || button.getAttribute("aria-expanded") === "true";
    });
}

/** A page with its errors collected; `expected` tells which console errors a test provokes on purpose. */
async function openPage(url: string, name: string): Promise<{ page: Page; chat: ChatPage; errors: string[] }> {
  const page = await browser().context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // A new tab joins a thread the server does not know yet: answered 404 by design (docs/durability.md §4), logged by Chromium.
    const unknownThread = message.location().url.endsWith("/agent/connect") && /status of 404/.test(message.text());
    if (message.type() === "error" && !unknownThread) errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  await page.goto(url);
  const chat = new ChatPage(page, name, ARTIFACTS);
  await chat.input.waitFor();
  return { page, chat, errors };
}

/** Screenshots the state and expects axe to find nothing serious or critical in it. */
async function expectAccessible(page: Page, chat: ChatPage, name: string, state: string): Promise<void> {
  await chat.frames();
  await chat.screenshot(`a11y-${state}`);
  expect(await seriousViolations(page, ARTIFACTS, `${name}-a11y-${state}`)).toEqual([]);
}

/** The test id of the element with focus (or its tag). */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName ?? null);

/** The log's aria-busy. */
const logBusy = (page: Page) => page.getByRole("log", { name: "Messages" }).getAttribute("aria-busy");

/** Each message's text, without the "Stopped" marker (the session's own mark of what its Stop cut off, which a reload does not know). */
const messageTexts = (page: Page) =>
  page.getByTestId("message").evaluateAll((messages) =>
    messages.map((message) => {
      const copy = message.cloneNode(true) as HTMLElement;
      copy.querySelector('[data-testid="stopped-marker"]')?.remove();
      return copy.textContent ?? "";
    }),
  );

const REFUSED = expect.stringMatching(/^console: Failed to load resource: the server responded with a status of 409 \(Conflict\) \(.*\/agent\)$/);

/** Turns dark mode on with the top bar's toggle and checks the page shows it. */
async function darkOn(page: Page): Promise<void> {
  const toggle = page.getByTestId("theme-toggle");
  if ((await toggle.getAttribute("aria-pressed")) !== "true") await toggle.click();
  await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
  // The page's theme is applied in the click handler; the button's own state renders after it
  // (Angular's change detection runs later), so it is waited for, not read at once.
  await page.locator('[data-testid="theme-toggle"][aria-pressed="true"]').waitFor({ state: "attached" });
}

test("the axe helper reports what keeps a reader out: text too faint to read, an image without a name", async () => {
  const page = await browser().context.newPage();
  try {
    await page.setContent(
      '<html lang="en"><head><title>probe</title></head><body><main><p style="color:#bbb;background:#fff">faint</p><img src="data:,"></main></body></html>',
    );
    const found = await seriousViolations(page, ARTIFACTS, "axe-probe");
    expect(found.map((line) => line.slice(0, line.indexOf(" ")))).toEqual(["color-contrast", "image-alt"]);
  } finally {
    await page.close();
  }
});

describe.each(TASK_BOARD_PAGES)("the $name task-board page", ({ name, build }) => {
  let web: Served;
  let agent: ObservedAgent;
  let page: Page;
  let chat: ChatPage;
  let errors: string[];

  beforeAll(async () => {
    agent = observedTaskBoard();
    web = await startWebServer({ root: await build(), agent: agent.handler });
    ({ page, chat, errors } = await openPage(web.url, name));
  }, 300_000); // a production `ng build` alone takes 90–150 s on a busy two-core machine
  afterAll(async () => {
    await page?.close();
    await web?.close();
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  it("empty: the conversation is a log named Messages, beside the thread sidebar", async () => {
    await page.getByTestId("welcome").waitFor();
    expect(await page.getByRole("log", { name: "Messages" }).count()).toBe(1);
    expect(await page.getByRole("complementary", { name: "Threads" }).count()).toBe(1);
    await expectAccessible(page, chat, name, "empty");
  });

  it("streaming: the log is busy and the typing indicator is a status while the reply streams; each message says who speaks", async () => {
    const hold = agent.holdNext("TOOL_CALL_RESULT");
    await chat.say("add buy milk");
    await hold.reached;
    await page.locator('[data-testid="tool-card"][data-status="running"]').waitFor();
    expect(await logBusy(page)).toBe("true");
    expect(await page.getByRole("status", { name: "The agent is working" }).count()).toBe(1);
    await expectAccessible(page, chat, name, "streaming");
    hold.release();
    await chat.idle();
    expect(await logBusy(page)).toBe("false");
    expect(await page.getByRole("article", { name: "You said" }).allTextContents()).toEqual(["add buy milk"]);
    expect(await page.getByRole("article", { name: "Assistant said" }).count()).toBeGreaterThan(0);
    expect(await page.getByTestId("typing").count()).toBe(0);
  });

  it("a tool card with its result", async () => {
    await page.locator('[data-testid="tool-card"][data-tool="add_task"][data-status="done"]').waitFor();
    await expectAccessible(page, chat, name, "tool-card");
  });

  it("an approval card takes the focus when it appears, and says '1 task'", async () => {
    await chat.say("clear");
    const card = page.getByTestId("interrupt");
    await card.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "interrupt");
    expect(await card.getAttribute("role")).toBe("alertdialog");
    expect(await card.locator("strong").textContent()).toBe("Clear the 1 task from the board?");
    await expectAccessible(page, chat, name, "approval");
    await page.keyboard.press("Tab"); // from the card to its first button: the keyboard user is where the decision is
    expect(await focused(page)).toBe("reject");
    await page.keyboard.press("Enter");
    await chat.idle();
    expect(await page.getByTestId("task").allTextContents()).toEqual(["buy milk"]);
  });

  it("a client tool's confirmation card takes the focus too, but not from a draft being written", async () => {
    await chat.say("delete 1");
    const card = page.getByTestId("confirm-delete");
    await card.waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "confirm-delete");
    await expectAccessible(page, chat, name, "confirm-card");
    await card.getByTestId("keep").click();
    await chat.idle();

    // While the user writes, a card that appears leaves the focus in the box (the alertdialog announces it).
    const hold = agent.holdNext("TOOL_CALL_START");
    await chat.say("delete 1");
    await hold.reached;
    await chat.input.fill("a draft");
    hold.release();
    await card.waitFor();
    await chat.frames();
    expect(await focused(page)).toBe("chat-input");
    await card.getByTestId("keep").click();
    await chat.idle();
    await chat.input.fill("");
  });

  it("an error", async () => {
    await refuseNextSend(page);
    await chat.say("add refused errand");
    await page.locator('[data-testid="status"][data-end="failed"]').waitFor();
    expect(errors.splice(0)).toEqual([REFUSED]);
    await page.unroute("**/agent");
    await expectAccessible(page, chat, name, "error");
    await chat.input.fill("");
  });

  it("stopped", async () => {
    const started = agent.started();
    const groups = await page.getByTestId("subagent-group").count();
    await chat.say("research slowly");
    await started;
    await page.getByTestId("subagent-group").nth(groups).locator('[data-testid="message"]').waitFor();
    await page.getByTestId("stop").click();
    await page.locator('[data-testid="status"][data-end="cancelled"]').waitFor();
    await page.getByTestId("stopped-marker").first().waitFor();
    await expectAccessible(page, chat, name, "stopped");
  });

  it("after a reload, a finished subagent is headed by its name and 'finished'", async () => {
    await chat.say("research rxjs");
    await chat.idle();
    const joined = page.waitForResponse((response) => response.url().endsWith("/agent/connect"));
    await page.reload();
    expect((await joined).status()).toBe(200);
    await chat.input.waitFor();
    const last = page.getByTestId("subagent-group").last();
    await last.locator('[data-testid="message"]').waitFor();
    expect(await last.getAttribute("data-name")).toBe("researcher");
    expect(await last.getByTestId("subagent-status").textContent()).toBe("finished");
    await chat.screenshot("a11y-subagent-after-reload");
  });

  it("editing a message", async () => {
    await page.getByTestId("question-bar").first().getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("textbox", { name: "Edit message" });
    await editor.waitFor();
    await expectAccessible(page, chat, name, "editing");
    await page.getByRole("button", { name: "Cancel" }).click();
    await editor.waitFor({ state: "detached" });
  });

  it("dark: the toggle picks it, axe finds the colours readable, and a reload keeps it", async () => {
    await darkOn(page);
    await expectAccessible(page, chat, name, "dark");
    expect(await page.evaluate((key) => localStorage.getItem(key), THEME_KEY)).toBe("dark");
    await page.reload();
    await chat.input.waitFor();
    await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
    expect(await page.getByTestId("theme-toggle").getAttribute("aria-pressed")).toBe("true");
    await page.getByTestId("theme-toggle").click();
    await page.locator('html[data-theme="light"]').waitFor({ state: "attached" });
  });

  it("follows the system's colour scheme until the user picks", async () => {
    await page.evaluate((key) => localStorage.removeItem(key), THEME_KEY);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.reload();
    await chat.input.waitFor();
    await page.locator('html[data-theme="dark"]').waitFor({ state: "attached" });
    await page.emulateMedia({ colorScheme: "light" }); // the system changes while the page is open: the page follows
    await page.locator('html[data-theme="light"]').waitFor({ state: "attached" });
    await page.getByTestId("theme-toggle").click(); // the user picks dark…
    await page.emulateMedia({ colorScheme: "light" });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.emulateMedia({ colorScheme: "light" }); // …and the system no longer decides
    await chat.frames();
    expect(await page.locator("html").getAttribute("data-theme")).toBe("dark");
    await page.getByTestId("theme-toggle").click();
    await page.emulateMedia({ colorScheme: null });
  });

  it("the thread sidebar, with the earlier chat listed beside a new one", async () => {
    const before = await page.getByTestId("thread").textContent();
    await page.getByTestId("new-chat").click();
    await page.locator('[data-testid="thread"]', { hasNotText: before ?? "" }).waitFor();
    await chat.input.waitFor();
    await page.getByTestId("thread-row").first().waitFor();
    await expectAccessible(page, chat, name, "threads");
  });
});

describe("the AI chat page", () => {
  let chatServer: RunningServeScript;
  let page: Page;
  let chat: ChatPage;
  let errors: string[];
  const name = "ai-chat";

  beforeAll(async () => {
    // `npm run ai-chat` (the scripted model, which loads as ES modules only: a child process), at a
    // pace Stop can catch and a state can be looked at mid-stream: 60 ms between streamed parts.
    chatServer = await startServeScript({ AI_CHAT_DELAY_MS: "60" });
    ({ page, chat, errors } = await openPage(chatServer.url, name));
  }, 300_000);
  afterAll(async () => {
    await page?.close();
    if (chatServer) expect(await chatServer.stop()).toBe(0);
  });
  afterEach(() => expect(errors.splice(0)).toEqual([]));

  it("empty", async () => {
    await page.getByTestId("welcome").waitFor();
    expect(await page.getByRole("log", { name: "Messages" }).count()).toBe(1);
    await expectAccessible(page, chat, name, "empty");
  });

  it("streaming, then a tool card and the reasoning open and closed", async () => {
    await chat.say("What's the weather in Seoul?");
    await page.getByTestId("reasoning").first().waitFor();
    // read at one instant: while the status says running, the log says busy
    const now = await page.evaluate(() => ({
      running: document.querySelector('[data-testid="status"]')?.getAttribute("data-status"),
      busy: document.querySelector('[role="log"]')?.getAttribute("aria-busy"),
      typing: document.querySelector('[data-testid="typing"]')?.getAttribute("role"),
    }));
    expect(now).toEqual({ running: "running", busy: "true", typing: "status" });
    await expectAccessible(page, chat, name, "streaming");
    await page.locator('[data-testid="tool-card"][data-tool="get_weather"][data-status="done"]').waitFor();
    await chat.idle();
    expect(await logBusy(page)).toBe("false");
    expect(await page.getByRole("article", { name: "You said" }).allTextContents()).toEqual(["What's the weather in Seoul?"]);
    expect(await page.getByRole("article", { name: "Assistant said" }).count()).toBeGreaterThan(0);
    await expectAccessible(page, chat, name, "tool-card");

    expect(await reasoningOpen(page)).toBe(true);
    await expectAccessible(page, chat, name, "reasoning-open");
    // Closed: through the page's collapse control (the block's "Thinking" summary).
    await reasoningToggle(page).click();
    expect(await reasoningOpen(page)).toBe(false);
    await expectAccessible(page, chat, name, "reasoning-closed");
    await reasoningToggle(page).click();
    expect(await reasoningOpen(page)).toBe(true);
  });

  it("the share-time card takes the focus when it appears", async () => {
    await chat.say("What time is it?");
    await page.getByTestId("share-time").waitFor();
    await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "share-time");
    await expectAccessible(page, chat, name, "share-time");
    await page.getByTestId("decline-time").click();
    await chat.idle();
  });

  it("stopped: Stop cancels the answer, which is marked Stopped", async () => {
    await chat.say("Tell me a story");
    // the scripted model's answer to this is its help, some 50 words at 60 ms each: Stop comes early in it
    await page.getByRole("article", { name: "Assistant said" }).filter({ hasText: "I am the" }).waitFor();
    await page.getByTestId("stop").click();
    await page.locator('[data-testid="status"][data-end="cancelled"]').waitFor();
    expect(await page.getByTestId("status").textContent()).toContain("Stopped");
    await page.getByTestId("stopped-marker").waitFor();
    await expectAccessible(page, chat, name, "stopped");
  });

  it("an error", async () => {
    await refuseNextSend(page);
    await chat.say("Hello!");
    await page.locator('[data-testid="status"][data-end="failed"]').waitFor();
    expect(errors.splice(0)).toEqual([REFUSED]);
    await page.unroute("**/agent");
    await expectAccessible(page, chat, name, "error");
    await chat.input.fill("");
  });

  it("keeps its conversation across a reload", async () => {
    const thread = await page.locator(".topbar .thread").textContent();
    const said = await messageTexts(page);
    expect(said.length).toBeGreaterThan(4);
    const joined = page.waitForResponse((response) => response.url().endsWith("/agent/connect"));
    await page.reload();
    expect((await joined).status()).toBe(200);
    await chat.input.waitFor();
    await page
      .getByTestId("message")
      .nth(said.length - 1)
      .waitFor();
    expect(await page.locator(".topbar .thread").textContent()).toBe(thread);
    expect(await messageTexts(page)).toEqual(said);
    await chat.screenshot("a11y-reloaded");
  });

  it("dark", async () => {
    await darkOn(page);
    await expectAccessible(page, chat, name, "dark");
    await page.getByTestId("theme-toggle").click();
  });
});
