/** One message: its text, its tool calls as cards, and the "stopped" marker when Stop cut it off. */
import { ChangeDetectionStrategy, Component, computed, input } from "@angular/core";
import type { Message, ToolMessage } from "agui-rx";
import type { CutOff } from "agui-rx/client";
import { messageText } from "../../../shared/messageText";
import { speakerLabel } from "../../../shared/speakerLabel";
import { toolCardView } from "../../../shared/toolCard";
import { ToolCardComponent } from "./tool-card.component";

/**
 * @example
 * <app-message [message]="message" [results]="results()" [running]="running()" [cutOff]="cutOff()" [waiting]="waiting()" />
 */
@Component({
  selector: "app-message",
  imports: [ToolCardComponent],
  changeDetection: ChangeDetectionStrategy.OnPush,
  // display: contents, so the message itself is the flex item of the thread (alignment, gaps).
  host: { style: "display: contents" },
  template: `
    @if (shown()) {
      <div [class]="classes()" data-testid="message" [attr.data-role]="message().role" role="article" [attr.aria-label]="speaker()">
        @if (text()) {
          <p>{{ text() }}</p>
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

  /** Tool results show on their call's card; reasoning and activity messages are not drawn here. */
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
  protected readonly classes = computed(() => {
    const toolsOnly = this.text() === "" && this.cards().length > 0;
    return ["message", this.message().role, toolsOnly ? "tools-only" : "", this.stopped() ? "cut-off" : ""].filter(Boolean).join(" ");
  });
}
