/** The page's agent: one Session on the task-board endpoint, provided with agui-rx/angular's provideAgent under a typed token. */
import { inject, InjectionToken, type Provider } from "@angular/core";
import { HttpThreadsTransport, Session, threadList, type ThreadList } from "agui-rx/client";
import { provideAgent } from "agui-rx/angular";
import type { PageThread } from "../../../shared/pageThread";
import { boardSpec, type Board } from "../../../task-board/board";
import { PAGE_TOOLS } from "./page-tools";

/** The AG-UI endpoint the session talks to; `/agent` on the page's origin by default. */
export const AGENT_URL = new InjectionToken<string>("AGENT_URL", {
  factory: () => new URL("/agent", location.href).href,
});

/** The tab's thread and the bearer token that owns it (main.ts provides them: `pageThread(sessionStorage)`). */
export const PAGE_THREAD = new InjectionToken<PageThread>("PAGE_THREAD");

/** The tab's transport: runs, joins and the thread list, with the profile's bearer token. */
export const PAGE_TRANSPORT = new InjectionToken<HttpThreadsTransport>("PAGE_TRANSPORT", {
  factory: () => new HttpThreadsTransport(inject(AGENT_URL), { headers: { Authorization: `Bearer ${inject(PAGE_THREAD).token}` } }),
});

/** The profile's thread list (docs/client.md#thread-list), what the sidebar shows. */
export const THREAD_LIST = new InjectionToken<ThreadList>("THREAD_LIST", { factory: () => threadList(inject(PAGE_TRANSPORT)) });

/** The task board's Session, typed by its state: what `injectAgent(BOARD)` reads. */
export const BOARD = new InjectionToken<Session<Board>>("the task board's agent session");

/**
 * Provides {@link BOARD}: a Session over HTTP with the tab's bearer token, the board's state spec
 * and the page's client tools. The app's injector owns it, so leaving the page (destroying the
 * app) only detaches from a run in progress; the server, which keeps the tab's thread, goes on.
 *
 * @example
 * bootstrapApplication(AppComponent, { providers: [{ provide: PAGE_THREAD, useValue: thread }, provideTaskBoard()] });
 */
export function provideTaskBoard(): Provider {
  return provideAgent(
    () => {
      const page = inject(PAGE_THREAD);
      return new Session<Board>(inject(PAGE_TRANSPORT), { threadId: page.threadId, state: boardSpec, tools: PAGE_TOOLS });
    },
    { token: BOARD },
  );
}
