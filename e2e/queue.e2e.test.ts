/**
 * Sending while the agent works (docs/queue.md) on both task-board pages in headless chromium,
 * against the real task-board agent behind the real handler (a memory store, threads tied to the
 * profile's bearer token). The live run is `count to <n>`, whose numbers wait on a pace the test
 * steps (observedTaskBoard's `steps`): it stays live exactly as long as the test types into it.
 * Enter queues a message (listed as queued, run after the live one, shown once); Steer hands one
 * to the live answer (the agent takes it through `ctx.incoming$` and says so; no run of its own);
 * Interrupt & send ends the live run cancelled and runs the message; Cancel takes a queued message
 * back; a reload shows what is still queued and then its run. Screenshots into
 * test-artifacts/<page>-queue-<state>.png.
 */
import type { Page } from "playwright-core";
import { startWebServer } from "../examples/react/webServer";
import type { Served } from "../src/node";
import { ChatPage } from "./chatPage";
import { observedTaskBoard, type ObservedAgent } from "./observedTaskBoard";
import { ARTIFACTS, suiteBrowser, TASK_BOARD_PAGES } from "./taskBoardPages";

const browser = suiteBrowser();

describe.each(TASK_BOARD_PAGES)("the $name page", ({ name, build }) => {
  let web: Served;
  let agent: ObservedAgent;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    agent = observedTaskBoard(0, 0);
    web = await startWebServer({ root: await build(), agent: agent.handler });
  }, 300_000); // a production `ng build` alone takes 90–150 s on a busy two-core machine
  afterAll(async () => {
    await web?.close();
  });
  beforeEach(() => agent.steps.hold());
  afterEach(() => {
    agent.steps.release(); // a failed test leaves no run parked on a step
    expect(pageErrors).toEqual([]);
  });

  /** A new tab (a new thread) on the page, with its errors collected. */
  async function openTab(): Promise<{ page: Page; chat: ChatPage }> {
    const page = await browser().context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    await page.goto(web.url);
    const chat = new ChatPage(page, `${name}-queue`, ARTIFACTS);
    await chat.input.waitFor();
    return { page, chat };
  }

  /** Starts `count to <n>` and resolves once the run is live, parked before its first number. */
  async function startCounting(chat: ChatPage, to: number): Promise<void> {
    await chat.say(`count to ${to}`);
    await agent.steps.waiting();
    await chat.page.locator('[data-testid="status"][data-status="running"]').waitFor();
  }

  const userMessages = (page: Page, text: string) => page.locator('[data-testid="message"][data-role="user"]', { hasText: text });
  const assistantMessage = (page: Page, text: string) => page.locator('[data-testid="message"][data-role="assistant"]', { hasText: text });
  const waitingRow = (page: Page, text: string) => page.getByTestId("waiting-message").filter({ hasText: text });
  /** The texts of the conversation's messages, in order, each as `role: text`. */
  const conversation = (page: Page) =>
    page
      .locator('[data-testid="message"]')
      .evaluateAll((messages) =>
        messages.map((message) => `${message.getAttribute("data-role")}: ${message.querySelector('[data-testid="message-text"], p')?.textContent ?? ""}`),
      );
  /** Waits until the board lists exactly `titles`, in order. */
  const boardShows = (page: Page, titles: readonly string[]) =>
    page.waitForFunction(
      (expected) => JSON.stringify([...document.querySelectorAll('[data-testid="task"]')].map((task) => task.textContent)) === expected,
      JSON.stringify(titles),
    );

  test("queue: Enter during a run queues the message; it runs after the live one and shows once", async () => {
    const { page, chat } = await openTab();
    await startCounting(chat, 2);
    // The box stays usable during the run: Enter queues.
    expect(await chat.input.isDisabled()).toBe(false);
    await chat.input.fill("add buy milk");
    await chat.input.press("Enter");
    const row = waitingRow(page, "add buy milk");
    await row.and(page.locator('[data-status="queued"]')).waitFor();
    expect(await row.getByText("Queued").count()).toBe(1);
    expect(await userMessages(page, "add buy milk").count()).toBe(0); // listed as waiting, not in the conversation
    expect(await chat.input.inputValue()).toBe("");
    await chat.screenshot("queued");

    const runsBefore = agent.runs;
    agent.steps.release();
    await assistantMessage(page, 'add "buy milk"').waitFor();
    await boardShows(page, ["buy milk"]);
    await row.waitFor({ state: "detached" });
    await chat.idle();
    expect(agent.runs).toBe(runsBefore + 1);
    expect(await userMessages(page, "add buy milk").count()).toBe(1);
    const texts = await conversation(page);
    expect(texts).toContain("assistant: Done counting.");
    expect(texts.indexOf("user: add buy milk")).toBeGreaterThan(texts.indexOf("assistant: Done counting."));
    await chat.screenshot("queued-ran");
    await page.close();
  });

  test("steer: the live answer takes the message (once, where it was taken) and says so; no run of its own", async () => {
    const { page, chat } = await openTab();
    await startCounting(chat, 2);
    const runsBefore = agent.runs;
    await chat.input.fill("count in French");
    // Keyboard: the Steer button is reachable and works with Enter.
    await page.getByRole("button", { name: "Steer" }).press("Enter");
    await assistantMessage(page, 'Heard you mid-count: "count in French".').waitFor();
    await userMessages(page, "count in French").waitFor();
    expect(await page.getByTestId("waiting-messages").count()).toBe(0);
    await chat.screenshot("steered");

    agent.steps.release();
    await assistantMessage(page, "Done counting.").waitFor();
    await chat.idle();
    expect(agent.runs).toBe(runsBefore); // the steer ran inside the live run
    expect(await userMessages(page, "count in French").count()).toBe(1);
    const texts = await conversation(page);
    const steer = texts.indexOf("user: count in French");
    expect(texts[steer + 1]).toBe('assistant: Heard you mid-count: "count in French".');
    expect(steer).toBeLessThan(texts.indexOf("assistant: 1…"));
    await page.close();
  });

  test("interrupt: the live run ends cancelled and the new message runs", async () => {
    const { page, chat } = await openTab();
    const aborted = agent.nextAbort();
    await startCounting(chat, 3);
    await chat.input.fill("add call mom");
    await page.getByRole("button", { name: "Interrupt & send" }).click();
    expect(await aborted).toBe(true);
    await assistantMessage(page, 'add "call mom"').waitFor();
    await boardShows(page, ["call mom"]);
    await chat.idle();
    expect(await userMessages(page, "add call mom").count()).toBe(1);
    expect(await assistantMessage(page, "Done counting").count()).toBe(0); // the count never went on
    expect(await page.getByTestId("waiting-messages").count()).toBe(0);
    await chat.screenshot("interrupted");
    await page.close();
  });

  test("cancel: a queued message taken back never runs", async () => {
    const { page, chat } = await openTab();
    await startCounting(chat, 2);
    await chat.input.fill("add walk the dog");
    await chat.input.press("Enter");
    const row = waitingRow(page, "add walk the dog");
    await row.waitFor();
    const runsBefore = agent.runs;
    await page.getByRole("button", { name: 'Cancel "add walk the dog"' }).click();
    await row.waitFor({ state: "detached" });

    agent.steps.release();
    await assistantMessage(page, "Done counting.").waitFor();
    await chat.idle();
    expect(agent.runs).toBe(runsBefore);
    expect(await userMessages(page, "add walk the dog").count()).toBe(0);
    await boardShows(page, []);
    await page.close();
  });

  test("reload: the reloaded page shows the queued message, then its run", async () => {
    const { page, chat } = await openTab();
    await startCounting(chat, 2);
    await chat.input.fill("add water the plants");
    await chat.input.press("Enter");
    await waitingRow(page, "add water the plants").waitFor();

    await page.reload();
    await chat.input.waitFor();
    const row = waitingRow(page, "add water the plants");
    await row.and(page.locator('[data-status="queued"]')).waitFor();
    await chat.page.locator('[data-testid="status"][data-status="running"]').waitFor(); // the count is joined, still live
    await chat.screenshot("reloaded-queued");

    agent.steps.release();
    await assistantMessage(page, 'add "water the plants"').waitFor();
    await boardShows(page, ["water the plants"]);
    await row.waitFor({ state: "detached" });
    await chat.idle();
    expect(await userMessages(page, "add water the plants").count()).toBe(1);
    await chat.screenshot("reloaded-ran");
    await page.close();
  });
});
