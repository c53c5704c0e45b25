/** Where one message stands among its siblings, for a "‹ 2 / 3 ›" switcher (docs/client.md#branches). */
import { useMemo, useRef } from "react";
import type { BranchInfo, Session } from "../client/Session";
import { sessionTicks } from "../client/view/sessionTicks";
import { sameBranchInfo } from "../client/branches/BranchGroups";
import { useObserved } from "./useObserved";

/**
 * `session.branches(messageId)`, re-rendering after the path or its groups change (at most once
 * per frame, see `useSession`'s `frame`). The value keeps its identity while its index, count and
 * sibling ids stay the same, so a memoized switcher re-renders only when it moved. Switch with
 * `session.selectBranch(messageId, index)`.
 *
 * @example
 * const { index, count } = useBranches(session, message.id);
 * return count > 1 ? <button onClick={() => void session.selectBranch(message.id, index - 1)} disabled={index === 0}>‹</button> : null;
 */
export function useBranches<S>(session: Session<S>, messageId: string): BranchInfo {
  const ticks = sessionTicks(session);
  const messages = useObserved(ticks, () => session.messages);
  const groups = useObserved(ticks, () => session.branchGroups);
  const last = useRef<BranchInfo | undefined>(undefined);
  return useMemo(() => {
    void groups; // read again when the groups change (session.branches reads them)
    const info = session.branches(messageId);
    const kept = last.current !== undefined && sameBranchInfo(last.current, info) ? last.current : info;
    last.current = kept;
    return kept;
  }, [session, messages, groups, messageId]);
}
