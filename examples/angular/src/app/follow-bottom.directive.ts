/** The Angular side of the shared FollowBottom: `followBottom` on the scrolling pane, `pinned` as a signal. */
import { Directive, ElementRef, effect, inject, input, signal, untracked, type OnDestroy } from "@angular/core";
import { FollowBottom } from "../../../shared/followBottom";

/**
 * Autoscroll for the element it sits on: follows new content while the user is at the bottom,
 * stays put once they scroll up. `pinned()` says which; `jump()` goes to the end and follows again,
 * as does every change of `jumpOn` to an id (the list binds `sentQuestion(messages)`: the user sent
 * something, so the reply is what they want to see).
 *
 * @example
 * <div class="pane" followBottom #follow="followBottom" [jumpOn]="sent()">…</div>
 * @if (!follow.pinned()) { <button (click)="follow.jump()">Jump to latest</button> }
 */
@Directive({ selector: "[followBottom]", exportAs: "followBottom", host: { "[attr.data-pinned]": "pinned()" } })
export class FollowBottomDirective implements OnDestroy {
  private readonly pinnedSignal = signal(true);
  /** Whether the pane follows new content. */
  readonly pinned = this.pinnedSignal.asReadonly();
  private readonly follow = new FollowBottom(inject<ElementRef<HTMLElement>>(ElementRef).nativeElement, (pinned) => this.pinnedSignal.set(pinned));
  /** Jumps to the bottom whenever it changes to an id. */
  readonly jumpOn = input<string | undefined>(undefined);

  constructor() {
    effect(() => {
      if (this.jumpOn() !== undefined) untracked(() => this.follow.scrollToBottom());
    });
  }

  /** Scrolls to the end and follows from there on. */
  jump(): void {
    this.follow.scrollToBottom();
  }

  ngOnDestroy(): void {
    this.follow.dispose();
  }
}
