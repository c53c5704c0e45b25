/**
 * What a branch switch reads on Redis (docs/threads.md#redis-keys): only the path from a little before
 * the switched group on, so that a switch costs what lies past its fork, never the thread's length.
 * The messages before the window are stood in for by placeholders that keep every position where
 * the fold's tree expects it; the write sends nothing before the group, so no placeholder is kept.
 */
import type { Message } from "../protocol/messages";
import type { ThreadFold } from "../thread/ThreadFold";
import type { PathView } from "../thread/branches/groupAfter";
import type { ThreadSnapshot } from "../thread/ThreadSnapshot";
import type { ThreadKeys } from "./keys";
import type { RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import type { KeptMessages } from "./snapshotWrites";
import type { Loaded, ThreadLoader } from "./ThreadLoader";
import { foldAfter } from "./snapshots";
import { windowGroups } from "./windowFold";

/** The path's last messages a switch reads first: enough for a switch among the last answers, which is what a page's arrows do. */
const RECENT = 128;

/** Messages read before a switched message further back, to find the user message its group answers; grown fourfold while that is not enough. */
const LOOKBACK = 64;

/**
 * A thread read for a switch: `loaded` as the loader read it and, when only a window was read, the
 * fold over it (`fold`, with placeholders before `offset`) and the messages that write builds on
 * (`base`). Without `fold` (a whole read), fold `loaded` as every read does.
 *
 * @example
 * const read = await readForSwitch(loader, port, calls, thread, "a7");
 */
export interface SwitchRead {
  readonly loaded: Loaded;
  readonly window?: { readonly fold: ThreadFold; readonly offset: number; readonly base: KeptMessages };
}

/**
 * Reads `thread` for a switch of the group of `messageId`: the path's last `RECENT` messages, which
 * hold a recent message and the user message its group answers; for a message further back, its
 * position (the `ids` index) and the path's length, then the path from some way before that
 * position. The entries after the kept snapshot (a run nobody compacted yet) fold into the window
 * as the loader allows. A message the index does not know, or a thread that moved between the
 * reads: the whole thread instead.
 *
 * @example
 * const { loaded, window } = await readForSwitch(loader, port, calls, { threadId, ref, keys }, "a7");
 */
export async function readForSwitch(
  loader: ThreadLoader,
  port: RedisConnection,
  calls: RedisCalls,
  thread: { readonly threadId: string; readonly ref: string; readonly keys: ThreadKeys },
  messageId: string,
): Promise<SwitchRead> {
  const { threadId, ref, keys } = thread;
  // The usual switch is of a recent answer: the path's last messages hold it, in one read.
  const recent = await loader.load(ref, keys, undefined, RECENT);
  if (recent.kind !== "snapshot") return { loaded: recent };
  const offset = recent.messageCount - recent.snapshot.messages.length;
  if (offset === 0) return { loaded: recent }; // it read the whole path
  const near = windowed(recent, offset, messageId);
  if (near !== undefined) return near;
  // Further back: its position from the index, then the path from a little before it.
  const [position, length] = await Promise.all([
    calls.command(port, ["HGET", keys.ids, messageId], "HGET", { threadId }),
    calls.command(port, ["LLEN", keys.messages], "LLEN", { threadId }),
  ]);
  const at = typeof position === "string" ? Number(position) : NaN;
  const count = typeof length === "number" ? length : NaN;
  let lookback = LOOKBACK;
  while (Number.isInteger(at) && Number.isInteger(count) && at < count && count - at + lookback < count) {
    const loaded = await loader.load(ref, keys, undefined, count - at + lookback);
    if (loaded.kind !== "snapshot" || loaded.messageCount !== count) break;
    const start = count - loaded.snapshot.messages.length;
    if (start === 0) return { loaded };
    if (loaded.snapshot.messages[at - start]?.id !== messageId) break;
    const read = windowed(loaded, start, messageId);
    if (read !== undefined) return read;
    lookback *= 4;
  }
  return { loaded: await loader.load(ref, keys, undefined) };
}

/**
 * The fold over a window of the kept path that starts at `offset` (placeholders before it), with
 * the entries after the kept snapshot folded in (the loader read a window only where they fold
 * into it as into the whole path); `undefined` when the folded window does not hold `messageId`
 * and the user message its group answers.
 */
function windowed(loaded: Loaded & { readonly kind: "snapshot" }, offset: number, messageId: string): SwitchRead | undefined {
  const padded = [...placeholders(offset), ...loaded.snapshot.messages];
  const { fold } = foldAfter({ ...loaded.snapshot, messages: padded }, loaded.entries);
  const path = fold.path; // read in place: no copy of the padded path
  const found = path.indexOf(messageId);
  if (found < offset || !answersInWindow(path, found, offset)) return undefined;
  const keptSeq = loaded.entries.length === 0 ? loaded.lastSeq : loaded.entries[0].seq - 1;
  return { loaded, window: { fold, offset, base: { seq: keptSeq, messages: padded } } };
}

/**
 * The snapshot a windowed switch keeps: the fold's (placeholders and all: the write sends only
 * what follows the group), with the groups before the window named as the kept snapshot named them.
 *
 * @example
 * const snapshot = switchedSnapshot(fold.snapshot(), loaded.snapshot, offset);
 */
export function switchedSnapshot(folded: ThreadSnapshot, kept: ThreadSnapshot, offset: number): ThreadSnapshot {
  const named = windowGroups({ ...folded, messages: folded.messages.slice(offset) }, kept, offset);
  return named.branches === undefined ? folded : { ...folded, branches: named.branches };
}

/** Whether the window (the path from `offset` on) holds what the group of the message at `index` is found by: the message before a user message, or the user message before any other. */
function answersInWindow(path: PathView, index: number, offset: number): boolean {
  if (path.at(index).role === "user") return index > offset;
  for (let i = index - 1; i >= offset; i--) if (path.at(i).role === "user") return true;
  return false;
}

/**
 * The stand-in for every path message before the window: one message, never a user message, with
 * an id no message has. One object with one id keeps the fold's restore at a few nanoseconds per
 * stand-in (its index notes an id once); nothing reads a stand-in but its position.
 */
const PLACEHOLDER: Message = Object.freeze({ id: "\u0000before-the-window", role: "developer", content: "" });

/** `count` stand-ins for the path messages before the window. */
function placeholders(count: number): Message[] {
  return new Array<Message>(count).fill(PLACEHOLDER);
}
