/** The input at the bottom of the chat: a growing text box, Send and Stop, and the status line under them. */
import { ChangeDetectionStrategy, Component, computed, effect, input, output, signal, untracked } from "@angular/core";
import type { ClientError, RunEnd, RunStatus } from "agui-rx/client";
import { composerState, KEYBOARD_HINT, statusLine } from "../../../shared/composerState";

/**
 * Enter sends, Shift+Enter breaks the line. Send is off while a run is active or an approval
 * waits (the draft stays, to be sent once the approval is answered); Stop is on while a run is
 * active. A send the server refused before recording it (`end.unsent`) puts its text back in an
 * empty box. The rules are examples/shared/composerState.ts, shared with the React page.
 *
 * @example
 * <app-composer [status]="agent.status()" [pendingApprovals]="1" (send)="agent.send($event)" (stop)="agent.stop()" />
 */
@Component({
  selector: "app-composer",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    <form class="composer" (submit)="submit($event)">
      <textarea
        data-testid="chat-input"
        rows="1"
        #box
        [value]="draft()"
        (input)="draft.set(box.value)"
        (keydown)="onKeyDown($event)"
        [placeholder]="state().placeholder"
        aria-label="Message"
      ></textarea>
      <button class="stop" data-testid="stop" type="button" (click)="stop.emit()" [disabled]="!state().canStop">Stop</button>
      <button class="send" data-testid="send" type="submit" [disabled]="!state().canSend">Send</button>
    </form>
    <p class="status {{ line().tone }}" data-testid="status" [attr.data-status]="status()" [attr.data-end]="end()?.kind ?? ''" aria-live="polite">
      <span>{{ line().label }}</span>
      @if (line().detail; as detail) {
        <span class="error" data-testid="error" [title]="detail">· {{ detail }}</span>
      }
      <span class="hint">{{ keyboardHint }}</span>
    </p>
  `,
})
export class ComposerComponent {
  readonly status = input.required<RunStatus>();
  readonly pendingApprovals = input.required<number>();
  /** Confirmation cards waiting for the user (client tool calls). */
  readonly pendingAnswers = input(0);
  readonly error = input<ClientError | undefined>(undefined);
  /** How the last run ended (a stopped one says so). */
  readonly end = input<RunEnd | undefined>(undefined);
  /** Stop was pressed; the server is ending the run. */
  readonly stopping = input(false);
  /** The reconnect attempt under way, while the connection is lost. */
  readonly reconnecting = input<number | undefined>(undefined);
  /** The user sent this text. */
  readonly send = output<string>();
  /** The user pressed Stop. */
  readonly stop = output<void>();

  protected readonly keyboardHint = KEYBOARD_HINT;
  protected readonly draft = signal("");
  protected readonly state = computed(() =>
    composerState({
      status: this.status(),
      pendingApprovals: this.pendingApprovals(),
      draft: this.draft(),
      stopping: this.stopping(),
      pendingAnswers: this.pendingAnswers(),
    }),
  );
  protected readonly line = computed(() =>
    statusLine({
      status: this.status(),
      pendingApprovals: this.pendingApprovals(),
      error: this.error(),
      end: this.end(),
      stopping: this.stopping(),
      reconnecting: this.reconnecting(),
      pendingAnswers: this.pendingAnswers(),
    }),
  );

  constructor() {
    // The session took the refused message back out (issue #20 A5): its text returns to the box, unless something new was typed.
    effect(() => {
      const end = this.end();
      const text = end?.kind === "failed" ? end.unsent?.content : undefined;
      if (typeof text === "string" && untracked(this.draft) === "") this.draft.set(text);
    });
  }

  protected submit(event?: Event): void {
    event?.preventDefault();
    if (!this.state().canSend) return;
    this.send.emit(this.draft().trim());
    this.draft.set("");
  }

  protected onKeyDown(event: KeyboardEvent): void {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit();
    }
  }
}
