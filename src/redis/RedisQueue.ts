/**
 * The queue operations of the Redis store (docs/queue.md#in-the-store, docs/queue.md#redis-keys):
 * `enqueue`, `cancelQueued`, `queueEntry` and `queueChanges`, each one script of the thread's slot
 * (which announces the change on the signal channel for every instance), then the owner's list
 * event (`queue-*`) and this instance's own `queueChanges` watchers. The parts of `beginRun`
 * (`dequeue`) and of an append (a steer taken) that move the queue announce through `left`.
 */
import type { Observable } from "rxjs";
import type { QueuedStatus } from "../protocol/queueMeta";
import { listedQueued, queuedMessageOf, type QueuedRun } from "../server/store/QueuedRun";
import type { CancelQueuedAnswer, EnqueueAnswer, EnqueueOptions, QueueChange, QueueEntryState, StoreScope } from "../server/store/ThreadStore";
import type { ThreadQueueChanged } from "../thread/threadList";
import { threadKeys, type ThreadKeys } from "./keys";
import type { QueueFeed } from "./QueueFeed";
import { decodeQueued } from "./queuedEntries";
import type { RedisCalls } from "./RedisCalls";
import type { RedisConnection } from "./RedisPort";
import type { ScriptContext } from "./scripts/prelude";
import {
  cancelQueuedScript,
  enqueueArguments,
  enqueueScript,
  parseCancelReply,
  parseEnqueueReply,
  parseEntryReply,
  queueEntryScript,
} from "./scripts/queueScripts";
import type { ThreadLists } from "./ThreadLists";
import type { ThreadLoader } from "./ThreadLoader";
import { threadRef } from "./threadRefs";

/**
 * What the queue needs of its store: the connection and its calls, the key prefix, the script
 * context of a thread reference, the owners' lists, this instance's change feed, and its thread
 * reader (whether a thread without a live run waits on answers is its fold's to say).
 *
 * @example
 * new RedisQueue({ port, calls, prefix: "agui:", context, lists, feed, loader });
 */
export interface QueueEnvironment {
  readonly port: RedisConnection;
  readonly calls: RedisCalls;
  readonly prefix: string;
  readonly context: (ref: string) => ScriptContext;
  readonly lists: ThreadLists;
  readonly feed: QueueFeed;
  readonly loader: ThreadLoader;
}

/** How an entry left the queue, as its list event and queue change name it. */
type Leaving = "started" | "taken" | "cancelled";

/**
 * One store instance's side of the threads' queues.
 *
 * @example
 * const queue = new RedisQueue(env);
 * await queue.enqueue(entry, { owner: "ann", max: 16 }); // "queued"
 */
export class RedisQueue {
  constructor(private readonly env: QueueEnvironment) {}

  /** `ThreadStore.enqueue`: one script; a stored entry is announced with the status it has now. */
  async enqueue(entry: QueuedRun, options: EnqueueOptions): Promise<EnqueueAnswer> {
    const { owner } = options;
    const threadId = entry.input.threadId;
    queuedMessageOf(entry); // refuses an entry that carries no user message, before anything is stored
    // Subscribed before the entry exists, so that its stream, which watches it from here, hears
    // every change of it: another instance's (a steer taken, a run started) comes only through
    // the channel, and one made while the first subscription was still being opened was lost.
    await this.env.feed.ready();
    const ref = threadRef(threadId, owner);
    const keys = this.keysOf(threadId, owner);
    const args = enqueueArguments({
      id: entry.id,
      json: JSON.stringify(entry),
      max: options.max,
      front: options.front === true,
      policy: entry.policy,
      target: entry.target,
    });
    const reply = parseEnqueueReply(await this.env.calls.script(this.env.port, enqueueScript, keys, this.env.context(ref), args, { runId: entry.id }));
    if (reply.answer !== "queued" && reply.answer !== "steering") return reply.answer;
    this.env.feed.local(ref, { kind: "enqueued", id: entry.id });
    if (owner !== undefined) {
      const status = await this.statusOf(entry, reply.live, ref, keys);
      this.announce(owner, { type: "queue-enqueued", threadId, queued: listedQueued(entry, status) });
    }
    return reply.answer;
  }

