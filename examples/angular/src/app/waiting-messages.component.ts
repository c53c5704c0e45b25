/** The thread's waiting messages above the composer (docs/queue.md#in-the-client): each as queued, waiting or steering, with a Cancel. */
import { ChangeDetectionStrategy, Component, computed, input, signal } from "@angular/core";
import { ClientError } from "agui-rx/client";
import { waitingHeading, waitingRow, type WaitingEntry } from "../../../shared/queuedMessages";

/**
 * Nothing while no message waits. Each row says its status in a word ("Queued", "Waiting",
 * "Steering") and what comes next; its Cancel is named after the message, and is off while that
 * cancel is on its way. A message leaves the list when its run starts, its steer is taken or it
 * is cancelled: the session removes it, not this component. The rows' words are
 * examples/shared/queuedMessages.ts, shared with the React page.
 *
 * @example
 * <app-waiting-messages [queued]="agent.queued()" [cancel]="cancelQueued" />
 */
@Component({
  selector: "app-waiting-messages",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    @if (rows().length > 0) {
      <section class="waiting" data-testid="waiting-messages" aria-label="Waiting messages">
        <h2>{{ heading() }}</h2>
        <ol>
          @for (row of rows(); track row.id) {
            <li data-testid="waiting-message" [attr.data-status]="row.status">
              <span class="waiting-status">{{ row.label }}</span>
              <span class="waiting-text" [title]="row.text">{{ row.text }}</span>
              <span class="waiting-detail">{{ row.detail }}</span>
              <button type="button" class="waiting-cancel" [attr.aria-label]="row.cancelLabel" [disabled]="cancelling().has(row.id)" (click)="onCancel(row.id)">
                Cancel
              </button>
            </li>
          }
        </ol>
        @if (refused(); as message) {
          <p class="waiting-error" role="alert">{{ message }}</p>
        }
      </section>
    }
  `,
})
export class WaitingMessagesComponent {
  /** The thread's waiting messages in the order they will run (`agent.queued()`). */
  readonly queued = input.required<readonly WaitingEntry[]>();
  /** Cancels one (`agent.cancelQueued`); a refusal (its run started meanwhile) is shown under the list. */
  readonly cancel = input.required<(id: string) => PromiseLike<unknown> | void>();

  protected readonly rows = computed(() => this.queued().map(waitingRow));
  protected readonly heading = computed(() => waitingHeading(this.queued().length));
  protected readonly cancelling = signal<ReadonlySet<string>>(new Set());
  protected readonly refused = signal<string | undefined>(undefined);

  protected onCancel(id: string): void {
    this.refused.set(undefined);
    this.cancelling.update((current) => new Set(current).add(id));
    const done = () =>
      this.cancelling.update((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    Promise.resolve(this.cancel()(id)).then(done, (error: unknown) => {
      done();
      this.refused.set(ClientError.from(error).message);
    });
  }
}
