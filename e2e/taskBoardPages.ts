/** What the task-board page suites share (e2e/): where screenshots go, the two pages, and one Chromium per suite. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { buildAngularPage } from "../examples/angular/buildAngularPage";
import { buildReactPage } from "../examples/react/buildPage";
import type { Page } from "playwright-core";
import { launchChromium, type LaunchedBrowser } from "./browser";

/** The folder the suites write screenshots and page reports into. */
export const ARTIFACTS = join(__dirname, "..", "test-artifacts");

/**
 * The task board's two pages, each with how to build it (the Angular one is a production `ng build`: minutes on a busy machine).
 *
 * @example
 * describe.each(TASK_BOARD_PAGES)("the $name page", ({ name, build }) => { … });
 */
export const TASK_BOARD_PAGES: readonly { readonly name: string; readonly build: () => Promise<string> }[] = [
  { name: "react", build: () => buildReactPage() },
  { name: "angular", build: () => buildAngularPage() },
];

/**
 * One Chromium for the calling suite: launched before its tests (the artifacts folder made), closed
 * after them. Call at the top of a test file; read the browser through the returned function.
 *
 * @example
 * const browser = suiteBrowser();
 * test("…", async () => { const page = await browser().context.newPage(); });
 */
export function suiteBrowser(): () => LaunchedBrowser {
  let browser: LaunchedBrowser | undefined;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error("expected the suite's Chromium to be launched (suiteBrowser's beforeAll)");
    return browser;
  };
}

/**
 * Answers the page's next run POST with the 409 a server with a live run gives (a refused send:
 * the page shows an error, nothing is recorded).
 *
 * @example
 * await refuseNextSend(page);
 */
export async function refuseNextSend(page: Page): Promise<void> {
  await page.route(
    "**/agent",
    (route) =>
      route.request().method() === "POST"
        ? route.fulfill({
            status: 409,
            contentType: "application/json",
            body: JSON.stringify({ error: "run-active", message: "the thread already has a live run" }),
          })
        : route.continue(),
    { times: 1 },
  );
}
