/** The input at the bottom of the chat: a growing text box, Send and Stop (and, while a run is live on a page that queues, Steer and Interrupt & send), and the status line under them. */
import { ChangeDetectionStrategy, Component, computed, effect, input, output, signal, untracked } from "@angular/core";
import type { ClientError, RunEnd, RunStatus } from "agui-rx/client";
import { composerState, keyboardHint, statusLine } from "../../../shared/composerState";
import type { ComposerPolicy } from "../../../shared/queuedMessages";

/**
 * Enter sends, Shift+Enter breaks the line. Send is off while a run is active or an approval
 * waits (the draft stays, to be sent once the approval is answered); Stop is on while a run is
 * active. A send the server refused before recording it (`end.unsent`) puts its text back in an
 * empty box. With `queueing` the box stays usable while a run is live (docs/queue.md#policies):
 * every send goes out through `sendWith` with its policy, Enter and Send `queue`, Steer `steer`,
 * Interrupt & send `interrupt` (those two are shown only while a run is live). The rules are
 * examples/shared/composerState.ts, shared with the React page.
 *
 * @example
 * <app-composer [status]="agent.status()" [pendingApprovals]="1" (send)="agent.send($event)" (stop)="agent.stop()" />
 * <app-composer [status]="agent.status()" [pendingApprovals]="0" [queueing]="true" (sendWith)="agent.send($event.text, { whileRunning: $event.policy })" (stop)="agent.stop()" />
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
      @if (state().offersPolicies) {
        <button
          class="interrupt"
          data-testid="interrupt-send"
          type="button"
          title="Stop the current answer and run this message now"
          (click)="submit(undefined, 'interrupt')"
          [disabled]="!state().canSteer"
        >
          Interrupt &amp; send
        </button>
        <button
          class="steer"
          data-testid="steer"
          type="button"
          title="Hand this message to the current answer"
          (click)="submit(undefined, 'steer')"
          [disabled]="!state().canSteer"
        >
          Steer
        </button>
      }
      <button
        class="send"
        data-testid="send"
        type="submit"
        [attr.title]="state().offersPolicies ? 'Queue this message: it runs after the current answer' : null"
        [disabled]="!state().canSend"
      >
        Send
      </button>
    </form>
    <p class="status {{ line().tone }}" data-testid="status" [attr.data-status]="status()" [attr.data-end]="end()?.kind ?? ''" aria-live="polite">
      <span>{{ line().label }}</span>
      @if (line().detail; as detail) {
        <span class="error" data-testid="error" [title]="detail">· {{ detail }}</span>
      }
      <span class="hint">{{ hint() }}</span>
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
  /** The page queues: sends go out through `sendWith` with their policy, and Steer and Interrupt & send are offered while a run is live. */
  readonly queueing = input(false);
  /** The user sent this text (a page that does not queue). */
  readonly send = output<string>();
  /** The user sent this text with this policy (a page that queues). */
  readonly sendWith = output<{ readonly text: string; readonly policy: ComposerPolicy }>();
  /** The user pressed Stop. */
  readonly stop = output<void>();

  protected readonly draft = signal("");
  protected readonly state = computed(() =>
    composerState({
      status: this.status(),
      pendingApprovals: this.pendingApprovals(),
      draft: this.draft(),
      stopping: this.stopping(),
      pendingAnswers: this.pendingAnswers(),
      queueing: this.queueing(),
    }),
  );
  protected readonly hint = computed(() => keyboardHint(this.state()));
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

  protected submit(event?: Event, policy: ComposerPolicy = "queue"): void {
    event?.preventDefault();
    if (policy === "queue" ? !this.state().canSend : !this.state().canSteer) return;
    const text = this.draft().trim();
    if (this.queueing()) this.sendWith.emit({ text, policy });
    else this.send.emit(text);
    this.draft.set("");
  }

  protected onKeyDown(event: KeyboardEvent): void {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit();
    }
  }
}
