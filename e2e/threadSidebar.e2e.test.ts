/**
 * Both pages' thread sidebar (docs/client.md#thread-list) in headless chromium, two tabs of
 * one browser profile (one bearer token in local storage: one principal) against the real
 * task-board agent behind the real handler with `identify`: a thread created in one tab appears in
 * the other, live; deleted in the second, it disappears from the first; a reload keeps the list.
 * (The Angular page has one Session for its life: switching loads the page on the chosen thread.)
 * Screenshots into test-artifacts/<page>-threads-<state>.png.
 */
import type { Page } from "playwright-core";
import { startWebServer } from "../examples/react/webServer";
import type { Served } from "../src/node";
import { ChatPage } from "./chatPage";
import { ARTIFACTS, suiteBrowser, TASK_BOARD_PAGES } from "./taskBoardPages";
import { observedTaskBoard, type ObservedAgent } from "./observedTaskBoard";

const browser = suiteBrowser();

describe.each(TASK_BOARD_PAGES)("the $name page", ({ name, build }) => {
  let web: Served;
  let agent: ObservedAgent;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    agent = observedTaskBoard();
    web = await startWebServer({ root: await build(), agent: agent.handler });
  }, 300_000); // a production `ng build` alone takes 90–150 s on a busy two-core machine
  afterAll(async () => {
    await web?.close();
  });
  afterEach(() => expect(pageErrors).toEqual([]));

  /** A tab of the shared profile on the page, with its errors collected. */
  async function openTab(): Promise<{ page: Page; chat: ChatPage }> {
    const page = await browser().context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    await page.goto(web.url);
    const chat = new ChatPage(page, `${name}-threads`, ARTIFACTS);
    await chat.input.waitFor();
    return { page, chat };
  }

  const row = (page: Page, title: string) => page.locator('[data-testid="thread-row"]', { hasText: title });

  /** Clicks New chat and waits until the page shows another thread (the Angular page loads itself again). */
  async function newChat(tab: { page: Page; chat: ChatPage }): Promise<void> {
    const before = await tab.page.getByTestId("thread").textContent();
    await tab.page.getByTestId("new-chat").click();
    await tab.page.locator('[data-testid="thread"]', { hasNotText: before ?? "" }).waitFor();
    await tab.chat.input.waitFor();
  }

  test("a thread created in one tab appears in the other; deleted there, it leaves the first; a reload keeps the list", async () => {
    const first = await openTab();
    const second = await openTab();

    const started = agent.started();
    await first.chat.say("add buy milk");
    await started;
    await row(second.page, "add buy milk").waitFor(); // live, through the events stream
    await first.chat.idle();
    await row(first.page, "add buy milk").waitFor();
    await second.chat.screenshot("second-tab-sees-the-new-thread");

    // a second chat in the first tab, then a reload: the list is still there, the tab still on its thread
    await newChat(first);
    const again = agent.started();
    await first.chat.say("add call mom");
    await again;
    await first.chat.idle();
    await row(second.page, "add call mom").waitFor();
    await first.page.reload();
    await first.chat.input.waitFor();
    await row(first.page, "add call mom").waitFor();
    await row(first.page, "add buy milk").waitFor();
    expect(await first.page.locator('[data-testid="thread-row"][aria-current="true"]').textContent()).toContain("add call mom");
    await first.chat.screenshot("reloaded-keeps-the-list");

    await second.page.getByRole("button", { name: "Delete add buy milk" }).click();
    await row(first.page, "add buy milk").waitFor({ state: "detached" });
    expect(await first.page.locator('[data-testid="thread-row"]').count()).toBe(1);
    await first.chat.screenshot("deleted-in-the-other-tab");

    // switching back to a thread shows its conversation
    await second.page.reload();
    await second.chat.input.waitFor();
    await row(second.page, "add call mom").locator(".thread-open").click();
    await second.page.getByText("add call mom", { exact: false }).first().waitFor();
    await first.page.close();
    await second.page.close();
  }, 120_000);
});
