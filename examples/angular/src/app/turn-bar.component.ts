/** The row under a question or an answer: Edit, or Copy and Regenerate, and the ‹ 2 / 3 › arrows of its versions (docs/threads.md#edit-and-regenerate), as on the React page. */
import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output } from "@angular/core";
import { groupMessageId, versionLabel, type TurnControls } from "../../../shared/turnControls";
import { injectAgent } from "agui-rx/angular";
import { BOARD } from "./task-board";

/**
 * One question's or answer's controls, over the page's agent (BOARD). Copy writes the answer's
 * text to the clipboard and says "Copied" until the answer changes; a clipboard the browser
 * refuses says "Copy failed". Edit only asks the list to show the question's editor.
 *
 * @example
 * <app-turn-bar [controls]="controls" [disabled]="running()" (startEdit)="editing.set($event)" />
 */
@Component({
  selector: "app-turn-bar",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    @let own = controls();
    <div
      class="turn-bar {{ own.kind }}"
      [attr.data-testid]="own.kind + '-bar'"
      role="group"
      [attr.aria-label]="own.kind === 'question' ? 'Question actions' : 'Answer actions'"
    >
      @if (versions(); as label) {
        <span class="versions" data-testid="versions">
          <button type="button" class="version-step" aria-label="Previous version" [disabled]="disabled() || !label.hasPrevious" (click)="step(-1)">‹</button>
          <span class="version-count" data-testid="version-count">{{ label.text }}</span>
          <button type="button" class="version-step" aria-label="Next version" [disabled]="disabled() || !label.hasNext" (click)="step(1)">›</button>
        </span>
      }
      @if (own.kind === "question") {
        <button type="button" class="turn-action" [disabled]="disabled()" (click)="startEdit.emit(own.messageId)">Edit</button>
      } @else {
        <button type="button" class="turn-action" [attr.data-copied]="copied() ?? ''" [disabled]="own.text === ''" (click)="copy(own.text)">
          {{ copied() === "copied" ? "Copied" : copied() === "failed" ? "Copy failed" : "Copy" }}
        </button>
        <button type="button" class="turn-action" [disabled]="disabled()" (click)="regenerate(own.questionId)">Regenerate</button>
      }
    </div>
  `,
})
export class TurnBarComponent {
  readonly controls = input.required<TurnControls>();
  /** Edit, Regenerate and the arrows are off (a run is active; versions switch between runs). */
  readonly disabled = input(false);
  /** Edit was pressed on this question: the list shows its editor in its place. */
  readonly startEdit = output<string>();

  private readonly agent = injectAgent(BOARD);
  private readonly groupId = computed(() => groupMessageId(this.controls()));
  private readonly branches = computed(() => this.agent.branches(this.groupId())());
  protected readonly versions = computed(() => versionLabel(this.branches()));
  /** "Copied" holds for the text that was copied: a changed answer can be copied again. */
  protected readonly copied = linkedSignal<string, "copied" | "failed" | undefined>({ source: () => this.controls().text, computation: () => undefined });

  protected step(by: number): void {
    const branches = this.branches();
    if (branches !== undefined) this.agent.selectBranch(this.groupId(), branches.index + by);
  }

  protected regenerate(questionId: string): void {
    this.agent.regenerate(questionId);
  }

  protected copy(text: string): void {
    navigator.clipboard.writeText(text).then(
      () => this.copied.set("copied"),
      () => this.copied.set("failed"),
    );
  }
}
