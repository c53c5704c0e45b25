/**
 * The owners' thread lists on Redis (docs/threads.md#redis-keys): each owner's index (sorted sets
 * by `updatedAt` under the owner's tag), written after the thread's own script and repaired on
 * read; pages of it with each thread's row; and the list's changes, announced on the signal
 * channel for the other instances and handed to this instance's listeners directly.
 */
import { Observable } from "rxjs";
import { isLeft } from "../protocol/either";
import type { ListQuery, StoreScope } from "../server/store/ThreadStore";
import { ThreadListEvent, type ThreadChanged, type ThreadPage, type ThreadQueueChanged, type ThreadSummary } from "../thread/threadList";
import { ownerKeys, threadKeys } from "./keys";
import type { RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import type { RunSignals } from "./RunSignals";
import { indexDropScript, indexForgetScript, indexPageScript, indexUpsertScript, parseIndexPage } from "./scripts/ownerIndexScripts";
import type { ScriptContext } from "./scripts/prelude";
import { parseRowReply, rowScript } from "./scripts/threadScripts";
import { threadRow } from "./threadRows";
import { checkPageLimit, decodeListCursor, encodeListCursor } from "../server/store/pageQueries";

/**
 * What the lists need of their store.
 *
 * @example
 * new ThreadLists({ port, calls, prefix: "agui:", instance: "k3x9", signals, context });
 */
export interface ThreadListsEnvironment {
  readonly port: RedisConnection;
  readonly calls: RedisCalls;
  readonly prefix: string;
  readonly instance: string;
  readonly signals: RunSignals;
  readonly channel: string;
  readonly context: (threadId: string) => ScriptContext;
}

/**
 * One store instance's side of the owners' lists.
 *
 * @example
 * await lists.changed("ann", "created", row);
 * const page = await lists.page("ann", { limit: 20 });
 */
export class ThreadLists {
  private readonly local = new Set<(owner: string, event: ThreadListEvent) => void>();

  constructor(private readonly env: ThreadListsEnvironment) {}

  /**
   * After a thread's script changed its row: the owner's index follows (best effort: a write that
   * fails leaves the thread out of its index until its next write), and the change is announced.
   */
  async changed(owner: string, type: ThreadChanged["type"], row: ThreadSummary): Promise<void> {
    await this.index(owner, row);
    this.announce(owner, { type, thread: row });
  }

  /** After a thread's queue changed (docs/queue.md#on-the-wire): announced; the row and the index stay as they are. */
  queueChanged(owner: string, event: ThreadQueueChanged): void {
    this.announce(owner, event);
  }

  /** After a thread was deleted: out of the index, kept out until `until` (the tombstone's end), announced. */
  async deleted(owner: string, threadId: string, until: number): Promise<void> {
    await this.env.calls
      .script(this.env.port, indexDropScript, ownerKeys(this.env.prefix, owner), this.env.context(threadId), [String(until)])
      .catch(() => undefined);
    this.announce(owner, { type: "deleted", threadId });
  }

  /**
   * One page of `owner`'s threads: index entries in order, each with its thread's row; an entry
   * whose thread is gone leaves the index, one whose row disagrees with it (archived, updatedAt)
   * is written again.
   */
  async page(owner: string, query: ListQuery): Promise<ThreadPage> {
    const archived = query.archived === true;
    const limit = checkPageLimit("list", query.limit);
    const position = query.cursor === undefined ? undefined : decodeListCursor(query.cursor);
    let after = position === undefined ? undefined : { score: position.updatedAt, threadId: position.threadId };
    const rows: { row: ThreadSummary; score: number }[] = [];
    const seen = new Set<string>();
    const repairs: Promise<void>[] = [];
    for (;;) {
      const want = limit + 1 - rows.length;
      const entries = parseIndexPage(
        await this.env.calls.script(this.env.port, indexPageScript, ownerKeys(this.env.prefix, owner), this.env.context(""), [
          archived ? "1" : "0",
          after === undefined ? "" : String(after.score),
          after?.threadId ?? "",
          String(want),
        ]),
      );
      const found = await Promise.all(entries.map((entry) => this.row(owner, entry.threadId)));
      for (let i = 0; i < entries.length; i++) {
        const { threadId, score } = entries[i];
        const row = found[i];
        if (row === undefined) {
          repairs.push(this.forget(owner, threadId, archived, score));
          continue;
        }
        if (row.archived !== archived || row.updatedAt !== score) repairs.push(this.index(owner, row));
        if (row.archived !== archived || seen.has(threadId)) continue;
        seen.add(threadId);
        rows.push({ row, score });
      }
      if (entries.length < want || rows.length > limit) break;
      const last = entries[entries.length - 1];
      after = { score: last.score, threadId: last.threadId };
    }
    await Promise.all(repairs); // each swallows its own failure: the next list repairs again
    const threads = rows.slice(0, limit).map(({ row }) => row);
    if (rows.length <= limit) return { threads };
    const last = rows[limit - 1];
    return { threads, next: encodeListCursor({ updatedAt: last.score, threadId: last.row.threadId }) };
  }

  /** The changes to `scope.owner`'s list from now on (none without an owner: ownerless threads are in no list). */
  events(scope: StoreScope): Observable<ThreadListEvent> {
    const owner = scope.owner;
    return new Observable<ThreadListEvent>((subscriber) => {
      if (owner === undefined) {
        subscriber.complete();
        return undefined;
      }
      const local = (from: string, event: ThreadListEvent): void => {
        if (from === owner) subscriber.next(event);
      };
      this.local.add(local);
      const unlisten = this.env.signals.listen((message) => {
        const announced = parseAnnouncement(message, this.env.instance);
        if (announced !== undefined && announced.owner === owner) subscriber.next(announced.event);
        const abandoned = parseAbandoned(message);
        if (abandoned !== undefined && abandoned.owner === owner) this.abandoned(owner, abandoned.threadId, (event) => subscriber.next(event));
      });
      // Other instances' changes need the subscription; this instance's arrive without it.
      this.env.signals.ready().catch((error: unknown) => subscriber.error(error));
      return () => {
        this.local.delete(local);
        unlisten();
      };
    });
  }

  /** The row of `owner`'s thread now, or `undefined` when it is gone. */
  async row(owner: string | undefined, threadId: string): Promise<ThreadSummary | undefined> {
    const raw = parseRowReply(
      await this.env.calls.script(this.env.port, rowScript, threadKeys(this.env.prefix, threadId, owner), this.env.context(threadId), []),
    );
    return raw === undefined ? undefined : threadRow(threadId, raw);
  }

  /**
   * A script ended a run of `owner`'s thread ABANDONED (announced by the script itself, to every
   * instance): each listening instance tells its own listeners, with the row as it is now, and
   * writes the index (the same write from each: it moves `updatedAt` to the end's).
   */
  private abandoned(owner: string, threadId: string, next: (event: ThreadListEvent) => void): void {
    this.row(owner, threadId).then(
      async (row) => {
        if (row === undefined) return; // deleted since: its deletion is announced
        next({ type: "run-ended", thread: row });
        await this.index(owner, row);
      },
      () => undefined, // Redis did not answer: the list shows the end at the next page read
    );
  }

  private async index(owner: string, row: ThreadSummary): Promise<void> {
    const keys = ownerKeys(this.env.prefix, owner);
    const args = [String(row.updatedAt), row.archived ? "1" : "0"];
    // The thread's own script has run: if this write is lost, the thread's next write adds it again.
    await this.env.calls.script(this.env.port, indexUpsertScript, keys, this.env.context(row.threadId), args).catch(() => undefined);
  }

  private async forget(owner: string, threadId: string, archived: boolean, score: number): Promise<void> {
    const keys = ownerKeys(this.env.prefix, owner);
    await this.env.calls
      .script(this.env.port, indexForgetScript, keys, this.env.context(threadId), [archived ? "1" : "0", String(score)])
      .catch(() => undefined);
  }

  private announce(owner: string, event: ThreadListEvent): void {
    for (const listener of [...this.local]) listener(owner, event);
    const message = JSON.stringify({ list: owner, from: this.env.instance, event });
    // Other instances' listeners miss this change if it is lost; a client's reconnect refetches its first page.
    this.env.calls.command(this.env.port, ["PUBLISH", this.env.channel, message], "PUBLISH").catch(() => undefined);
  }
}

/** A list change another instance announced, or `undefined` (not one, or this instance's own: its listeners had it). */
function parseAnnouncement(message: string, instance: string): { owner: string; event: ThreadListEvent } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || !("list" in parsed) || !("from" in parsed) || !("event" in parsed)) return undefined;
  const { list, from, event } = parsed;
  if (typeof list !== "string" || from === instance) return undefined;
  const decoded = ThreadListEvent.decode(event);
  return isLeft(decoded) ? undefined : { owner: list, event: decoded.right };
}

/** The owner and thread id of an ABANDONED end a script announced (`["abandoned", '["<owner>","<threadId>"]']`), or `undefined`. */
function parseAbandoned(message: string): { owner: string; threadId: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(message);
    if (!Array.isArray(parsed) || parsed[0] !== "abandoned" || typeof parsed[1] !== "string") return undefined;
    const ref: unknown = JSON.parse(parsed[1]);
    if (Array.isArray(ref) && typeof ref[0] === "string" && typeof ref[1] === "string") return { owner: ref[0], threadId: ref[1] };
  } catch {
    // not JSON: not a script's announcement
  }
  return undefined;
}
