/** The Angular side of examples/shared/focusCard.ts: `focusCard` on a card that waits for the user moves focus to it when it appears. */
import { afterNextRender, Directive, ElementRef, inject } from "@angular/core";
import { focusCard } from "../../../shared/focusCard";

/**
 * Focuses its element once it is on screen (unless the user is writing a draft), and makes it
 * focusable from script (`tabindex="-1"`).
 *
 * @example
 * <div class="approval" role="alertdialog" focusCard>…</div>
 */
@Directive({ selector: "[focusCard]", host: { tabindex: "-1" } })
export class FocusCardDirective {
  constructor() {
    const element = inject<ElementRef<HTMLElement>>(ElementRef).nativeElement;
    afterNextRender(() => focusCard(element));
  }
}
