/** The React side of the shared FollowBottom: a ref for the pane, whether it follows, and "jump to latest". */
import { useCallback, useLayoutEffect, useRef, useState } from "react";
import { FollowBottom } from "../shared/followBottom";

/**
 * Autoscroll for a scrolling element: pass `ref` to it; `pinned` is false once the user scrolled
 * up (show a "jump to latest" button then), `jump()` scrolls to the end and follows again. Each
 * time `jumpOn` changes to a value other than `undefined` (the page passes `sentQuestion(messages)`:
 * the user sent something), it jumps too, however far up the reader was.
 *
 * @example
 * const { ref, pinned, jump } = useFollowBottom<HTMLDivElement>(sentQuestion(messages));
 * return <div ref={ref} className="pane">…</div>;
 */
export function useFollowBottom<T extends HTMLElement>(jumpOn?: string) {
  const [pinned, setPinned] = useState(true);
  const follow = useRef<FollowBottom | undefined>(undefined);
  const ref = useCallback((pane: T | null) => {
    follow.current?.dispose();
    follow.current = pane === null ? undefined : new FollowBottom(pane, setPinned);
    setPinned(true); // a new FollowBottom starts at the bottom
  }, []);
  const jump = useCallback(() => follow.current?.scrollToBottom(), []);
  // Before paint, so the sent message never shows at a scrolled-up position first.
  useLayoutEffect(() => {
    if (jumpOn !== undefined) follow.current?.scrollToBottom();
  }, [jumpOn]);
  return { ref, pinned, jump };
}
