/** The task-board page in Angular: the same page as examples/react, over TaskBoardService. */
import { AsyncPipe, NgTemplateOutlet } from "@angular/common";
import { ChangeDetectionStrategy, Component, computed, inject, signal } from "@angular/core";
import { toSignal } from "@angular/core/rxjs-interop";
import type { Message, ToolMessage } from "../../../../src/protocol/messages";
import { toolResults } from "../../../shared/groupMessages";
import { TaskBoardService } from "./task-board.service";

@Component({
  selector: "app-root",
  imports: [AsyncPipe, NgTemplateOutlet],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <main class="page">
      <section class="chat">
        <h1>Task board <small>Angular</small></h1>
        <div class="messages" data-testid="messages">
          @for (block of board.blocks$ | async; track block.key) {
            @if (block.kind === "message") {
              <ng-container *ngTemplateOutlet="messageView; context: { $implicit: block.message }" />
            } @else {
              <div class="subagent" data-testid="subagent-group" [attr.data-name]="subagentName(block.subagentRunId)">
                <h3>{{ subagentName(block.subagentRunId) }} <span class="badge">{{ subagentStatus(block.subagentRunId) }}</span></h3>
                @for (message of block.messages; track message.id) {
                  <ng-container *ngTemplateOutlet="messageView; context: { $implicit: message }" />
                }
              </div>
            }
          }
        </div>
        @if (board.status() === "interrupted") {
          @for (interrupt of board.interrupts(); track interrupt.id) {
            <div class="interrupt" data-testid="interrupt">
              <p>{{ interrupt.message ?? interrupt.reason }}</p>
              <button data-testid="approve" (click)="board.approve(interrupt)">Approve</button>
              <button data-testid="reject" (click)="board.reject(interrupt)">Reject</button>
            </div>
          }
        }
        <form class="composer" (submit)="submit($event)">
          <input data-testid="chat-input" [value]="draft()" (input)="draft.set(input.value)" #input placeholder='Try "add buy milk; add call mom"' />
          <button data-testid="send" type="submit" [disabled]="board.status() === 'running'">Send</button>
          <button data-testid="stop" type="button" (click)="board.stop()" [disabled]="board.status() !== 'running'">Stop</button>
        </form>
        <p class="status" data-testid="status" [attr.data-status]="board.status()">
          {{ board.status() }}
          @if (board.error(); as error) { <span class="error" data-testid="error">: {{ error.message }}</span> }
        </p>
      </section>
      <aside class="board" data-testid="board">
        <h2>Board</h2>
        @if (tasks().length > 0) {
          <ol>
            @for (task of tasks(); track task.id) {
              <li data-testid="task" [class.done]="task.done">{{ task.title }}</li>
            }
          </ol>
        } @else {
          <p class="empty" data-testid="board-empty">No tasks.</p>
        }
      </aside>
    </main>

    <ng-template #messageView let-message>
      @if (message.role === "user" || message.role === "assistant") {
        <div class="message {{ message.role }}" data-testid="message" [attr.data-role]="message.role">
          @if (textOf(message); as text) { <p>{{ text }}</p> }
          @for (call of toolCallsOf(message); track call.id) {
            <div class="tool-card" data-testid="tool-card">
              <strong>{{ call.function.name }}</strong>
              <code>{{ call.function.arguments }}</code>
              @if (results().get(call.id); as result) {
                <div class="tool-result">{{ textOf(result) }}</div>
              } @else {
                <div class="tool-result pending">running…</div>
              }
            </div>
          }
        </div>
      }
    </ng-template>
  `,
})
export class AppComponent {
  protected readonly board = inject(TaskBoardService);
  protected readonly draft = signal("");
  protected readonly tasks = computed(() => this.board.board()?.tasks ?? []);
  private readonly messages = toSignal(this.board.messages$, { initialValue: this.board.session.messages });
  protected readonly results = computed<ReadonlyMap<string, ToolMessage>>(() => toolResults(this.messages()));

  protected submit(event: Event): void {
    event.preventDefault();
    const text = this.draft().trim();
    if (!text) return;
    this.board.send(text);
    this.draft.set("");
  }

  protected subagentName(id: string): string {
    return this.board.subagents().find((s) => s.id === id)?.name ?? id;
  }

  protected subagentStatus(id: string): string {
    return this.board.subagents().find((s) => s.id === id)?.status.kind ?? "running";
  }

  protected textOf(message: Message): string {
    return typeof message.content === "string" ? message.content : "";
  }

  protected toolCallsOf(message: Message) {
    return message.role === "assistant" ? (message.toolCalls ?? []) : [];
  }
}
