/**
 * `selectBranch` on Redis (docs/threads.md#the-tree, #redis-keys): the thread read from a little
 * before the switched group on (`readForSwitch`; the whole thread when that cannot be), its fold restored from the kept snapshot, switched there with the same `ThreadFold.select`
 * the memory store uses, and written back whole in one script that keeps it only if the thread is
 * still as read (a compare-and-set: no run live, nothing logged, no other switch since). The tree
 * lives in the kept snapshot's body, so a switch is one read and one write for every instance.
 */
import type { SelectAnswer } from "../server/store/ThreadStore";
import type { ThreadKeys } from "./keys";
import { unavailable, type RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import type { ScriptContext } from "./scripts/prelude";
import { parseSelectReply, selectArguments, selectScript } from "./scripts/selectBranch";
import { snapshotWrite } from "./snapshotWrites";
import { foldAfter } from "./snapshots";
import { readForSwitch, switchedSnapshot } from "./switchWindow";
import type { ThreadLoader } from "./ThreadLoader";

/** Reads and writes per switch before it gives up: each retry means the thread changed under it (a run's end folded in, another switch). */
const SELECT_ATTEMPTS = 8;

/**
 * What a switch needs of its store: the connection and its calls, the loader, the script context of
 * a thread reference, and what to do with the thread's row once switched (its owner's list).
 *
 * @example
 * const env: BranchSwitchEnvironment = { port, calls, loader, context: (ref) => context(ref), switched: async (row) => undefined };
 */
export interface BranchSwitchEnvironment {
  readonly port: RedisConnection;
  readonly calls: RedisCalls;
  readonly loader: ThreadLoader;
  readonly context: (ref: string) => ScriptContext;
  /** After the switch was kept: the thread's row (raw, from the script). */
  readonly switched: (row: unknown) => Promise<void>;
}

/**
 * The thread `threadId` (named `ref` in the store, with `keys`, scoped by owner already) with
 * sibling `index` of the group of its path's message `messageId` shown: the `SelectAnswer`. A
 * thread changed between the read and the write is read again, up to `SELECT_ATTEMPTS` times
 * (then StoreError `unavailable`); a run that started meanwhile answers `run-active`, a message
 * enqueued meanwhile `queue-pending`.
 *
 * @example
 * await switchBranch(env, { threadId: "t1", ref: "t1", keys: threadKeys("agui:", "t1") }, "a1", 0); // "switched"
 */
export async function switchBranch(
  env: BranchSwitchEnvironment,
  thread: { readonly threadId: string; readonly ref: string; readonly keys: ThreadKeys },
  messageId: string,
  index: number,
): Promise<SelectAnswer> {
  const { threadId, ref, keys } = thread;
  for (let attempt = 0; attempt < SELECT_ATTEMPTS; attempt++) {
    const { loaded, window } = await readForSwitch(env.loader, env.port, env.calls, thread, messageId);
    if (loaded.kind !== "snapshot") return "unknown"; // without a cursor a known thread always reads as a snapshot
    if (loaded.live !== undefined) return "run-active";
    if (loaded.queueLength > 0) return "queue-pending"; // docs/queue.md: a waiting message runs on the branch it was sent on
    const fold = window?.fold ?? foldAfter(loaded.snapshot, loaded.entries).fold;
    const result = fold.select(messageId, index);
    if (result !== "switched") return result;
    const folded = fold.snapshot() ?? loaded.snapshot;
    const snapshot = window === undefined ? folded : switchedSnapshot(folded, loaded.snapshot, window.offset);
    const request = {
      expectLast: loaded.last,
      selection: loaded.selection,
      snapshot: snapshotWrite(snapshot, loaded.last, loaded.lastSeq, window?.base ?? loaded.base, threadId),
    };
    const reply = parseSelectReply(await env.calls.script(env.port, selectScript, keys, env.context(ref), selectArguments(request)));
    switch (reply.kind) {
      case "switched":
        await env.switched(reply.row);
        return "switched";
      case "unknown":
        return "unknown"; // deleted since the read
      case "active":
        return "run-active";
      case "queue-pending":
        return "queue-pending";
      case "retry":
        continue;
      default: {
        const unexpected: never = reply;
        return unexpected;
      }
    }
  }
  throw unavailable(
    "the select script",
    `thread "${threadId}" changed under each of ${SELECT_ATTEMPTS} attempts to switch its branch`,
    { threadId },
    undefined,
  );
}
