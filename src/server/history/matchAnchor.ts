/** The anchor rule (docs/threads.md#the-anchor-rule): where a posted history meets the stored path, and whether what it repeats of it is the stored path. */
import type { Message } from "../../protocol/messages";
import type { HistoryRefusal } from "./HistoryRefusal";
import { sameMessage } from "./sameMessage";

/**
 * Where a post meets the path: `after` is the posted messages after the anchor (each one the store
 * has not got), `anchorIndex` the anchor's index in the path (`path.length - 1` when the post
 * holds no stored message: it anchors at the end).
 *
 * @example
 * const { after, anchorIndex } = anchored;
 */
export interface Anchored {
  readonly kind: "anchored";
  readonly anchorIndex: number;
  readonly after: readonly Message[];
}

/**
 * Reads `posted` (activity messages already left out) against the stored `path`. The anchor is
 * the last posted message the path has (by id). Before and at it, every posted message must be a
 * message of the path, in the path's order (the post may omit any: they are filled in), equal to
 * the stored one canonically (`sameMessage`). After the anchor, the path may hold nothing but
 * messages clients never post (activity): otherwise the post diverges from the stored path there.
 * Any of these broken is a `history-conflict` naming the posted message (or, when the post ends
 * at its anchor, the anchor). Cost: one pass over the post, and over the path once for its ids.
 *
 * @example
 * matchAnchor([u1, a1], [a1, u2]); // { kind: "anchored", anchorIndex: 1, after: [u2] }
 */
export function matchAnchor(path: readonly Message[], posted: readonly Message[]): Anchored | HistoryRefusal {
  const indexOf = new Map<string, number>();
  path.forEach((message, index) => indexOf.set(message.id, index));
  let anchorAt = -1;
  for (let k = posted.length - 1; k >= 0 && anchorAt < 0; k--) if (indexOf.has(posted[k].id)) anchorAt = k;

  let last = -1;
  for (let k = 0; k <= anchorAt; k++) {
    const message = posted[k];
    const index = indexOf.get(message.id);
    if (index === undefined) {
      return conflict(
        message.id,
        `expected only messages of the stored thread before ${quote(posted[anchorAt].id)}, but ${quote(message.id)} is not one of them`,
      );
    }
    if (index <= last) {
      return conflict(
        message.id,
        `expected the stored messages in the thread's order, but ${quote(message.id)} comes after ${quote(path[last].id)} in the post and before it in the thread`,
      );
    }
    const field = sameMessage(message, path[index]);
    if (field !== undefined) {
      return conflict(message.id, `expected message ${quote(message.id)} as the thread stores it, but its ${field} differs`);
    }
    last = index;
  }

  const anchorIndex = anchorAt < 0 ? path.length - 1 : last;
  const after = posted.slice(anchorAt + 1);
  const moved = path.slice(anchorIndex + 1).find((message) => message.role !== "activity");
  if (moved !== undefined) {
    const at = after[0]?.id ?? posted[anchorAt].id;
    return conflict(
      at,
      `expected the post to continue the thread where it ends, but the thread goes on after ${quote(path[anchorIndex].id)} with ${quote(moved.id)}, which the post leaves out`,
    );
  }
  return { kind: "anchored", anchorIndex, after };
}

function conflict(messageId: string, message: string): HistoryRefusal {
  return { error: "history-conflict", message, messageId };
}

function quote(id: string): string {
  return JSON.stringify(id);
}
