/** A message's text as markdown (examples/shared/markdown): one element per block, so a delta redraws only the open block; Copy on code blocks. */
import { ChangeDetectionStrategy, Component, computed, inject, input } from "@angular/core";
import { DomSanitizer, type SafeHtml } from "@angular/platform-browser";
import { copyCodeFromClick } from "../../../shared/markdown/copyCode";
import { StreamedMarkdown, type MarkdownBlock } from "../../../shared/markdown/streamedMarkdown";

/**
 * `text` rendered as sanitised markdown. The component keeps one StreamedMarkdown for its life, so
 * while the text grows the finished blocks keep their block object, and with it the same trusted
 * HTML value: Angular sees an unchanged binding and leaves their elements alone; only the open
 * block is parsed and set again. The HTML was sanitised by DOMPurify already (renderMarkdown),
 * which keeps the code blocks' Copy buttons that Angular's own sanitiser would strip.
 *
 * @example
 * <app-markdown [text]="text()" />
 */
@Component({
  selector: "app-markdown",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { style: "display: contents" },
  template: `
    <div class="markdown" data-testid="message-text" (click)="copyCode($event)">
      @for (block of blocks(); track block.key) {
        <div class="md-block" [attr.data-open]="block.open ? '' : null" [innerHTML]="trusted(block)"></div>
      }
    </div>
  `,
})
export class MarkdownComponent {
  readonly text = input.required<string>();
  private readonly sanitizer = inject(DomSanitizer);
  private readonly view = new StreamedMarkdown();
  private readonly trustedHtml = new WeakMap<MarkdownBlock, SafeHtml>();
  protected readonly blocks = computed(() => this.view.update(this.text()));

  protected trusted(block: MarkdownBlock): SafeHtml {
    let html = this.trustedHtml.get(block);
    if (html === undefined) {
      html = this.sanitizer.bypassSecurityTrustHtml(block.html);
      this.trustedHtml.set(block, html);
    }
    return html;
  }

  protected copyCode(event: Event): void {
    void copyCodeFromClick(event);
  }
}
