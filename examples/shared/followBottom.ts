/** Autoscroll for a message pane: stays at the bottom as messages grow, lets go when the user scrolls up. */

/** How close to the bottom (in CSS pixels) still counts as "at the bottom". */
export const BOTTOM_SLACK_PX = 24;

/** The three numbers that say where a scroll container stands. */
export interface ScrollMetrics {
  readonly scrollTop: number;
  readonly scrollHeight: number;
  readonly clientHeight: number;
}

/**
 * Whether the pane shows its end (within `slack` pixels, so sub-pixel rounding and a last line
 * still being laid out do not count as "scrolled up").
 *
 * @example
 * isAtBottom({ scrollTop: 580, scrollHeight: 1000, clientHeight: 400 }) // true
 */
export function isAtBottom(metrics: ScrollMetrics, slack = BOTTOM_SLACK_PX): boolean {
  return metrics.scrollHeight - metrics.scrollTop - metrics.clientHeight <= slack;
}

/** Keys that scroll a focused pane up. */
const UP_KEYS = new Set(["ArrowUp", "PageUp", "Home"]);

/**
 * Follows the bottom of `pane` while it is pinned there: whenever the content changes (a message
 * arrives, streamed text grows, a card changes size) the pane scrolls to its end. Scrolling up
 * unpins it, and nothing moves under the reader until they scroll back to the bottom (or call
 * {@link FollowBottom.scrollToBottom}, the "jump to latest" button), which pins it again.
 *
 * Intent counts before position: a wheel turn or key press upwards unpins at once, because the
 * scroll position it leads to arrives a frame later, and a change in between must not pull the
 * reader back down. Framework-free: the React page drives it from a hook, the Angular page from a
 * directive.
 *
 * @example
 * const follow = new FollowBottom(pane, (pinned) => (jumpButton.hidden = pinned));
 * // on teardown:
 * follow.dispose();
 */
export class FollowBottom {
  private pinnedNow = true;
  private readonly mutations: MutationObserver;
  private readonly resizes: ResizeObserver | undefined;

  constructor(
    private readonly pane: HTMLElement,
    private readonly onPinnedChange: (pinned: boolean) => void = () => undefined,
  ) {
    pane.addEventListener("scroll", this.onScroll, { passive: true });
    pane.addEventListener("wheel", this.onWheel, { passive: true });
    pane.addEventListener("keydown", this.onKey);
    this.mutations = new MutationObserver(this.follow);
    this.mutations.observe(pane, { childList: true, subtree: true, characterData: true });
    // The pane shrinks when the dock under it grows (an approval card appears): keep the end in view.
    this.resizes = typeof ResizeObserver === "function" ? new ResizeObserver(this.follow) : undefined;
    this.resizes?.observe(pane);
    this.scrollToBottom();
  }

  /** Whether the pane follows new content. */
  get pinned(): boolean {
    return this.pinnedNow;
  }

  /** Scrolls to the end and follows from there on. */
  scrollToBottom(): void {
    this.pane.scrollTop = this.pane.scrollHeight;
    this.setPinned(true);
  }

  /** Removes the listeners and observers. */
  dispose(): void {
    this.pane.removeEventListener("scroll", this.onScroll);
    this.pane.removeEventListener("wheel", this.onWheel);
    this.pane.removeEventListener("keydown", this.onKey);
    this.mutations.disconnect();
    this.resizes?.disconnect();
  }

  private readonly follow = (): void => {
    if (this.pinnedNow) this.pane.scrollTop = this.pane.scrollHeight;
  };

  private readonly onScroll = (): void => {
    this.setPinned(isAtBottom(this.pane));
  };

  // Only when there is somewhere to go: a pane that cannot scroll up fires no scroll event that
  // would pin it again.
  private readonly onWheel = (event: WheelEvent): void => {
    if (event.deltaY < 0 && this.pane.scrollTop > 0) this.setPinned(false);
  };

  private readonly onKey = (event: KeyboardEvent): void => {
    if (UP_KEYS.has(event.key) && this.pane.scrollTop > 0) this.setPinned(false);
  };

  private setPinned(pinned: boolean): void {
    if (pinned === this.pinnedNow) return;
    this.pinnedNow = pinned;
    this.onPinnedChange(pinned);
  }
}

/**
 * What the pane goes to the bottom on: the id of the conversation's last message when that is the
 * user's (a question just sent, queued, steered or edited lands at the end), else `undefined`.
 * A page passes it to its FollowBottom driver (useFollowBottom, the followBottom directive), which
 * jumps to the bottom and follows again whenever it changes to an id, even if the reader had
 * scrolled up: the reply to what they sent is what they want to see. Switching to another version
 * of an earlier answer leaves an answer last, so it does not move the pane.
 *
 * @example
 * const { ref, pinned, jump } = useFollowBottom<HTMLDivElement>(sentQuestion(messages));
 */
export function sentQuestion(messages: readonly { readonly id: string; readonly role: string }[]): string | undefined {
  const last = messages.at(-1);
  return last?.role === "user" ? last.id : undefined;
}
