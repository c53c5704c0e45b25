/** One message: its text (an answer's as markdown), its tool calls as cards, the "stopped" marker when Stop cut it off; or the model's reasoning, which folds away. */
import { ChangeDetectionStrategy, Component, computed, input, signal } from "@angular/core";
import type { Message, ToolMessage } from "agui-rx";
import type { CutOff } from "agui-rx/client";
import { copyText, type CopyResult } from "../../../shared/markdown/copyCode";
import { messageText } from "../../../shared/messageText";
import { speakerLabel } from "../../../shared/speakerLabel";
import { toolCardView } from "../../../shared/toolCard";
import { MarkdownComponent } from "./markdown.component";
import { ToolCardComponent } from "./tool-card.component";

/**
 * @example
 * <app-message [message]="message" [results]="results()" [running]="running()" [cutOff]="cutOff()" [waiting]="waiting()" />
 */
@Component({
  selector: "app-message",
  imports: [MarkdownComponent, ToolCardComponent],
  changeDetection: ChangeDetectionStrategy.OnPush,
  // display: contents, so the message itself is the flex item of the thread (alignment, gaps).
  host: { style: "display: contents" },
  template: `
    @if (message().role === "reasoning") {
      <details class="reasoning" data-testid="reasoning" [open]="reasoningOpen()" (toggle)="onToggle($event)">
        <summary class="reasoning-label" data-testid="reasoning-toggle">Thinking</summary>
        <p>{{ text() }}</p>
      </details>
    }
    @if (shown()) {
      <div [class]="classes()" data-testid="message" [attr.data-role]="message().role" role="article" [attr.aria-label]="speaker()">
        @if (text()) {
          @if (message().role === "assistant") {
            <app-markdown [text]="text()" />
          } @else {
            <p>{{ text() }}</p>
          }
          <button
            type="button"
            class="copy-message"
            data-testid="copy-message"
            [attr.data-copied]="copied() ?? ''"
            [attr.aria-label]="copied() === 'copied' ? 'Message copied' : 'Copy message'"
            title="Copy message"
            (click)="copy()"
          ></button>
        }
        @for (card of cards(); track card.id) {
          <app-tool-card [view]="card" />
        }
        @if (stopped()) {
          <span class="stopped-marker" data-testid="stopped-marker">Stopped</span>
        }
      </div>
    }
  `,
})
export class MessageViewComponent {
  readonly message = input.required<Message>();
  readonly results = input.required<ReadonlyMap<string, ToolMessage>>();
  readonly running = input.required<boolean>();
  readonly cutOff = input.required<CutOff>();
  /** Client tool calls waiting for the user's answer on a card. */
  readonly waiting = input<ReadonlySet<string>>(new Set());

  /** Tool results show on their call's card; activity messages are not drawn here; reasoning is its own fold (above). */
  protected readonly shown = computed(() => this.message().role === "user" || this.message().role === "assistant");
  protected readonly text = computed(() => messageText(this.message()));
  /** Who speaks, for a screen reader (the article's name). */
  protected readonly speaker = computed(() => speakerLabel(this.message().role === "user" ? "user" : "assistant"));
  protected readonly stopped = computed(() => this.cutOff().messageIds.has(this.message().id));
  protected readonly cards = computed(() => {
    const message = this.message();
    const calls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
    return calls.map((call) =>
      toolCardView(call, this.results().get(call.id), {
        running: this.running(),
        stopped: this.cutOff().toolCallIds.has(call.id),
        waiting: this.waiting().has(call.id),
      }),
    );
  });
  /** Whether the reasoning is unfolded: at first yes; then what the reader chose. */
  protected readonly reasoningOpen = signal(true);
  /** The last Copy's result, for the text it copied: a changed text reads "Copy" again. */
  private readonly copiedText = signal<{ readonly text: string; readonly result: CopyResult } | undefined>(undefined);
  protected readonly copied = computed(() => {
    const last = this.copiedText();
    return last !== undefined && last.text === this.text() ? last.result : undefined;
  });

  protected onToggle(event: Event): void {
    if (event.target instanceof HTMLDetailsElement) this.reasoningOpen.set(event.target.open);
  }

  /** Copies the message's text (an answer's markdown source). */
  protected copy(): void {
    const text = this.text();
    void copyText(text).then((result) => this.copiedText.set({ text, result }));
  }

  protected readonly classes = computed(() => {
    const toolsOnly = this.text() === "" && this.cards().length > 0;
    return ["message", this.message().role, toolsOnly ? "tools-only" : "", this.stopped() ? "cut-off" : ""].filter(Boolean).join(" ");
  });
}
