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
import { keptOf, snapshotWrite, type KeptMessages } from "./snapshotWrites";
import type { ScriptContext } from "./scripts/prelude";
import { idsAbsentArguments, idsAbsentScript } from "./scripts/idsAbsent";
import { parseReadReply, readArguments, readScript } from "./scripts/readThread";
import { decodeMessages, decodeSnapshot, foldAfter, followsWithoutGap } from "./snapshots";
import { historyScript, parseHistoryReply } from "./scripts/threadScripts";
import type { HistoryPage } from "../thread/threadList";
import type { Message } from "../protocol/messages";
import { outsideWindow, windowGroups } from "./windowFold";

/**
 * Messages a read with a limit takes beyond it, so that a live run's entries that touch a message
 * a little before the last `limit` (a tool result after its call) still fold into the window.
 */
const WINDOW_MARGIN = 16;

/**
 * What `ThreadLoader.load` found: an unknown thread, the cursor path (the events after the cursor
 * through its run's terminal), or the snapshot path (the kept snapshot, the entries after it, the
 * live run if any, and the last cursor read). On the snapshot path `base` is the kept snapshot's
 * messages when all were read from their list (what a write may build on), and `messageCount`
 * the number of messages it holds (more than `snapshot.messages` when a limit read only the last:
 * then the entries fold into those as into all, `windowFolds`), `lastSeq` the sequence number of
 * `last`, and `selection` the kept snapshot's switch count (what a write over it expects);
 * `queueLength` the number of waiting messages, `queueHead` the first one's id, and `queue` their JSON when the load asked for them.
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
      readonly lastSeq: number;
      readonly selection: string;
      readonly base: KeptMessages | undefined;
      readonly messageCount: number;
      readonly queueLength: number;
      readonly queue: readonly string[];
      readonly queueHead: string | undefined;
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

  /**
   * One read script call, then whatever pages it did not bring. With `limit`, the kept snapshot's
   * last `limit` (and `WINDOW_MARGIN`) messages only, when the entries after it can be folded into
   * those (`outsideWindow`, and the ids it names proven absent before them); else all, read again.
   * With `withQueue`, the snapshot path brings the waiting messages too (in the same script).
   */
  async load(threadId: string, keys: ThreadKeys, after: Cursor | undefined, limit?: number, withQueue = false): Promise<Loaded> {
    const args = readArguments(after, this.page, limit === undefined ? undefined : Math.max(1, limit) + WINDOW_MARGIN, withQueue);
    const reply = parseReadReply(await this.calls.script(this.port, readScript, keys, this.context(threadId), args));
    switch (reply.kind) {
      case "unknown":
        return { kind: "unknown" };
      case "resume": {
        const at = decodeEntry(reply.at, threadId);
        const events = await this.throughTerminal(threadId, keys, at, decodeEntries(reply.entries, threadId));
        return events === undefined ? this.load(threadId, keys, undefined, limit, withQueue) : { kind: "resume", after: at.cursor, events };
      }
      case "snapshot": {
        const snapshot = decodeSnapshot(reply, threadId);
        const entries = await this.rest(threadId, keys, decodeEntries(reply.entries, threadId));
        if (!followsWithoutGap(reply.seq, entries)) {
          throw unavailable("XRANGE", `the stream lost events logged after the kept snapshot (at ${reply.cursor})`, { threadId }, undefined);
        }
        const whole = reply.messageCount !== undefined && reply.messages.length === reply.messageCount;
        const windowed = reply.messageCount !== undefined && !whole;
        if (windowed && entries.length > 0 && !(await this.windowFolds(threadId, keys, reply.seq, snapshot.messages, entries))) {
          return this.load(threadId, keys, after, undefined, withQueue);
        }
        return {
          kind: "snapshot",
          live: reply.live,
          snapshot,
          entries,
          last: entries.length === 0 ? reply.cursor : entries[entries.length - 1].cursor,
          lastSeq: entries.length === 0 ? reply.seq : entries[entries.length - 1].seq,
          selection: reply.selection,
          base: whole ? keptOf(reply.seq, snapshot) : undefined,
          messageCount: reply.messageCount ?? snapshot.messages.length,
          queueLength: reply.queueLength,
          queue: reply.queue,
          queueHead: reply.queueHead,
        };
      }
      default: {
        const unexpected: never = reply;
        return unexpected;
      }
    }
  }

  /** Whether `entries` fold into the kept snapshot's last messages alone as into all of them (`outsideWindow`; one script call for the message and tool call ids it names). */
  private async windowFolds(threadId: string, keys: ThreadKeys, seq: number, window: readonly Message[], entries: readonly LoggedEntry[]): Promise<boolean> {
    const outside = outsideWindow(window, entries);
    if (outside === undefined) return false;
    if (outside.messages.length === 0 && outside.calls.length === 0) return true;
    const args = idsAbsentArguments(seq, outside.messages, outside.calls);
    return (await this.calls.script(this.port, idsAbsentScript, keys, this.context(threadId), args)) === 1;
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
   * The `limit` messages before message `before`, from the kept snapshot's message list (one
   * script call); when the kept snapshot does not hold `before` (it is newer, as during a run),
   * from the whole thread read and folded. `undefined` for an unknown thread or message.
   */
  async history(threadId: string, keys: ThreadKeys, before: string, limit: number): Promise<HistoryPage | undefined> {
    const count = Math.max(0, Math.floor(limit));
    const reply = parseHistoryReply(await this.calls.script(this.port, historyScript, keys, this.context(threadId), [before, String(count)]));
    switch (reply.kind) {
      case "unknown":
        return undefined;
      case "page": {
        return { messages: decodeMessages(reply.messages, threadId), hasOlder: reply.hasOlder };
      }
      case "missing": {
        const loaded = await this.load(threadId, keys, undefined);
        if (loaded.kind !== "snapshot") return undefined;
        const messages: readonly Message[] = (await this.current(threadId, keys, loaded.snapshot, loaded.entries, loaded.base)).messages;
        const at = messages.findIndex((message) => message.id === before);
        if (at < 0) return undefined;
        const from = Math.max(0, at - count);
        return { messages: messages.slice(from, at), hasOlder: from > 0 };
      }
      default: {
        const unexpected: never = reply;
        return unexpected;
      }
    }
  }

  /**
   * The thread now: the kept snapshot with the events after it folded in. A run that ended among
   * them was compacted by nobody (its producer died, or it was ended ABANDONED): keep the result.
   * `before` is the number of path messages a window read left out of `snapshot` (`windowGroups`).
   */
  async current(
    threadId: string,
    keys: ThreadKeys,
    snapshot: ThreadSnapshot,
    entries: readonly LoggedEntry[],
    base: KeptMessages | undefined,
    before = 0,
  ): Promise<ThreadSnapshot> {
    if (entries.length === 0) return snapshot;
    const { fold, endedRun } = foldAfter(snapshot, entries);
    const folded = windowGroups(fold.snapshot() ?? snapshot, snapshot, before);
    if (endedRun) {
      const last = entries[entries.length - 1];
      // Only a saving for later reads: if it fails (or cannot serialize), the next read folds the same and tries again.
      await Promise.resolve()
        .then(() => checkpointArguments(snapshotWrite(folded, last.cursor, last.seq, base, threadId)))
        .then((args) => this.calls.script(this.port, checkpointScript, keys, this.context(threadId), args))
        .catch(() => undefined);
    }
    return folded;
  }
}
