/**
 * Writing the compacted thread to Redis (docs/threads.md#redis-keys): the snapshot's body without
 * its messages, and its messages as a list of their own, so that a read with a limit takes the last
 * N alone and a write sends only the messages from the first one that changed since the kept
 * snapshot it builds on (the fold keeps unchanged messages' identity, so "changed" is a reference
 * comparison, not a deep one). A path that got shorter, or different past a fork (docs/threads.md#the-tree),
 * also names the `ids` fields of the kept messages it no longer holds, so the index forgets them.
 * The tree's forks (with every frozen sibling's messages) are kept apart from the body, in the
 * `tree` field, and sent only when they changed (the fold replaces them only at a fork or a
 * switch, so "changed" is a reference comparison too): a turn after an edit near the start of a
 * long thread does not send the thread's old branch again.
 */
import type { Message } from "../protocol/messages";
import { StoreError } from "../server/store/StoreError";
import type { ThreadSnapshot } from "../thread/ThreadSnapshot";
import type { BranchTree } from "../thread/branches/BranchTree";

/**
 * The kept snapshot a writer builds on: its sequence number, its messages and its tree's forks
 * (`undefined`: none), as read or as last written (`keptOf`).
 *
 * @example
 * const base: KeptMessages = { seq: 41, messages: snapshot.messages, forks: snapshot.branches?.forks };
 */
export interface KeptMessages {
  readonly seq: number;
  readonly messages: readonly Message[];
  readonly forks?: BranchTree["forks"];
}

/**
 * What a write of `snapshot` at sequence number `seq` leaves kept, for the next write to build on.
 *
 * @example
 * const base = keptOf(41, snapshot); // { seq: 41, messages: snapshot.messages, forks: snapshot.branches?.forks }
 */
export function keptOf(seq: number, snapshot: ThreadSnapshot): KeptMessages {
  return { seq, messages: snapshot.messages, forks: snapshot.branches?.forks };
}

/**
 * One snapshot to keep: `base` is the sequence number of the kept snapshot the write builds on
 * (`""`: none, every message is sent), `from` the index of the first message sent, `messages`
 * pairs of message id and JSON from there on, and `dropped` the `ids` fields (message ids, `tc:`
 * and a tool call id) of kept messages from `from` on that the snapshot no longer holds (left
 * out when none). `tree` is the forks' JSON, `"="` when they are the kept ones (only over a
 * base), or `""` when the thread has none.
 *
 * @example
 * const write: SnapshotWrite = { base: "41", cursor: "1718000000000-9", seq: 49, body: "{…}", count: 12, from: 11, messages: ["a9", "{…}"] };
 */
export interface SnapshotWrite {
  readonly base: string;
  readonly cursor: string;
  readonly seq: number;
  readonly body: string;
  readonly count: number;
  readonly from: number;
  readonly tree: string;
  readonly messages: readonly string[];
  readonly dropped?: readonly string[];
}

/**
 * The write of `snapshot` (folded through `cursor`, sequence number `seq`) over the kept `base`.
 * Rejects JSON that does not serialize with StoreError `invalid-append`.
 *
 * @example
 * const write = snapshotWrite(fold.snapshot(), cursor, seq, { seq: 41, messages: kept }, threadId);
 */
export function snapshotWrite(snapshot: ThreadSnapshot, cursor: string, seq: number, base: KeptMessages | undefined, threadId: string): SnapshotWrite {
  const from = base === undefined ? 0 : firstChange(base.messages, snapshot.messages);
  try {
    const messages: string[] = [];
    for (let i = from; i < snapshot.messages.length; i++) messages.push(snapshot.messages[i].id, JSON.stringify(snapshot.messages[i]));
    const dropped = base === undefined || from === 0 ? [] : droppedFields(base.messages, snapshot.messages, from);
    const { branches } = snapshot;
    const tree = branches === undefined ? "" : base !== undefined && base.forks === branches.forks ? "=" : JSON.stringify(branches.forks);
    return {
      base: base === undefined ? "" : String(base.seq),
      cursor,
      seq,
      body: JSON.stringify({ ...snapshot, messages: [], ...(branches === undefined ? {} : { branches: { ...branches, forks: [] } }) }),
      count: snapshot.messages.length,
      from,
      tree,
      messages,
      ...(dropped.length === 0 ? {} : { dropped }),
    };
  } catch (error) {
    throw new StoreError(
      "invalid-append",
      `expected a JSON thread, but the thread with its messages does not serialize: ${error instanceof Error ? error.message : String(error)}`,
      { threadId, cause: error },
    );
  }
}

/**
 * The write's script arguments (after the script's own): base, cursor, seq, body, count, from,
 * tree, the message pairs (`count - from` of them), then the dropped `ids` fields.
 *
 * @example
 * snapshotWriteArguments(write).slice(0, 2); // ["41", "1718000000000-9"]
 */
export function snapshotWriteArguments(write: SnapshotWrite): string[] {
  return [
    write.base,
    write.cursor,
    String(write.seq),
    write.body,
    String(write.count),
    String(write.from),
    write.tree,
    ...write.messages,
    ...(write.dropped ?? []),
  ];
}

/** The `ids` fields of `kept` from `from` on (message ids, `tc:` tool call ids) that `now` from `from` on does not hold. */
function droppedFields(kept: readonly Message[], now: readonly Message[], from: number): string[] {
  const held = new Set<string>();
  for (let i = from; i < now.length; i++) for (const field of indexFields(now[i])) held.add(field);
  const dropped: string[] = [];
  for (let i = from; i < kept.length; i++) for (const field of indexFields(kept[i])) if (!held.has(field)) dropped.push(field);
  return dropped;
}

/** The `ids` fields a message is indexed under: its id, and `tc:<id>` for each tool call of an assistant message (as the scripts' `index_calls`). */
function indexFields(message: Message): string[] {
  const calls = message.role === "assistant" ? (message.toolCalls ?? []).map((call) => `tc:${call.id}`) : [];
  return [message.id, ...calls];
}

/** The index of the first message of `now` that is not the kept one at the same index (all of `now` kept: its length). */
function firstChange(kept: readonly Message[], now: readonly Message[]): number {
  const shared = Math.min(kept.length, now.length);
  for (let i = 0; i < shared; i++) if (kept[i] !== now[i]) return i;
  return shared;
}
