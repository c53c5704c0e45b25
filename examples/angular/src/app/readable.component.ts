/** A Readable (examples/shared/readableJson.ts) drawn: fields as a definition list, a value as text, streaming JSON as it is. */
import { ChangeDetectionStrategy, Component, computed, input } from "@angular/core";
import type { Readable } from "../../../shared/readableJson";

/**
 * @example
 * <app-readable [value]="view().args" empty="no arguments" />
 */
@Component({
  selector: "app-readable",
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (fields(); as fields) {
      <dl class="fields">
        @for (field of fields; track field.key) {
          <div>
            <dt>{{ field.label }}</dt>
            <dd>{{ field.value }}</dd>
          </div>
        }
      </dl>
    } @else if (text(); as text) {
      <span [class]="value().kind === 'partial' ? 'readable-partial' : 'readable-text'">{{ text }}</span>
    } @else {
      <span class="readable-empty">{{ empty() }}</span>
    }
  `,
})
export class ReadableComponent {
  readonly value = input.required<Readable>();
  /** What to say when there is nothing to show. */
  readonly empty = input("nothing");
  protected readonly fields = computed(() => {
    const value = this.value();
    return value.kind === "fields" ? value.fields : undefined;
  });
  protected readonly text = computed(() => {
    const value = this.value();
    return value.kind === "text" || value.kind === "partial" ? value.text : undefined;
  });
}
