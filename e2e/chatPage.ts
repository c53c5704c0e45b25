/** What the e2e test does on either task-board page (both share markup and test ids): a small page object. */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";

/** Where the message pane stands. */
export interface PaneMetrics {
  readonly scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
  /** Pixels between what is shown and the end. */
  readonly belowView: number;
  readonly pinned: boolean;
}

/**
 * Drives one page: typing, waiting for the run to settle, reading the pane, taking screenshots.
 *
 * @example
 * const chat = new ChatPage(page, "react", "test-artifacts");
 * await chat.say("add buy milk"); await chat.idle(); await chat.screenshot("tasks");
 */
export class ChatPage {
  constructor(
    readonly page: Page,
    private readonly name: string,
    private readonly artifacts: string,
  ) {}

  get input(): Locator {
    return this.page.getByTestId("chat-input");
  }

  get pane(): Locator {
    return this.page.getByTestId("messages");
  }

  /** Types `text` and clicks Send. */
  async say(text: string): Promise<void> {
    await this.input.fill(text);
    await this.page.getByTestId("send").click();
  }

  /**
   * Resolves once the status line says no run is active, read after the page's next frames: the
   * Angular page is zoneless and draws a click's effects on a later frame, so right after `say` its
   * status line may still show the idle from before the send (and `idle()` resolved before the run
   * had begun; seen once in CI, where the long answer's checks then read the previous answer).
   */
  async idle(): Promise<void> {
    await this.frames();
    await this.page.locator('[data-testid="status"][data-status="idle"]').waitFor();
  }

  /** Resolves after the page has drawn a frame (and the one after it): what was scheduled is on screen. */
  frames(): Promise<void> {
    return this.page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  }

  paneMetrics(): Promise<PaneMetrics> {
    return this.pane.evaluate((pane) => ({
      scrollTop: pane.scrollTop,
      scrollHeight: pane.scrollHeight,
      clientHeight: pane.clientHeight,
      belowView: pane.scrollHeight - pane.scrollTop - pane.clientHeight,
      pinned: pane.getAttribute("data-pinned") === "true",
    }));
  }

  /** Waits until the pane's end is in view (within the autoscroll's 24 px slack). */
  async atBottom(): Promise<void> {
    await this.page.waitForFunction(() => {
      const pane = document.querySelector('[data-testid="messages"]');
      return pane !== null && pane.scrollHeight - pane.scrollTop - pane.clientHeight <= 24;
    });
  }

  /** Whether the element is wholly inside the window (not scrolled away, not cut off). */
  async inView(locator: Locator): Promise<boolean> {
    const box = await locator.boundingBox();
    const viewport = this.page.viewportSize();
    if (box === null || viewport === null) return false;
    return box.y >= 0 && box.x >= 0 && box.y + box.height <= viewport.height && box.x + box.width <= viewport.width;
  }

  /** test-artifacts/<page>-<state>.png, the window as the user sees it. */
  async screenshot(state: string): Promise<void> {
    await this.page.screenshot({ path: join(this.artifacts, `${this.name}-${state}.png`) });
  }
}
