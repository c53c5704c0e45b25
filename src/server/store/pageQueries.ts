/**
 * The page arguments of `ThreadStore.list`, `read` and `history` (docs/threads.md#in-the-store): a
 * limit must be a positive integer, and a list cursor is the position (`updatedAt`, `threadId`) of
 * the last row of the page before, spelled `<updatedAt>:<threadId>`. Both stores read them the
 * same way, so a cursor reads alike on either.
 */

/**
 * A place in an owner's list, most recently updated first and ties by thread id: a page after it
 * starts with the first row that sorts after it.
 *
 * @example
 * const position: ListPosition = { updatedAt: 1718000000000, threadId: "t1" };
 */
export interface ListPosition {
  readonly updatedAt: number;
  readonly threadId: string;
}

/**
 * The cursor of the page that follows `position` (a page's last row).
 *
 * @example
 * encodeListCursor({ updatedAt: 1718000000000, threadId: "t1" }); // "1718000000000:t1"
 */
export function encodeListCursor(position: ListPosition): string {
  return `${position.updatedAt}:${position.threadId}`;
}

/**
 * The position a cursor from `encodeListCursor` names; a RangeError naming what was wrong for any
 * other string (a client's cursor is data: it is never trusted to be one of ours).
 *
 * @example
 * decodeListCursor("1718000000000:t1"); // { updatedAt: 1718000000000, threadId: "t1" }
 * decodeListCursor("page-2");           // throws RangeError: expected a list cursor "<updatedAt>:<threadId>" …
 */
export function decodeListCursor(cursor: string): ListPosition {
  const colon = cursor.indexOf(":");
  const time = colon < 0 ? "" : cursor.slice(0, colon);
  const updatedAt = Number(time);
  // The time must read back as itself, so that one position has one spelling (no "01", "1e3", " 1").
  if (time === "" || !Number.isFinite(updatedAt) || String(updatedAt) !== time) {
    throw new RangeError(`expected a list cursor "<updatedAt>:<threadId>" from an earlier page's next, but got ${JSON.stringify(cursor.slice(0, 80))}`);
  }
  return { updatedAt, threadId: cursor.slice(colon + 1) };
}

/**
 * `limit` if it is a positive integer; else a RangeError naming the operation and the value.
 *
 * @example
 * checkPageLimit("list", 20); // 20
 * checkPageLimit("history", 0); // throws RangeError: history: expected limit to be a positive integer, but got 0
 */
export function checkPageLimit(operation: string, limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`${operation}: expected limit to be a positive integer, but got ${String(limit)}`);
  return limit;
}
