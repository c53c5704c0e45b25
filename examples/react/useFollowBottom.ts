/** The React side of the shared FollowBottom: a ref for the pane, whether it follows, and "jump to latest". */
import { useCallback, useRef, useState } from "react";
import { FollowBottom } from "../shared/followBottom";

/**
 * Autoscroll for a scrolling element: pass `ref` to it; `pinned` is false once the user scrolled
 * up (show a "jump to latest" button then), `jump()` scrolls to the end and follows again.
 *
 * @example
 * const { ref, pinned, jump } = useFollowBottom<HTMLDivElement>();
 * return <div ref={ref} className="pane">…</div>;
 */
export function useFollowBottom<T extends HTMLElement>() {
  const [pinned, setPinned] = useState(true);
  const follow = useRef<FollowBottom | undefined>(undefined);
  const ref = useCallback((pane: T | null) => {
    follow.current?.dispose();
    follow.current = pane === null ? undefined : new FollowBottom(pane, setPinned);
    setPinned(true); // a new FollowBottom starts at the bottom
  }, []);
  const jump = useCallback(() => follow.current?.scrollToBottom(), []);
  return { ref, pinned, jump };
}
