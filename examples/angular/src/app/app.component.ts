/**
 * The task-board page in Angular: the same page as examples/react (same markup and stylesheet,
 * same shared view logic in examples/shared), over agui-rx/angular: `injectAgent(BOARD)` gives
 * the conversation as signals and the calls that drive it. The parts are components so
 * later pages can add to them: app-message-list (app-message, app-tool-card) for the
 * conversation, app-approvals for interrupts, app-confirm-delete for the `confirm_delete` client
 * tool's cards, app-composer for input, app-board-panel for the state. While the agent works the
 * composer stays open: Send queues, Steer hands the message to the live answer, Interrupt & send
 * stops it and runs the message; app-waiting-messages lists what waits, each with a Cancel
 * (docs/queue.md#in-the-client).
 */
import { ChangeDetectionStrategy, Component, computed } from "@angular/core";
import { injectAgent } from "agui-rx/angular";
import { ApprovalsComponent } from "./approvals.component";
import { BoardPanelComponent } from "./board-panel.component";
import { ComposerComponent } from "./composer.component";
import { ConfirmDeleteComponent } from "./confirm-delete.component";
import { MessageListComponent } from "./message-list.component";
import { ThemeToggleComponent } from "./theme-toggle.component";
import { ThreadSidebarComponent } from "./thread-sidebar.component";
import { WaitingMessagesComponent } from "./waiting-messages.component";
import { confirmDelete } from "./page-tools";
import { sendPolicy, type ComposerPolicy } from "../../../shared/queuedMessages";
import { BOARD } from "./task-board";

/**
 * @example
 * bootstrapApplication(AppComponent);
 */
@Component({
  selector: "app-root",
  imports: [
    ApprovalsComponent,
    BoardPanelComponent,
    ComposerComponent,
    ConfirmDeleteComponent,
    MessageListComponent,
    ThemeToggleComponent,
    ThreadSidebarComponent,
    WaitingMessagesComponent,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: "with-threads" },
  template: `
    <app-thread-sidebar />
    <div class="app">
      <header class="topbar">
        <div class="logo" aria-hidden="true">✓</div>
        <h1>Task board</h1>
        <span class="framework">Angular</span>
        <span class="spacer"></span>
        <app-theme-toggle />
        <span class="thread" data-testid="thread" title="thread id">{{ agent.session.threadId }}</span>
      </header>
      <main class="layout">
        <section class="chat" aria-label="Chat">
          <app-message-list
            [messages]="agent.messages()"
            [subagents]="agent.subagents()"
            [running]="running()"
            [versionsLocked]="versionsLocked()"
            [cutOff]="agent.cutOff()"
            [waiting]="waiting()"
            [canSuggest]="canStart()"
            (suggestion)="agent.send($event)"
            (edit)="agent.edit($event.messageId, $event.text)"
          />
          <footer class="dock">
            @for (call of confirmations(); track call.toolCallId) {
              <app-confirm-delete [call]="call" />
            }
            <app-approvals [pending]="agent.interrupts()" [disabled]="running()" (answer)="agent.resume($event)" />
            <app-waiting-messages [queued]="agent.queued()" [cancel]="cancelQueued" />
            <app-composer
              [status]="agent.status()"
              [pendingApprovals]="agent.interrupts().length"
              [pendingAnswers]="confirmations().length"
              [error]="agent.error()"
              [end]="agent.end()"
              [stopping]="agent.stopping()"
              [reconnecting]="agent.reconnecting()"
              [queueing]="true"
              (sendWith)="sendWith($event.text, $event.policy)"
              (stop)="agent.stop()"
            />
          </footer>
        </section>
        <app-board-panel [board]="agent.state()" />
      </main>
    </div>
  `,
})
export class AppComponent {
  protected readonly agent = injectAgent(BOARD);
  /** The pending `confirm_delete` calls: one card each, every call of the turn. */
  protected readonly confirmations = this.agent.toolCalls(confirmDelete);
  /** The ids of the calls waiting for the user, for their tool cards. */
  protected readonly waiting = computed(() => new Set(this.confirmations().map((call) => call.toolCallId)));
  protected readonly running = computed(() => this.agent.status() === "running");
  // Pending interrupts come from the session, not from the run status: a refused send after an
  // interrupt leaves the status `failed` while the approval still waits (issue 15).
  protected readonly canStart = computed(() => !this.running() && this.agent.interrupts().length === 0 && this.agent.queued().length === 0);
  // Versions switch, and edits start, only between runs with nothing waiting: a waiting message keeps its branch (docs/queue.md#policies).
  protected readonly versionsLocked = computed(() => this.running() || this.agent.queued().length > 0);
  /** Cancels a waiting message (the list's Cancel). */
  protected readonly cancelQueued = (id: string) => this.agent.cancelQueued(id);
  /** Sends the composer's message: with its button's policy while the agent works or messages wait, else plainly (`sendPolicy`). */
  protected sendWith(text: string, policy: ComposerPolicy): void {
    this.agent.send(text, { whileRunning: sendPolicy(policy, this.versionsLocked()) });
  }
  constructor() {
    // On load (a reload too): join the thread, its history and the live rest of a run in progress.
    this.agent.connect();
  }
}
