/** The `confirm_delete` client tool's card: the agent waits on it before it deletes a task. */
import { ChangeDetectionStrategy, Component, computed, input } from "@angular/core";
import type { RunningToolCall } from "agui-rx/client";
import type { ConfirmDeleteAnswer, ConfirmDeleteArgs } from "../../../task-board/clientTools";
import { confirmationText } from "../../../shared/pageToolDefinitions";
import { FocusCardDirective } from "./focus-card.directive";

/**
 * One pending `confirm_delete` call: the task, Keep and Delete. Either button answers the call
 * (`respond`), which lets the session send the answer in the follow-up run.
 *
 * @example
 * @for (call of confirmations(); track call.toolCallId) { <app-confirm-delete [call]="call" /> }
 */
@Component({
  selector: "app-confirm-delete",
  imports: [FocusCardDirective],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    <div class="approval confirm" data-testid="confirm-delete" [attr.data-call]="call().toolCallId" role="alertdialog" aria-label="Confirm deletion" focusCard>
      <div class="icon" aria-hidden="true">?</div>
      <div class="text">
        <strong>{{ text().question }}</strong>
        <small>“{{ text().detail }}”. The agent deletes it only if you say so.</small>
      </div>
      <div class="actions">
        <button class="reject" data-testid="keep" type="button" (click)="answer(false)">Keep</button>
        <button class="approve" data-testid="confirm" type="button" (click)="answer(true)">Delete</button>
      </div>
    </div>
  `,
})
export class ConfirmDeleteComponent {
  readonly call = input.required<RunningToolCall<ConfirmDeleteArgs, ConfirmDeleteAnswer>>();
  protected readonly text = computed(() => confirmationText(this.call().args));

  protected answer(confirmed: boolean): void {
    this.call().respond({ confirmed });
  }
}
