/**
 * Both task-board pages (React via Vite, Angular via the Angular CLI, production builds) in
 * headless chromium, against the real task-board agent behind the real HTTP handler: typing
 * commands, the streamed text, tool cards before and after their results, the researcher's group,
 * the approval for "clear" (and typing while it waits), the client tools (the page answering the
 * agent's `get_local_time` by itself, a `confirm_delete` card per delete), durable threads (the
 * page joins its thread on load; a reload mid-run shows the history and streams the rest; Stop
 * cancels the run on the server, marks what it cut off and leaves the run cancelled in the store; a
 * reload during a client tool's card shows the card again and the answer still goes out),
 * a send the server refuses (409) that gives its text back to the composer,
 * and a long conversation in a pane that follows the bottom until the user scrolls up. Every state is screenshot into test-artifacts/<page>-<state>.png.
 */
import { readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startWebServer } from "../examples/react/webServer";
import type { Served } from "../src/node";
import { BROWSER_LOCALE, BROWSER_TIME_ZONE } from "./browser";
import { ChatPage } from "./chatPage";
import { ARTIFACTS, refuseNextSend, suiteBrowser, TASK_BOARD_PAGES } from "./taskBoardPages";
import { observedTaskBoard, type ObservedAgent } from "./observedTaskBoard";

const browser = suiteBrowser();

