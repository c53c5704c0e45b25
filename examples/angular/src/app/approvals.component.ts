/** The agent's pending interrupts as approval cards, kept in the dock (always in view) until answered. */
import { ChangeDetectionStrategy, Component, input, output, signal } from "@angular/core";
import type { Interrupt, ResumeEntry } from "agui-rx";
import { answersOnceComplete, type Choice } from "../../../shared/approvals";
import { FocusCardDirective } from "./focus-card.directive";

/**
 * One card per pending interrupt with Approve / Reject. `resume` must answer every pending
 * interrupt at once, so with several the choices are collected and `answer` fires with all of
 * them when the last is made; with one, its button answers at once.
 *
 * @example
 * <app-approvals [pending]="agent.interrupts()" [disabled]="running()" (answer)="agent.resume($event)" />
 */
@Component({
  selector: "app-approvals",
  imports: [FocusCardDirective],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    @for (interrupt of pending(); track interrupt.id) {
      <div class="approval" data-testid="interrupt" role="alertdialog" aria-label="Approval needed" focusCard>
        <div class="icon" aria-hidden="true">!</div>
        <div class="text">
          <strong>{{ interrupt.message ?? "The agent asks for your approval" }}</strong>
          <small>The agent is waiting for your answer ({{ interrupt.reason }}).</small>
        </div>
        @if (choices().get(interrupt.id); as chosen) {
          <span class="chosen">{{ chosen === "approve" ? "Approved" : "Rejected" }}, waiting for the others…</span>
        } @else {
          <div class="actions">
            <button class="reject" data-testid="reject" type="button" [disabled]="disabled()" (click)="choose(interrupt, 'reject')">Reject</button>
            <button class="approve" data-testid="approve" type="button" [disabled]="disabled()" (click)="choose(interrupt, 'approve')">Approve</button>
          </div>
        }
      </div>
    }
  `,
})
export class ApprovalsComponent {
  /** What the agent waits on. */
  readonly pending = input.required<readonly Interrupt[]>();
  /** A run is active (the resume is on its way): the buttons wait. */
  readonly disabled = input(false);
  /** Every pending interrupt answered: resume with these. */
  readonly answer = output<ResumeEntry[]>();

  protected readonly choices = signal<ReadonlyMap<string, Choice>>(new Map());

  protected choose(interrupt: Interrupt, choice: Choice): void {
    const next = new Map(this.choices()).set(interrupt.id, choice);
    const answers = answersOnceComplete(this.pending(), next);
    this.choices.set(answers ? new Map() : next);
    if (answers) this.answer.emit(answers);
  }
}
