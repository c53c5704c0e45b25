/**
 * The compacted thread as Redis keeps it (docs/durability.md, "Redis"): `ThreadSnapshot` JSON in
 * the snapshot hash with the cursor and sequence number it is folded through, read back through
 * the codec and brought up to date with the store's own `ThreadFold` (never a second fold).
 */
import { isLeft } from "../protocol/either";
import { describeFailure } from "../protocol/describeFailure";
import { isTerminal } from "../thread/isTerminal";
import { StoreError } from "../server/store/StoreError";
import { ThreadFold } from "../thread/ThreadFold";
import { ThreadSnapshot } from "../thread/ThreadSnapshot";
import { Message } from "../protocol/messages";
import type { LoggedEntry } from "./entries";

/**
 * A kept snapshot as read: its JSON, and the cursor and sequence number kept beside it (the JSON's
 * own `cursor` may be a placeholder: `beginRun` serializes before Redis names the entry), and the
 * JSON of its messages as read from their list (`messageCount` set), or none when the JSON holds
 * them (a snapshot kept before messages had a list of their own), and the JSON of its tree's forks
 * as kept apart from the body (`""` or left out: none, or the body holds them).
 *
 * @example
 * const kept: KeptSnapshot = { json: "{…}", cursor: "1718000000000-0", seq: 0, messageCount: 1, messages: ["{…}"] };
 */
export interface KeptSnapshot {
  readonly json: string;
  readonly cursor: string;
  readonly seq: number;
  readonly messageCount: number | undefined;
  readonly messages: readonly string[];
  readonly tree?: string;
}

/**
 * The kept snapshot decoded with the `ThreadSnapshot` codec and its cursor set; JSON that is not a
 * ThreadSnapshot is StoreError `unavailable` (the key was written by something else).
 *
 * @example
 * decodeSnapshot({ json, cursor: "1718000000000-0", seq: 0, messageCount: 0, messages: [] }, "t1").run.status; // "running"
 */
export function decodeSnapshot(kept: KeptSnapshot, threadId: string): ThreadSnapshot {
  let parsed: unknown;
  let messages: unknown[] | undefined;
  let forks: unknown;
  try {
    parsed = JSON.parse(kept.json);
    if (kept.messageCount !== undefined) messages = kept.messages.map((json): unknown => JSON.parse(json));
    if (kept.tree !== undefined && kept.tree !== "") forks = JSON.parse(kept.tree);
  } catch (error) {
    throw corrupt(threadId, `JSON that does not parse (${error instanceof Error ? error.message : String(error)})`, error);
  }
  const restored = { cursor: kept.cursor, ...(messages === undefined ? {} : { messages }), ...withForks(parsed, forks) };
  const decoded = ThreadSnapshot.decode(typeof parsed === "object" && parsed !== null ? { ...parsed, ...restored } : parsed);
  if (isLeft(decoded)) {
    const failure = describeFailure(decoded.left);
    throw corrupt(threadId, `no ThreadSnapshot (at "${failure.path}": ${failure.expected}, but got ${JSON.stringify(failure.actual) ?? "nothing"})`, undefined);
  }
  return decoded.right;
}

/**
 * Messages kept in a thread's message list, decoded with the `Message` codec; JSON that is not a
 * message is StoreError `unavailable` (the key was written by something else).
 *
 * @example
 * decodeMessages(['{"id":"m1","role":"user","content":"Hi"}'], "t1"); // [{ id: "m1", role: "user", content: "Hi" }]
 */
export function decodeMessages(jsons: readonly string[], threadId: string): Message[] {
  return jsons.map((json) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (error) {
      throw corrupt(threadId, `a message whose JSON does not parse (${error instanceof Error ? error.message : String(error)})`, error);
    }
    const decoded = Message.decode(parsed);
    if (isLeft(decoded)) {
      const failure = describeFailure(decoded.left);
      throw corrupt(threadId, `no Message (at "${failure.path}": ${failure.expected}, but got ${JSON.stringify(failure.actual) ?? "nothing"})`, undefined);
    }
    return decoded.right;
  });
}

/**
 * What a thread looks like after `entries`, logged after the snapshot, in order: the snapshot's
 * fold continued (`ThreadFold.restore`), with whether a run ended among them (then the result is
 * worth keeping: nobody compacted that run's end).
 *
 * @example
 * const { fold, endedRun } = foldAfter(snapshot, entries);
 * fold.snapshot()?.cursor; // the last entry's cursor
 */
export function foldAfter(snapshot: ThreadSnapshot, entries: readonly LoggedEntry[]): { fold: ThreadFold; endedRun: boolean } {
  const fold = ThreadFold.restore(snapshot);
  let endedRun = false;
  for (const entry of entries) {
    fold.apply(entry.event, entry.cursor);
    if (isTerminal(entry.event)) endedRun = true;
  }
  return { fold, endedRun };
}

/**
 * Whether `entries` follow sequence number `seq` without a gap (none was trimmed between).
 *
 * @example
 * followsWithoutGap(4, [{ seq: 5 }, { seq: 6 }]); // true
 */
export function followsWithoutGap(seq: number, entries: readonly Pick<LoggedEntry, "seq">[]): boolean {
  for (let i = 0; i < entries.length; i++) if (entries[i].seq !== seq + 1 + i) return false;
  return true;
}

/** The body's `branches` with the forks kept apart put back (`{}` when there are none to put back). */
function withForks(parsed: unknown, forks: unknown): { branches?: unknown } {
  if (forks === undefined || typeof parsed !== "object" || parsed === null || !("branches" in parsed)) return {};
  const { branches } = parsed;
  return typeof branches === "object" && branches !== null ? { branches: { ...branches, forks } } : {};
}

function corrupt(threadId: string, what: string, cause: unknown): StoreError {
  return new StoreError("unavailable", `expected the snapshot kept for thread "${threadId}" to be a compacted thread, but it holds ${what}`, {
    threadId,
    ...(cause === undefined ? {} : { cause }),
  });
}
