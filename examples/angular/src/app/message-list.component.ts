/** The scrolling message pane: the conversation's blocks, a typing indicator, and "jump to latest" once the user scrolled up. */
import { ChangeDetectionStrategy, Component, computed, input, output, signal } from "@angular/core";
import type { Message } from "agui-rx";
import type { CutOff, Subagent } from "agui-rx/client";
import { sentQuestion } from "../../../shared/followBottom";
import { groupMessages, subagentHeading, toolResults } from "../../../shared/groupMessages";
import { SUGGESTIONS } from "../../../shared/suggestions";
import { turnControls } from "../../../shared/turnControls";
import { EditQuestionComponent } from "./edit-question.component";
import { FollowBottomDirective } from "./follow-bottom.directive";
import { MessageViewComponent } from "./message-view.component";
import { TurnBarComponent } from "./turn-bar.component";

/**
 * The conversation in a pane that follows new content while the reader is at the bottom. Under
 * each question and answer: Edit, or Copy and Regenerate, and the version arrows (app-turn-bar);
 * Edit shows the question's editor in its place, whose Save is the `edit` output.
 *
 * @example
 * <app-message-list [messages]="messages()" [subagents]="subagents()" [running]="running()" [cutOff]="cutOff()" [waiting]="waiting()" [canSuggest]="true" (suggestion)="send($event)" (edit)="agent.edit($event.messageId, $event.text)" />
 */
@Component({
  selector: "app-message-list",
  imports: [EditQuestionComponent, FollowBottomDirective, MessageViewComponent, TurnBarComponent],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: "pane-wrap" },
  template: `
    <div
      class="pane"
      followBottom
      #follow="followBottom"
      [jumpOn]="sent()"
      data-testid="messages"
      tabindex="0"
      role="log"
      aria-label="Messages"
      [attr.aria-busy]="running()"
    >
      <div class="thread-list">
        @for (block of blocks(); track block.key) {
          @if (block.kind === "message") {
            @let own = controls().get(block.message.id);
            @if (own?.kind === "question" && editing() === block.message.id) {
              <app-edit-question [text]="own!.text" [disabled]="turnsOff()" (save)="saveEdit(block.message.id, $event)" (cancel)="editing.set(undefined)" />
            } @else {
              <app-message [message]="block.message" [results]="results()" [running]="running()" [cutOff]="cutOff()" [waiting]="waiting()" />
              @if (own) {
                <app-turn-bar [controls]="own" [disabled]="turnsOff()" (startEdit)="editing.set($event)" />
              }
            }
          } @else {
            @let heading = headingOf(block.subagentRunId, block.messages);
            <div class="subagent" data-testid="subagent-group" [attr.data-name]="heading.name">
              <header>
                <h3>{{ heading.name }}</h3>
                <span class="badge {{ heading.badge }}" data-testid="subagent-status">{{ heading.badge }}</span>
                @if (heading.description) {
                  <span class="description">{{ heading.description }}</span>
                }
              </header>
              @for (message of block.messages; track message.id) {
                <app-message [message]="message" [results]="results()" [running]="running()" [cutOff]="cutOff()" [waiting]="waiting()" />
              }
            </div>
          }
        } @empty {
          <div class="welcome" data-testid="welcome">
            <h2>What should go on the board?</h2>
            <p>The agent adds, completes and clears tasks, and asks a researcher for notes.</p>
            <div class="suggestions">
              @for (text of suggestions; track text) {
                <button class="suggestion" type="button" [disabled]="!canSuggest()" (click)="suggestion.emit(text)">{{ text }}</button>
              }
            </div>
          </div>
        }
        @if (running()) {
          <div class="typing" data-testid="typing" role="status" aria-label="The agent is working">
            <span aria-hidden="true"></span><span aria-hidden="true"></span><span aria-hidden="true"></span>
          </div>
        }
      </div>
    </div>
    @if (!follow.pinned()) {
      <button class="jump" type="button" data-testid="jump-to-latest" (click)="follow.jump()">↓ Jump to latest</button>
    }
  `,
})
export class MessageListComponent {
  readonly messages = input.required<readonly Message[]>();
  readonly subagents = input.required<readonly Subagent[]>();
  readonly running = input.required<boolean>();
  /** Edit, Regenerate and the version arrows are off (default: while `running`; a page that queues also while messages wait, docs/queue.md#policies). */
  readonly versionsLocked = input<boolean | undefined>(undefined);
  readonly cutOff = input.required<CutOff>();
  /** Client tool calls waiting for the user's answer on a card: their tool cards say so. */
  readonly waiting = input<ReadonlySet<string>>(new Set());
  /** Whether a suggestion click would be taken (no run active, no approval waiting). */
  readonly canSuggest = input.required<boolean>();
  /** An example command of the empty conversation was clicked. */
  readonly suggestion = output<string>();
  /** A question's edit was saved: the page runs the agent on it, as a new version beside the old one. */
  readonly edit = output<{ readonly messageId: string; readonly text: string }>();

  protected readonly suggestions = SUGGESTIONS;
  protected readonly blocks = computed(() => groupMessages(this.messages()));
  protected readonly results = computed(() => toolResults(this.messages()));
  protected readonly controls = computed(() => turnControls(this.messages()));
  /** The question the user just sent, if the conversation ends with one: the pane goes to the bottom for it. */
  protected readonly sent = computed(() => sentQuestion(this.messages()));
  /** The question whose editor is open (one at a time). */
  protected readonly editing = signal<string | undefined>(undefined);
  protected readonly turnsOff = computed(() => this.versionsLocked() ?? this.running());

  protected saveEdit(messageId: string, text: string): void {
    this.editing.set(undefined);
    this.edit.emit({ messageId, text });
  }

  protected headingOf(subagentRunId: string, messages: readonly Message[]) {
    const cutOff = this.cutOff();
    return subagentHeading(
      this.subagents().find((s) => s.id === subagentRunId),
      this.running(),
      subagentRunId,
      messages.some((message) => cutOff.messageIds.has(message.id)),
    );
  }
}