  /** `ThreadStore.cancelQueued`: one script; a cancelled entry is announced as it was listed. */
  async cancelQueued(threadId: string, id: string, reason: string, scope: StoreScope): Promise<CancelQueuedAnswer> {
    const ref = threadRef(threadId, scope.owner);
    const keys = this.keysOf(threadId, scope.owner);
    const reply = parseCancelReply(await this.env.calls.script(this.env.port, cancelQueuedScript, keys, this.env.context(ref), [id, reason], { runId: id }));
    if (reply.answer === "cancelled" && reply.json !== undefined) {
      const entry = decodeQueued(reply.json, threadId);
      this.left(threadId, scope.owner, "cancelled", entry, await this.statusOf(entry, reply.live, ref, keys));
    }
    return reply.answer;
  }

  /** `ThreadStore.queueEntry`: one script that reads the entry, or its remembered outcome. */
  async queueEntry(threadId: string, id: string, scope: StoreScope): Promise<QueueEntryState> {
    const ref = threadRef(threadId, scope.owner);
    const reply = parseEntryReply(
      await this.env.calls.script(this.env.port, queueEntryScript, this.keysOf(threadId, scope.owner), this.env.context(ref), [id]),
    );
    switch (reply.kind) {
      case "waiting":
        return { state: "waiting", entry: decodeQueued(reply.json, threadId) };
      case "left":
        return reply.state === "cancelled" ? { state: "cancelled", reason: reply.detail } : { state: reply.state, runId: reply.detail };
      case "unknown":
        return { state: "unknown" };
      default: {
        const unexpected: never = reply;
        return unexpected;
      }
    }
  }

  /** `ThreadStore.queueChanges`: the thread's feed (another owner's thread has another reference, so it is another feed). */
  changes(threadId: string, scope: StoreScope): Observable<QueueChange> {
    return this.env.feed.changes(threadRef(threadId, scope.owner));
  }

  /**
   * After a script took `entry` out of the queue of `owner`'s thread `threadId` (started, taken,
   * cancelled; the script announced it to every instance): this instance's watchers hear it now,
   * and the owner's list hears it with the entry as it was listed (`status`).
   */
  left(threadId: string, owner: string | undefined, how: Leaving, entry: QueuedRun, status: QueuedStatus): void {
    this.env.feed.local(threadRef(threadId, owner), { kind: how, id: entry.id });
    if (owner !== undefined) this.announce(owner, { type: `queue-${how}`, threadId, queued: listedQueued(entry, status) });
  }

  /**
   * The status an entry is listed with: `steering` while its target is the live run, `queued`
   * behind another live run, and with none live `waiting` when the thread waits on answers (else `queued`).
   */
  private async statusOf(entry: QueuedRun, live: string | undefined, ref: string, keys: ThreadKeys): Promise<QueuedStatus> {
    if (entry.policy === "steer" && live !== undefined && entry.target === live) return "steering";
    if (live !== undefined) return "queued";
    return (await this.waits(ref, keys).catch(() => false)) ? "waiting" : "queued";
  }

  /** Whether the thread `ref` waits on interrupts or client tool results: its fold now, read from its last message on. */
  private async waits(ref: string, keys: ThreadKeys): Promise<boolean> {
    const loaded = await this.env.loader.load(ref, keys, undefined, 1);
    if (loaded.kind !== "snapshot") return false;
    const before = loaded.messageCount - loaded.snapshot.messages.length;
    const snapshot = await this.env.loader.current(ref, keys, loaded.snapshot, loaded.entries, loaded.base, before);
    return snapshot.interrupts.length > 0 || (snapshot.pendingToolCallIds?.length ?? 0) > 0;
  }

  private announce(owner: string, event: ThreadQueueChanged): void {
    this.env.lists.queueChanged(owner, event);
  }

  private keysOf(threadId: string, owner: string | undefined): ThreadKeys {
    return threadKeys(this.env.prefix, threadId, owner);
  }
}