describe.each(TASK_BOARD_PAGES)("the $name page", ({ name, build }) => {
  let root: string;
  let web: Served;
  let agent: ObservedAgent;
  let page: Page;
  let chat: ChatPage;
  const pageErrors: string[] = [];
  const consoleLines: string[] = [];
  /** The page's first answer from `POST /agent/connect` (it joins its thread on load). */
  let firstJoin: Promise<number>;

  beforeAll(async () => {
    root = await build();
    agent = observedTaskBoard();
    web = await startWebServer({ root, agent: agent.handler });
    page = await browser().context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      consoleLines.push(`${message.type()}: ${message.text()}`);
      // A new tab's join of its thread is answered 200, mode new (docs/threads.md#joining-a-new-thread):
      // no 404 for Chromium to log, so any console error fails the test.
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    chat = new ChatPage(page, name, ARTIFACTS);
    firstJoin = page.waitForResponse((response) => response.url().endsWith("/agent/connect")).then((response) => response.status());
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

  /** Says `text` and waits until the run it started on the server is over on the page. */
  const runToEnd = async (text: string) => {
    const started = agent.started();
    await chat.say(text);
    await started;
    await chat.idle();
  };

  it("is a production build, and joins its new thread on load (200, no error logged)", async () => {
    expect(await firstJoin).toBe(200);
    await page.getByTestId("welcome").waitFor();
    await chat.screenshot("empty");
    // React's development build says "Download the React DevTools…"; Angular's "Angular is running in development mode".
    expect(consoleLines.filter((line) => /development mode|React DevTools/i.test(line))).toEqual([]);
    expect(await page.evaluate(() => typeof (globalThis as { ngDevMode?: unknown }).ngDevMode)).toBe("undefined");
    const scripts = listFiles(root).filter((file) => file.endsWith(".js"));
    const bytes = scripts.reduce((sum, file) => sum + statSync(file).size, 0);
    writeFileSync(join(ARTIFACTS, `${name}-bundle.json`), `${JSON.stringify({ page: name, scripts: scripts.length, bytes }, null, 2)}\n`);
  });

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
    await chat.say("add buy milk; add call mom");
    await page.locator('[data-testid="task"]').nth(1).waitFor();
    await chat.idle();
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
    // The cards read as fields, not JSON.
    const first = page.getByTestId("tool-card").first();
    expect(await first.getAttribute("data-status")).toBe("done");
    expect(await first.getByTestId("tool-args").textContent()).toBe("titlebuy milk");
    expect(await first.getByTestId("tool-result").textContent()).toBe("→id1");
    await chat.screenshot("tasks");
  });

  it("shows a tool card as running until its result arrives", async () => {
    const hold = agent.holdNext("TOOL_CALL_RESULT");
    await chat.say("done 1");
    await hold.reached;
    const card = page.locator('[data-testid="tool-card"][data-tool="complete_task"]');
    await card.locator('[data-testid="tool-status"]').filter({ hasText: "Running…" }).waitFor();
    expect(await card.getAttribute("data-status")).toBe("running");
    expect(await card.getByTestId("tool-args").textContent()).toBe("id1");
    expect(await card.getByTestId("tool-result").count()).toBe(0);
    await chat.screenshot("tool-pending");
    hold.release();
    await page.locator('[data-testid="tool-card"][data-tool="complete_task"][data-status="done"]').waitFor();
    await chat.idle();
    expect(await card.getByTestId("tool-result").textContent()).toBe("→okyes");
    expect(await page.getByTestId("board-counts").textContent()).toBe("1 of 2 done");
  });

  it("groups the researcher subagent's messages under its name", async () => {
    await chat.say("research rxjs");
    const group = page.locator('[data-testid="subagent-group"][data-name="researcher"]');
    await group.waitFor();
    await chat.idle();
    expect(await group.locator('[data-testid="message"]').count()).toBeGreaterThan(0);
    expect((await group.textContent())?.toLowerCase()).toContain("rxjs");
    expect(await group.getByTestId("subagent-status").textContent()).toBe("finished");
    await chat.screenshot("research");
  });

  it("keeps the approval in view while the user types, with Send disabled", async () => {
    await chat.say("clear");
    await page.getByTestId("interrupt").waitFor();
    await page.locator('[data-testid="status"][data-status="interrupted"]').waitFor();
    expect(await page.getByTestId("task").count()).toBe(2);
    const runsBefore = agent.runs;

    await chat.input.fill("add water the plants");
    expect(await page.getByTestId("send").isDisabled()).toBe(true);
    await chat.input.press("Enter"); // the keyboard way to send must be refused too, not crash the page
    await chat.frames();

    expect(agent.runs).toBe(runsBefore);
    expect(await chat.input.inputValue()).toBe("add water the plants"); // the draft waits
    expect(await page.getByTestId("interrupt").count()).toBe(1);
    expect(await chat.inView(page.getByTestId("interrupt"))).toBe(true);
    expect(await page.getByTestId("approve").isEnabled()).toBe(true);
    expect(await page.getByTestId("status").textContent()).toContain("Waiting for your approval");
    await chat.screenshot("approval");
  });

  it("clears once approved, and then sends what was typed meanwhile", async () => {
    await page.getByTestId("approve").click();
    await page.getByTestId("board-empty").waitFor();
    await chat.idle();
    expect(await page.getByTestId("interrupt").count()).toBe(0);
    expect(await page.locator('[data-testid="tool-card"][data-tool="clear_board"]').getByTestId("tool-result").textContent()).toBe("→removed2");
    expect(await page.getByTestId("send").isEnabled()).toBe(true);
    await chat.input.press("Enter");
    await page.getByTestId("task").filter({ hasText: "water the plants" }).waitFor();
    await chat.idle();
    expect(await chat.input.inputValue()).toBe("");
  });

  it("answers the agent's get_local_time by itself before the agent says what is due today", async () => {
    const runsBefore = agent.runs;
    await chat.say("what's due today?");
    const card = page.locator('[data-testid="tool-card"][data-tool="get_local_time"]');
    await card.locator('[data-testid="tool-status"]').filter({ hasText: "Done" }).waitFor();
    await chat.idle();
    // One send, two runs: the page ran the tool and started the follow-up run itself.
    expect(agent.runs).toBe(runsBefore + 2);
    const answer = await card.getByTestId("tool-result").textContent();
    expect(answer).toContain(`time zone${BROWSER_TIME_ZONE}`);
    expect(answer).toContain(`locale${BROWSER_LOCALE}`);
    const said = await page.locator('[data-testid="message"][data-role="assistant"]').allTextContents();
    expect(said.find((text) => text.startsWith("It is "))).toMatch(
      new RegExp(`where you are \\(${BROWSER_TIME_ZONE}, ${BROWSER_LOCALE}\\)\\. Due today: 1\\. water the plants\\.`),
    );
    expect(await page.getByTestId("confirm-delete").count()).toBe(0); // nothing for the user to answer
    await chat.screenshot("local-time");
  });

  it("shows a confirmation card for every delete of the turn, and deletes only what was confirmed", async () => {
    await runToEnd("add weed the garden");
    await chat.say("delete 1; delete 2");
    const cards = page.getByTestId("confirm-delete");
    await cards.nth(1).waitFor();
    expect(await cards.count()).toBe(2); // both calls of the turn, not only the first
    expect(await cards.locator("strong").allTextContents()).toEqual(["Delete task 1?", "Delete task 2?"]);
    expect(await page.locator('[data-testid="tool-card"][data-tool="confirm_delete"][data-status="waiting"]').count()).toBe(2);
    expect(await page.getByTestId("status").textContent()).toContain("Waiting for your answer");
    expect(await page.getByTestId("send").isDisabled()).toBe(true);
    expect(await chat.inView(cards.nth(1))).toBe(true);
    await chat.screenshot("confirm-delete");

    await cards.filter({ hasText: "Delete task 2?" }).getByTestId("keep").click();
    await page.getByTestId("confirm-delete").filter({ hasText: "Delete task 2?" }).waitFor({ state: "detached" });
    expect(await page.getByTestId("task").count()).toBe(2); // nothing happens until the turn's last answer
    await cards.filter({ hasText: "Delete task 1?" }).getByTestId("confirm").click();
    await page.locator('[data-testid="tool-card"][data-tool="delete_task"]').waitFor();
    await chat.idle();
    expect(await page.getByTestId("confirm-delete").count()).toBe(0);
    expect(await page.getByTestId("task").allTextContents()).toEqual(["weed the garden"]);
    expect(await page.locator('[data-testid="tool-card"][data-tool="confirm_delete"]').getByTestId("tool-result").allTextContents()).toEqual([
      "→confirmedyes",
      "→confirmedno",
    ]);
    expect(await page.locator('[data-testid="tool-card"][data-tool="delete_task"]').getByTestId("tool-result").textContent()).toBe("→removed1");
    await chat.screenshot("confirmed");
  });

  it("a reload during a client tool's card shows the card again, and the tool still runs", async () => {
    // docs/threads.md#pending-client-tools: the run ended leaving confirm_delete to the page; the thread keeps the call pending
    await chat.say("delete 2");
    const card = page.getByTestId("confirm-delete").filter({ hasText: "Delete task 2?" });
    await card.waitFor();
    const tasksBefore = await page.getByTestId("task").allTextContents();
    const waiting = page.locator('[data-testid="tool-card"][data-tool="confirm_delete"][data-status="waiting"]');
    expect(await waiting.count()).toBe(1);
    await chat.screenshot("tool-card-before-reload");
    const runsBefore = agent.runs;
    const joined = page.waitForResponse((response) => response.url().endsWith("/agent/connect"));
    await page.reload();
    expect((await joined).status()).toBe(200);
    await card.waitFor(); // connect() took the call up again: the same card, waiting for the user
    expect(await waiting.count()).toBe(1);
    expect(await page.getByTestId("status").textContent()).toContain("Waiting for your answer");
    expect(await page.getByTestId("send").isDisabled()).toBe(true);
    expect(agent.runs).toBe(runsBefore); // nothing was sent on the reload
    await chat.screenshot("tool-card-after-reload");
    const followUp = agent.started();
    await card.getByTestId("keep").click();
    await followUp; // the answer went out in the follow-up run, as if the page had never reloaded
    await chat.idle();
    expect(agent.runs).toBe(runsBefore + 1);
    expect(await page.getByTestId("confirm-delete").count()).toBe(0);
    expect(await page.locator('[data-testid="tool-card"][data-tool="confirm_delete"]').getByTestId("tool-result").last().textContent()).toBe("→confirmedno");
    expect(await page.getByTestId("task").allTextContents()).toEqual(tasksBefore);
    expect(await page.getByTestId("error").count()).toBe(0);
    await chat.screenshot("tool-card-answered-after-reload");
  });

  it("a page reloaded in the middle of a long run shows the history and keeps streaming the rest", async () => {
    // Earlier tests left subagent groups on the page: this run's is the next one (counted by position: every group is a researcher).
    const earlier = await page.locator('[data-testid="subagent-group"]').count();
    const started = agent.started();
    await chat.say("research rxjs");
    await started;
    const group = () => page.locator('[data-testid="subagent-group"]').nth(earlier);
    await group().locator('[data-testid="message"]').waitFor();
    const before = (await group().locator('[data-testid="message"]').textContent()) ?? "";
    const tasksBefore = await page.getByTestId("task").allTextContents();
    await page.reload();
    await chat.input.waitFor();
    // the history is back (the board, the earlier conversation), and the research goes on
    await page.locator('[data-testid="status"][data-status="running"]').waitFor();
    expect(await page.getByTestId("task").allTextContents()).toEqual(tasksBefore);
    expect(await page.getByTestId("message").filter({ hasText: "buy milk" }).count()).toBeGreaterThan(0);
    await chat.screenshot("reloaded-mid-run");
    await chat.idle();
    const notes = (await group().locator('[data-testid="message"]').textContent()) ?? "";
    expect(notes).toContain("Notes on rxjs: what it is for, two sources that disagree, and one open question to follow up.");
    expect(before.length).toBeLessThan(notes.length); // reloaded mid-note: it went on after the reload, the whole note, once
    expect(notes.split("Notes on rxjs").length).toBe(2);
    expect(await group().getByTestId("subagent-status").textContent()).toBe("finished");
    expect(await group().getAttribute("data-name")).toBe("researcher"); // the run in flight's subagents come back named
    // …and so do the earlier runs' finished ones (the connect replays the thread's ended subagents, docs/durability.md §2)
    expect(await page.locator('[data-testid="subagent-group"]').evaluateAll((groups) => groups.map((g) => g.getAttribute("data-name")))).toEqual(
      Array.from({ length: earlier + 1 }, () => "researcher"),
    );
    expect(await page.getByTestId("subagent-status").allTextContents()).toEqual(Array.from({ length: earlier + 1 }, () => "finished"));
    expect(await page.getByTestId("error").count()).toBe(0);
    expect(agent.runs).toBeGreaterThan(0);
    await chat.screenshot("reloaded-finished");
  });

  it("Stop cancels the run on the server: the page says cancelled, marks what it cut off, and the store has the run cancelled", async () => {
    const started = agent.started();
    const aborted = agent.nextAbort();
    // Earlier tests left subagent groups on the page: this run's is the next one.
    const earlier = await page.locator('[data-testid="subagent-group"]').count();
    await chat.say("research slowly");
    await started;
    // Stop once the researcher is visibly mid-sentence.
    const group = page.locator('[data-testid="subagent-group"]').nth(earlier);
    await group.locator('[data-testid="message"]').waitFor();
    await page.getByTestId("stop").click();
    await expect(aborted).resolves.toBe(true);
    await chat.idle();
    await page.locator('[data-testid="status"][data-end="cancelled"]').waitFor();
    expect(await page.getByTestId("status").textContent()).toContain("cancelled");
    expect(await page.getByTestId("error").count()).toBe(0);
    expect(await group.getByTestId("stopped-marker").count()).toBe(1);
    expect(await page.getByTestId("stopped-marker").count()).toBe(1);
    expect(await group.getByTestId("subagent-status").textContent()).toBe("stopped");
    expect(await page.getByTestId("typing").count()).toBe(0);
    const threadId = (await page.getByTestId("thread").textContent()) ?? "";
    // the server identifies the tab by its token's digest, which starts the thread id (examples/task-board/access.ts)
    const read = await agent.store.read(threadId, undefined, { owner: threadId.slice(0, threadId.indexOf(".")) });
    expect(read?.kind === "snapshot" && read.snapshot.run.status).toBe("cancelled");
    await chat.screenshot("stopped");
  });

  it("a send the server refuses (409, nothing recorded) leaves no message on the page and puts its text back in the composer", async () => {
    const before = await page.locator('[data-testid="message"]').count();
    // One run POST answered as a server with a live run on the thread answers it (issue #20 A5).
    await refuseNextSend(page);
    await chat.say("add refused errand");
    await page.locator('[data-testid="status"][data-end="failed"]').waitFor();
    expect(await chat.input.inputValue()).toBe("add refused errand");
    expect(await page.locator('[data-testid="message"]').count()).toBe(before);
    // Chromium logs the refusal as a console error: that one is expected here, and nothing else
    expect(pageErrors.splice(0)).toEqual(["console: Failed to load resource: the server responded with a status of 409 (Conflict)"]);
    await page.unroute("**/agent");
    await chat.screenshot("refused-send");
    await chat.input.fill("");
  });

  it("keeps a long conversation in a scrolling pane, following the bottom, with the input and board in view", async () => {
    for (let i = 1; i <= 10; i++) await runToEnd(`add errand ${i}`);
    await chat.atBottom();
    const metrics = await chat.paneMetrics();
    expect(metrics.scrollHeight).toBeGreaterThan(3 * metrics.clientHeight);
    expect(metrics.pinned).toBe(true);
    // The page itself does not scroll: the pane does, and the composer and board stay put.
    expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= window.innerHeight)).toBe(true);
    expect(await chat.inView(chat.input)).toBe(true);
    expect(await chat.inView(page.getByTestId("send"))).toBe(true);
    expect(await chat.inView(page.getByTestId("board").locator("h2"))).toBe(true);
    const last = page.getByTestId("message").last();
    expect(await last.textContent()).toContain("The board has");
    expect(await chat.inView(last)).toBe(true);
    expect(await page.getByTestId("jump-to-latest").count()).toBe(0);
    await chat.screenshot("long");
  });

  it("stops following when the user scrolls up, and follows again from the bottom", async () => {
    // Hold the run in the middle (at the research step), scroll up, then let it stream on.
    const hold = agent.holdNext("STEP_STARTED");
    await chat.say("research scrolling");
    await hold.reached;
    await page.getByTestId("typing").waitFor();
    await chat.pane.hover();
    await page.mouse.wheel(0, -900);
    await page.waitForFunction(() => {
      const pane = document.querySelector('[data-testid="messages"]');
      return pane !== null && pane.scrollHeight - pane.scrollTop - pane.clientHeight > 600;
    });
    await page.getByTestId("jump-to-latest").waitFor();
    const before = await chat.paneMetrics();
    expect(before.pinned).toBe(false);

    hold.release();
    await chat.idle();
    await chat.frames();
    const after = await chat.paneMetrics();
    expect(after.scrollHeight).toBeGreaterThan(before.scrollHeight); // the researcher's notes arrived below…
    expect(Math.abs(after.scrollTop - before.scrollTop)).toBeLessThanOrEqual(2); // …and the view did not move
    expect(after.pinned).toBe(false);
    expect(await chat.inView(chat.input)).toBe(true);
    await chat.screenshot("scrolled-up");

    await page.getByTestId("jump-to-latest").click();
    await chat.atBottom();
    expect((await chat.paneMetrics()).pinned).toBe(true);
    expect(await page.getByTestId("jump-to-latest").count()).toBe(0);
    await runToEnd("add one more");
    await chat.frames();
    expect((await chat.paneMetrics()).belowView).toBeLessThanOrEqual(24); // following again
    expect(await chat.inView(page.getByTestId("message").last())).toBe(true);
  });

  it("fits a phone-sized window: the board above the chat, the input in view", async () => {
    await page.setViewportSize({ width: 400, height: 780 });
    try {
      await chat.frames();
      await chat.pane.evaluate((pane) => (pane.scrollTop = pane.scrollHeight));
      await chat.atBottom();
      expect(await chat.inView(chat.input)).toBe(true);
      expect(await chat.inView(page.getByTestId("send"))).toBe(true);
      expect(await chat.inView(page.getByTestId("board").locator("h2"))).toBe(true);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true); // nothing sticks out sideways
      await chat.screenshot("narrow");
    } finally {
      await page.setViewportSize({ width: 1200, height: 900 });
    }
  });
});

function listFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}
