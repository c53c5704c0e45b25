/** The row under a question or an answer: Edit, or Copy and Regenerate, and the ‹ 2 / 3 › arrows of its versions (docs/threads.md#edit-and-regenerate), as on the React page. */
import { ChangeDetectionStrategy, Component, computed, input, linkedSignal, output, signal } from "@angular/core";
import { ClientError } from "agui-rx/client";
import { groupMessageId, versionLabel, type TurnControls } from "../../../shared/turnControls";
import { injectAgent } from "agui-rx/angular";
import { BOARD } from "./task-board";

/**
 * One question's or answer's controls, over the page's agent (BOARD). The arrows are off while
 * their switch is on its way, and a refused switch (a run started meanwhile in another tab) says
 * why beside them. Copy writes the answer's text to the clipboard and says "Copied" until the
 * answer changes; a clipboard the browser refuses says "Copy failed". Edit only asks the list to
 * show the question's editor.
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
          <button
            type="button"
            class="version-step"
            aria-label="Previous version"
            [disabled]="disabled() || switching() || !label.hasPrevious"
            (click)="step(-1)"
          >
            ‹
          </button>
          <span class="version-count" data-testid="version-count">{{ label.text }}</span>
          <button type="button" class="version-step" aria-label="Next version" [disabled]="disabled() || switching() || !label.hasNext" (click)="step(1)">
            ›
          </button>
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
      @if (refused(); as reason) {
        <span class="turn-error" data-testid="turn-error" role="alert">{{ reason }}</span>
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
  /** The group's versions as a signal, made again only when the group does. */
  private readonly branchesOfGroup = computed(() => this.agent.branches(this.groupId()));
  private readonly branches = computed(() => this.branchesOfGroup()());
  protected readonly versions = computed(() => versionLabel(this.branches()));
  /** "Copied" holds for the text that was copied: a changed answer can be copied again. */
  protected readonly copied = linkedSignal<string, "copied" | "failed" | undefined>({ source: () => this.controls().text, computation: () => undefined });

  protected readonly switching = signal(false);
  protected readonly refused = signal<string | undefined>(undefined);

  protected step(by: number): void {
    this.switching.set(true);
    this.refused.set(undefined);
    this.agent.selectBranch(this.groupId(), this.branches().index + by).then(
      () => this.switching.set(false),
      (error: unknown) => {
        this.switching.set(false);
        this.refused.set(ClientError.from(error).message);
      },
    );
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
