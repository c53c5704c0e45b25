/**
 * The AI chat page (examples/ai-chat, `npm run ai-chat` as a child process) in headless chromium,
 * once, against the scripted mock model: typing a question and seeing the model's reasoning and
 * reply stream in; the server tool's card; the client tool `get_local_time` asking on a card,
 * the page answering with the browser's clock, and the follow-up run's final answer, all from one
 * send. Screenshots go to test-artifacts/ai-chat-<state>.png.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startServeScript, type RunningServeScript } from "../examples/ai-chat/test/serveScript";
import { BROWSER_TIME_ZONE, launchChromium, type LaunchedBrowser } from "./browser";
import { ChatPage } from "./chatPage";

const ARTIFACTS = join(__dirname, "..", "test-artifacts");

let browser: LaunchedBrowser;
let chatServer: RunningServeScript;
let page: Page;
let chat: ChatPage;
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // A pace a reader can follow, short enough for a test: 15 ms between streamed parts.
  [chatServer, browser] = await Promise.all([startServeScript({ AI_CHAT_DELAY_MS: "15" }), launchChromium()]);
  page = await browser.context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    // The page joins its thread on load (it keeps its conversation across reloads); a new tab's
    // thread is not known yet, which the server answers 404 (docs/durability.md §4) and Chromium logs.
    const unknownThread = message.location().url.endsWith("/agent/connect") && /status of 404/.test(message.text());
    if (message.type() === "error" && !unknownThread) pageErrors.push(`console: ${message.text()}`);
  });
  chat = new ChatPage(page, "ai-chat", ARTIFACTS);
  await page.goto(chatServer.url);
  await chat.input.waitFor();
});
afterAll(async () => {
  await page?.close();
  await browser?.close();
  if (chatServer) expect(await chatServer.stop()).toBe(0);
});
afterEach(() => {
  expect(pageErrors).toEqual([]);
});

/** Records, on every change of the page, how long the assistant's text is and whether a run is active. */
async function watchAssistantText(): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { seen: { running: boolean; text: number }[] };
    w.seen = [];
    new MutationObserver(() => {
      const assistant = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')];
      w.seen.push({
        running: document.querySelector('[data-testid="status"]')?.getAttribute("data-status") === "running",
        text: assistant.map((m) => m.querySelector("p")?.textContent ?? "").join("").length,
      });
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

const assistantTexts = () => page.locator('[data-testid="message"][data-role="assistant"] [data-testid="message-text"]').allTextContents();

it("streams the model's reasoning and reply, with the server tool's card, for a typed question", async () => {
  await page.getByTestId("welcome").waitFor();
  await chat.screenshot("empty");
  await watchAssistantText();
  await chat.say("What's the weather in Seoul?");
  const card = page.locator('[data-testid="tool-card"][data-tool="get_weather"]');
  await card.locator('[data-testid="tool-status"]').filter({ hasText: "Done" }).waitFor();
  await chat.idle();

  expect(await page.locator('[data-testid="message"][data-role="user"]').allTextContents()).toEqual(["What's the weather in Seoul?"]);
  expect(await assistantTexts()).toEqual(["Let me look up the weather in Seoul.", "It is 21 °C and sunny in Seoul today."]);
  expect(await page.getByTestId("reasoning").allTextContents()).toEqual([
    "ThinkingThe user wants the weather in Seoul. The get_weather tool looks it up on the server.",
    "Thinkingget_weather answered; now I can reply.",
  ]);
  expect(await card.getByTestId("tool-args").textContent()).toBe("citySeoul");
  expect(await card.getByTestId("tool-result").textContent()).toBe("→citySeoulcelsius21skysunny");
  // The text grew in several steps while the run was active: it streamed, it did not arrive whole.
  const seen = await page.evaluate(() => (window as unknown as { seen: { running: boolean; text: number }[] }).seen);
  const whileRunning = seen.filter((s) => s.running).map((s) => s.text);
  expect(new Set(whileRunning).size).toBeGreaterThan(5);
  expect(Math.min(...whileRunning)).toBeLessThan(seen[seen.length - 1].text);
  await chat.screenshot("weather");
});

it("asks on a card for the browser's time, and answers from it in the follow-up run", async () => {
  const runs: string[] = [];
  const onRequest = (request: { method(): string; url(): string }) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/agent") runs.push(request.url());
  };
  page.on("request", onRequest);
  await chat.say("What time is it?");
  const card = page.getByTestId("share-time");
  await card.waitFor();
  const toolCard = page.locator('[data-testid="tool-card"][data-tool="get_local_time"]');
  expect(await toolCard.getAttribute("data-status")).toBe("waiting");
  expect(await page.getByTestId("status").textContent()).toContain("Waiting for your answer");
  expect(await page.getByTestId("send").isDisabled()).toBe(true);
  expect(await chat.inView(card)).toBe(true);
  await chat.screenshot("share-time");

  await page.getByTestId("share-time-button").click();
  await card.waitFor({ state: "detached" });
  await page.locator('[data-testid="message"][data-role="assistant"] [data-testid="message-text"]').filter({ hasText: "where you are" }).waitFor();
  await chat.idle();

  expect(await toolCard.getAttribute("data-status")).toBe("done");
  expect(await toolCard.getByTestId("tool-result").textContent()).toContain(`time zone${BROWSER_TIME_ZONE}`);
  const final = (await assistantTexts()).at(-1) ?? "";
  // The time the browser read, in its own zone and locale (en-NZ: "2:05 pm on Tuesday, 3 June 2025").
  expect(final).toMatch(new RegExp(`^It is \\d{1,2}:\\d\\d [ap]m on \\w+day, \\d{1,2} \\w+ \\d{4} where you are \\(${BROWSER_TIME_ZONE}\\)\\.$`));
  expect(await page.getByTestId("error").count()).toBe(0);
  page.off("request", onRequest);
  expect(runs).toHaveLength(2); // one send, two runs: the page started the follow-up run itself
  await chat.screenshot("local-time");
});
