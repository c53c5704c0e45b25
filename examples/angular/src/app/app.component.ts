/**
 * The task-board page in Angular: the same page as examples/react (same markup and stylesheet,
 * same shared view logic in examples/shared), over TaskBoardService. The parts are components so
 * later pages can add to them: app-message-list (app-message, app-tool-card) for the
 * conversation, app-approvals for interrupts, app-confirm-delete for the `confirm_delete` client
 * tool's cards, app-composer for input, app-board-panel for the state.
 */
import { ChangeDetectionStrategy, Component, computed, inject } from "@angular/core";
import { toSignal } from "@angular/core/rxjs-interop";
import { ApprovalsComponent } from "./approvals.component";
import { BoardPanelComponent } from "./board-panel.component";
import { ComposerComponent } from "./composer.component";
import { ConfirmDeleteComponent } from "./confirm-delete.component";
import { MessageListComponent } from "./message-list.component";
import { TaskBoardService } from "./task-board.service";

/**
 * @example
 * bootstrapApplication(AppComponent);
 */
@Component({
  selector: "app-root",
  imports: [ApprovalsComponent, BoardPanelComponent, ComposerComponent, ConfirmDeleteComponent, MessageListComponent],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: "app" },
  template: `
    <header class="topbar">
      <div class="logo" aria-hidden="true">✓</div>
      <h1>Task board</h1>
      <span class="framework">Angular</span>
      <span class="spacer"></span>
      <span class="thread" data-testid="thread" title="thread id">{{ board.session.threadId }}</span>
    </header>
    <main class="layout">
      <section class="chat" aria-label="Chat">
        <app-message-list
          [messages]="messages()"
          [subagents]="board.subagents()"
          [running]="running()"
          [cutOff]="board.cutOff()"
          [waiting]="board.waiting()"
          [canSuggest]="canStart()"
          (suggestion)="board.send($event)"
        />
        <footer class="dock">
          @for (call of board.confirmations(); track call.toolCallId) {
            <app-confirm-delete [call]="call" />
          }
          <app-approvals [pending]="board.interrupts()" [disabled]="running()" (answer)="board.resume($event)" />
          <app-composer
            [status]="board.status()"
            [pendingApprovals]="board.interrupts().length"
            [pendingAnswers]="board.confirmations().length"
            [error]="board.error()"
            [end]="board.end()"
            [stopping]="board.stopping()"
            [reconnecting]="board.reconnecting()"
            (send)="board.send($event)"
            (stop)="board.stop()"
          />
        </footer>
      </section>
      <app-board-panel [board]="board.board()" />
    </main>
  `,
})
export class AppComponent {
  protected readonly board = inject(TaskBoardService);
  constructor() {
    // On load (a reload too): join the thread, its history and the live rest of a run in progress.
    this.board.connect();
  }
  protected readonly messages = toSignal(this.board.messages$, { initialValue: this.board.session.messages });
  protected readonly running = computed(() => this.board.status() === "running");
  // Pending interrupts come from the session, not from the run status: a refused send after an
  // interrupt leaves the status `failed` while the approval still waits (issue 15).
  protected readonly canStart = computed(() => !this.running() && this.board.interrupts().length === 0);
}
