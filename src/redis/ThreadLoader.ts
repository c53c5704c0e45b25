/**
 * Reading a thread from Redis (docs/durability.md, "Redis": operations): one read script call for
 * what `read` and `beginRun` start from, then whatever pages it did not bring, checked for gaps;
 * and the thread now, the kept snapshot brought up to date with `ThreadFold` (kept again when it
 * folded a run nobody compacted).
 */
import { isTerminal } from "../thread/isTerminal";
import type { ThreadSnapshot } from "../thread/ThreadSnapshot";
import type { Cursor } from "../server/store/ThreadStore";
import { xrangeArguments } from "./commands/XRANGE";
import { decodeEntries, decodeEntry, type LoggedEntry } from "./entries";
import type { ThreadKeys } from "./keys";
import { unavailable, type RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import { checkpointArguments, checkpointScript } from "./scripts/checkpointSnapshot";
import type { ScriptContext } from "./scripts/prelude";
import { parseReadReply, readArguments, readScript } from "./scripts/readThread";
import { decodeSnapshot, foldAfter, followsWithoutGap } from "./snapshots";

/**
 * What `ThreadLoader.load` found: an unknown thread, the cursor path (the events after the cursor
 * through its run's terminal), or the snapshot path (the kept snapshot, the entries after it, the
 * live run if any, and the last cursor read).
 *
 * @example
 * if (loaded.kind === "snapshot" && loaded.live !== undefined) console.log(`run ${loaded.live} is live`);
 */
export type Loaded =
  | { readonly kind: "unknown" }
  | { readonly kind: "resume"; readonly after: Cursor; readonly events: readonly LoggedEntry[] }
  | {
      readonly kind: "snapshot";
      readonly live: string | undefined;
      readonly snapshot: ThreadSnapshot;
      readonly entries: readonly LoggedEntry[];
      readonly last: Cursor;
    };

/**
 * Reads threads for one store.
 *
 * @example
 * const loader = new ThreadLoader(port, calls, (threadId) => context(threadId), 1000);
 * const loaded = await loader.load("t1", threadKeys("agui:", "t1"), undefined);
 */
export class ThreadLoader {
  constructor(
    private readonly port: RedisConnection,
    private readonly calls: RedisCalls,
    private readonly context: (threadId: string) => ScriptContext,
    /** Entries per round trip. */
    private readonly page: number,
  ) {}

  /** One read script call, then whatever pages it did not bring. */
  async load(threadId: string, keys: ThreadKeys, after: Cursor | undefined): Promise<Loaded> {
    const reply = parseReadReply(await this.calls.script(this.port, readScript, keys, this.context(threadId), readArguments(after, this.page)));
    switch (reply.kind) {
      case "unknown":
        return { kind: "unknown" };
      case "resume": {
        const at = decodeEntry(reply.at, threadId);
        const events = await this.throughTerminal(threadId, keys, at, decodeEntries(reply.entries, threadId));
        return events === undefined ? this.load(threadId, keys, undefined) : { kind: "resume", after: at.cursor, events };
      }
      case "snapshot": {
        const snapshot = decodeSnapshot(reply, threadId);
        const entries = await this.rest(threadId, keys, decodeEntries(reply.entries, threadId));
        if (!followsWithoutGap(reply.seq, entries)) {
          throw unavailable("XRANGE", `the stream lost events logged after the kept snapshot (at ${reply.cursor})`, { threadId }, undefined);
        }
        return { kind: "snapshot", live: reply.live, snapshot, entries, last: entries.length === 0 ? reply.cursor : entries[entries.length - 1].cursor };
      }
      default: {
        const unexpected: never = reply;
        return unexpected;
      }
    }
  }

  /** The events after `at` through the first terminal, reading on past the first page; `undefined` when some were trimmed (snapshot path). */
  private async throughTerminal(threadId: string, keys: ThreadKeys, at: LoggedEntry, first: LoggedEntry[]): Promise<LoggedEntry[] | undefined> {
    const out: LoggedEntry[] = [];
    let page = first;
    for (;;) {
      for (const entry of page) {
        if (entry.seq !== at.seq + 1 + out.length) return undefined;
        out.push(entry);
        if (isTerminal(entry.event)) return out;
      }
      if (page.length < this.page) return out;
      page = decodeEntries(
        await this.calls.command(this.port, xrangeArguments(keys.events, out[out.length - 1].cursor, "+", this.page), "XRANGE", { threadId }),
        threadId,
      );
    }
  }

  /** `first`, and every page after it up to the stream's end. */
  private async rest(threadId: string, keys: ThreadKeys, first: LoggedEntry[]): Promise<LoggedEntry[]> {
    const out = first;
    let count = first.length;
    while (count === this.page) {
      const page = decodeEntries(
        await this.calls.command(this.port, xrangeArguments(keys.events, out[out.length - 1].cursor, "+", this.page), "XRANGE", { threadId }),
        threadId,
      );
      out.push(...page);
      count = page.length;
    }
    return out;
  }

  /**
   * The thread now: the kept snapshot with the events after it folded in. A run that ended among
   * them was compacted by nobody (its producer died, or it was ended ABANDONED): keep the result.
   */
  async current(threadId: string, keys: ThreadKeys, snapshot: ThreadSnapshot, entries: readonly LoggedEntry[]): Promise<ThreadSnapshot> {
    if (entries.length === 0) return snapshot;
    const { fold, endedRun } = foldAfter(snapshot, entries);
    const folded = fold.snapshot() ?? snapshot;
    if (endedRun) {
      const last = entries[entries.length - 1];
      const checkpoint = { cursor: last.cursor, seq: last.seq, json: JSON.stringify(folded) };
      // Only a saving for later reads: if it fails, the next read folds the same and tries again.
      await this.calls.script(this.port, checkpointScript, keys, this.context(threadId), checkpointArguments(checkpoint)).catch(() => undefined);
    }
    return folded;
  }
}
