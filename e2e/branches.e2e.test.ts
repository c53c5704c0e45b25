/**
 * Edit, regenerate, copy and the ‹ 2 / 3 › versions (docs/threads.md#edit-and-regenerate) on both
 * task-board pages in headless chromium, against the real task-board agent behind the real handler
 * with `identify` (one bearer token per browser profile): an edited question gets a new answer and
 * "2 / 2"; the arrows go back to the first version (its question, its answer and its board) and
 * forward again; Regenerate answers the question again from the board as it was before the answer
 * ("2 / 2" on the answer, no task added twice); Copy puts the answer's text on the clipboard; a
 * reload keeps the versions shown; a second tab on the same thread follows a switch made in the
 * first. Screenshots into test-artifacts/<page>-branches-<state>.png.
 */
import type { Locator, Page } from "playwright-core";
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
    await browser().context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: web.url });
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
    const chat = new ChatPage(page, `${name}-branches`, ARTIFACTS);
    await chat.input.waitFor();
    return { page, chat };
  }

  /** Says `text` and waits until its run is over on the page. */
  async function say(chat: ChatPage, text: string): Promise<void> {
    const started = agent.started();
    await chat.say(text);
    await started;
    await chat.idle();
  }

  const questions = (page: Page) => page.locator('[data-testid="message"][data-role="user"]');
  const questionBar = (page: Page, index: number) => page.getByTestId("question-bar").nth(index);
  const answerBar = (page: Page, index: number) => page.getByTestId("answer-bar").nth(index);
  /** Waits until the bar's arrows read `text` ("2 / 2"). */
  const versionsRead = (bar: Locator, text: string) => bar.getByTestId("version-count").filter({ hasText: text }).waitFor();
  /** Waits until the board lists exactly `titles`, in order. */
  const boardShows = (page: Page, titles: readonly string[]) =>
    page.waitForFunction(
      (expected) => JSON.stringify([...document.querySelectorAll('[data-testid="task"]')].map((task) => task.textContent)) === expected,
      JSON.stringify(titles),
    );

  test("edit, the versions of a question, regenerate, copy, reload and a second tab", async () => {
    const first = await openTab();
    const { page, chat } = first;
    await say(chat, "add buy milk");
    await say(chat, "add call mom");
    await boardShows(page, ["buy milk", "call mom"]);
    // One version each: no arrows yet.
    expect(await page.getByTestId("versions").count()).toBe(0);

    // An edit cancelled changes nothing and runs nothing.
    const runsBefore = agent.runs;
    await questionBar(page, 1).getByRole("button", { name: "Edit" }).click();
    const editor = page.getByRole("textbox", { name: "Edit message" });
    await editor.fill("add something else");
    await page.getByRole("button", { name: "Cancel" }).click();
    await editor.waitFor({ state: "detached" });
    await questions(page).nth(1).filter({ hasText: "add call mom" }).waitFor();
    expect(agent.runs).toBe(runsBefore);

    // Edit the second question: a new answer from the board as it was before it, and "2 / 2".
    await questionBar(page, 1).getByRole("button", { name: "Edit" }).click();
    expect(await editor.inputValue()).toBe("add call mom");
    expect(await editor.evaluate((box) => box === document.activeElement)).toBe(true); // the box has the focus
    expect(await page.getByRole("button", { name: "Save" }).isDisabled()).toBe(true); // nothing changed yet
    await editor.fill("add walk the dog");
    await chat.screenshot("editing");
    const edited = agent.started();
    await page.getByRole("button", { name: "Save" }).click();
    await edited;
    await chat.idle();
    await versionsRead(questionBar(page, 1), "2 / 2");
    await questions(page).nth(1).filter({ hasText: "add walk the dog" }).waitFor();
    await boardShows(page, ["buy milk", "walk the dog"]);
    expect(await page.getByTestId("edit-question").count()).toBe(0);
    expect(await questionBar(page, 0).getByTestId("versions").count()).toBe(0); // the first question has one version
    await chat.screenshot("edited");

    // Back to the first version: its question, its answer, its board; then forward again.
    await questionBar(page, 1).getByRole("button", { name: "Previous version" }).click();
    await versionsRead(questionBar(page, 1), "1 / 2");
    await questions(page).nth(1).filter({ hasText: "add call mom" }).waitFor();
    await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'add "call mom"' }).waitFor();
    await boardShows(page, ["buy milk", "call mom"]);
    expect(await questionBar(page, 1).getByRole("button", { name: "Previous version" }).isDisabled()).toBe(true);
    await chat.screenshot("first-version");
    await questionBar(page, 1).getByRole("button", { name: "Next version" }).click();
    await versionsRead(questionBar(page, 1), "2 / 2");
    await questions(page).nth(1).filter({ hasText: "add walk the dog" }).waitFor();
    await boardShows(page, ["buy milk", "walk the dog"]);

    // Regenerate the answer: another answer from the board before it (the dog is walked once), "2 / 2" on the answer.
    const regenerated = agent.started();
    await answerBar(page, 1).getByRole("button", { name: "Regenerate" }).click();
    await regenerated;
    await chat.idle();
    await versionsRead(answerBar(page, 1), "2 / 2");
    await boardShows(page, ["buy milk", "walk the dog"]);
    await versionsRead(questionBar(page, 1), "2 / 2"); // the question's versions are still there
    await chat.screenshot("regenerated");

    // Copy: the answer's text on the clipboard, and the button says so.
    // The answer's two texts (what it is about to do, then the board's summary), without its tool cards.
    const answerText = (await page.locator('[data-testid="message"][data-role="assistant"] [data-testid="message-text"]').allTextContents()).slice(-2);
    await answerBar(page, 1).getByRole("button", { name: "Copy" }).click();
    await answerBar(page, 1).getByRole("button", { name: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('add "walk the dog"');
    expect(copied).toBe(answerText.join("\n\n"));

    // The first answer again, then a reload: the versions shown stay.
    await answerBar(page, 1).getByRole("button", { name: "Previous version" }).click();
    await versionsRead(answerBar(page, 1), "1 / 2");
    await page.reload();
    await chat.input.waitFor();
    await versionsRead(answerBar(page, 1), "1 / 2");
    await versionsRead(questionBar(page, 1), "2 / 2");
    await questions(page).nth(1).filter({ hasText: "add walk the dog" }).waitFor();
    await boardShows(page, ["buy milk", "walk the dog"]);
    await chat.screenshot("reloaded");

    // A second tab on the same thread follows a switch made in the first.
    const second = await openTab();
    await second.page.locator('[data-testid="thread-row"]', { hasText: "add buy milk" }).locator(".thread-open").click();
    await versionsRead(questionBar(second.page, 1), "2 / 2");
    await questionBar(page, 1).getByRole("button", { name: "Previous version" }).click();
    await versionsRead(questionBar(page, 1), "1 / 2");
    await versionsRead(questionBar(second.page, 1), "1 / 2");
    await questions(second.page).nth(1).filter({ hasText: "add call mom" }).waitFor();
    await boardShows(second.page, ["buy milk", "call mom"]);
    await second.chat.screenshot("second-tab-followed");
    await first.page.close();
    await second.page.close();
  }, 120_000);
});
