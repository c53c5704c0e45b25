/**
 * The thread sidebar (docs/client.md#thread-list), as on the React page: the browser profile's
 * threads, live across its tabs (`injectThreads`), with New chat, switching, rename, delete and a
 * marker on threads whose run is live. The page has one Session for its lifetime (provideAgent),
 * so switching or starting a chat stores the tab's thread and loads the page on it.
 */
import { ChangeDetectionStrategy, Component, inject } from "@angular/core";
import { injectThreads } from "agui-rx/angular";
import type { ThreadSummary } from "agui-rx/client";
import { newPageThread, showPageThread } from "../../../shared/pageThread";
import { PAGE_THREAD, THREAD_LIST } from "./task-board";

/**
 * @example
 * <app-thread-sidebar />
 */
@Component({
  selector: "app-thread-sidebar",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: "threads", role: "complementary", "aria-label": "Threads" },
  template: `
    <button type="button" class="new-chat" data-testid="new-chat" (click)="newChat()">+ New chat</button>
    @if (threads.error(); as error) {
      <p class="threads-error">{{ error.message }}</p>
    }
    <ul>
      @for (thread of threads.threads(); track thread.threadId) {
        <li class="thread-row" data-testid="thread-row" [attr.data-thread]="thread.threadId" [attr.aria-current]="thread.threadId === current">
          <button type="button" class="thread-open" [title]="thread.lastMessage?.preview ?? ''" (click)="open(thread.threadId)">
            @if (thread.running) {
              <span class="running-dot" data-testid="thread-running" title="a run is live"></span>
            }
            {{ titleOf(thread) }}
          </button>
          <button type="button" class="thread-action" [attr.aria-label]="'Rename ' + titleOf(thread)" (click)="rename(thread)">✎</button>
          <button type="button" class="thread-action" [attr.aria-label]="'Delete ' + titleOf(thread)" (click)="remove(thread)">✕</button>
        </li>
      }
    </ul>
  `,
})
export class ThreadSidebarComponent {
  protected readonly threads = injectThreads(inject(THREAD_LIST));
  private readonly page = inject(PAGE_THREAD);
  protected readonly current = this.page.threadId;

  protected titleOf(thread: ThreadSummary): string {
    return thread.title === "" ? "New chat" : thread.title;
  }

  protected open(threadId: string): void {
    if (threadId === this.current) return;
    showPageThread(sessionStorage, threadId);
    location.reload();
  }

  protected newChat(): void {
    void newPageThread(sessionStorage, this.page.token).then(() => location.reload());
  }

  protected rename(thread: ThreadSummary): void {
    const renamed = window.prompt("Rename the chat", thread.title);
    if (renamed !== null && renamed.trim() !== "") void this.threads.rename(thread.threadId, renamed.trim());
  }

  protected remove(thread: ThreadSummary): void {
    void this.threads.remove(thread.threadId).then(() => {
      if (thread.threadId === this.current) this.newChat();
    });
  }
}
