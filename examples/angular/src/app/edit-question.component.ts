/** A question being edited in place: its text in a box, with Save and Cancel (docs/threads.md#edit-and-regenerate), as on the React page. */
import { afterNextRender, ChangeDetectionStrategy, Component, computed, ElementRef, input, output, signal, viewChild, type OnInit } from "@angular/core";

/**
 * Enter saves, Shift+Enter breaks the line, Escape cancels. Save is off while the box is blank or
 * says what the question already says (an edit that changes nothing would only repeat the run),
 * and while `disabled`.
 *
 * @example
 * <app-edit-question [text]="controls.text" (save)="agent.edit(id, $event)" (cancel)="editing.set(undefined)" />
 */
@Component({
  selector: "app-edit-question",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    <form class="edit-question" data-testid="edit-question" (submit)="submit($event)">
      <textarea #box aria-label="Edit message" rows="2" [value]="draft()" (input)="draft.set(box.value)" (keydown)="onKeyDown($event)"></textarea>
      <div class="edit-actions">
        <button type="button" class="edit-cancel" (click)="cancel.emit()">Cancel</button>
        <button type="submit" class="edit-save" [disabled]="!canSave()">Save</button>
      </div>
    </form>
  `,
})
export class EditQuestionComponent implements OnInit {
  /** The question's text as sent. */
  readonly text = input.required<string>();
  /** Save is off (a run is active). */
  readonly disabled = input(false);
  /** The edited text: the page runs the agent on it, as a new version beside the old one. */
  readonly save = output<string>();
  readonly cancel = output<void>();

  protected readonly draft = signal("");
  protected readonly canSave = computed(() => !this.disabled() && this.draft().trim() !== "" && this.draft().trim() !== this.text().trim());
  private readonly box = viewChild.required<ElementRef<HTMLTextAreaElement>>("box");

  constructor() {
    // The box takes the focus when it opens (an `autofocus` attribute counts only on page load).
    afterNextRender(() => this.box().nativeElement.focus());
  }

  ngOnInit(): void {
    this.draft.set(this.text());
  }

  protected onKeyDown(event: KeyboardEvent): void {
    if (event.key === "Escape") this.cancel.emit();
    else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit();
    }
  }

  protected submit(event?: Event): void {
    event?.preventDefault();
    if (this.canSave()) this.save.emit(this.draft().trim());
  }
}
