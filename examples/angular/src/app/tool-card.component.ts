/** A tool call as a card: title, status chip (running until the result comes), arguments and result as fields. */
import { ChangeDetectionStrategy, Component, input } from "@angular/core";
import type { ToolCardView } from "../../../shared/toolCard";
import { ReadableComponent } from "./readable.component";

/**
 * Draws a ToolCardView (examples/shared/toolCard.ts builds it; the React page draws the same).
 *
 * @example
 * <app-tool-card [view]="card" />
 */
@Component({
  selector: "app-tool-card",
  imports: [ReadableComponent],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="tool-card" data-testid="tool-card" [attr.data-status]="view().status" [attr.data-tool]="view().name">
      <div class="tool-head">
        <span class="tool-icon" aria-hidden="true">ƒ</span>
        <span class="tool-title">{{ view().title }}</span>
        <code class="tool-name">{{ view().name }}</code>
        <span class="tool-status {{ view().status }}" data-testid="tool-status">{{ view().statusLabel }}</span>
      </div>
      <div class="tool-body">
        <span class="tool-args" data-testid="tool-args">
          <app-readable [value]="view().args" empty="no arguments" />
        </span>
        @if (view().result; as result) {
          <span class="tool-result" data-testid="tool-result">
            <span class="arrow" aria-label="result">→</span>
            <app-readable [value]="result" />
          </span>
        }
      </div>
    </div>
  `,
})
export class ToolCardComponent {
  readonly view = input.required<ToolCardView>();
}
