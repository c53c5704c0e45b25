/**
 * What the queue contract suites (docs/queue.md#in-the-store) share: a thread of one owner on the
 * running test's store, waiting messages built for it, and the few store calls every section makes.
 * Everything goes through the `ThreadStore` interface, so the same suites run on every store.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { QueuedPolicy } from "../../../src/protocol/queueMeta";
import type { QueuedRun } from "../../../src/server/store/QueuedRun";
import type { BeginOptions, EnqueueAnswer, QueueChange, RunWriter, StoreScope, ThreadStore } from "../../../src/server/store/ThreadStore";
import type { ThreadListEvent } from "../../../src/thread/threadList";
import type { ManualClock } from "./manualClock";
import { begin, finished, newOwner, newThreadId, snapshotOf, user } from "./ownedThreadsSupport";

/** The store and clock of the test that is running (fresh for each test). */
export interface QueueContext {
  readonly store: ThreadStore;
  readonly clock: ManualClock;
  /** The lease the store was made with, in ms of `clock`. */
  readonly lease: number;
}

/** One thread of one owner (`undefined`: the ownerless thread of that id) on the store under test. */
export interface QueueThread {
  readonly store: ThreadStore;
  readonly owner: string | undefined;
  readonly threadId: string;
}

/** A new thread id of a new owner on `store` (nothing is stored until its first run). */
export const newQueueThread = (store: ThreadStore, owner: string | undefined = newOwner()): QueueThread => ({ store, owner, threadId: newThreadId() });

/** The scope `t`'s owner acts in. */
export const scopeOf = (t: QueueThread): StoreScope => ({ owner: t.owner });

/** The id of the user message the waiting message `id` carries. */
export const messageIdOf = (id: string): string => `m-${id}`;

/** A waiting message `id` for `t` (a run of that id with one user message), sent with `policy` (default `queue`) into `target`. */
export function entryOf(
  t: QueueThread,
  id: string,
  options: { readonly policy?: QueuedPolicy; readonly target?: string; readonly at?: number } = {},
): QueuedRun {
  const input = runAgentInput(t.threadId, id, { messages: [user(messageIdOf(id), `message ${id}`)] });
  return {
    id,
    policy: options.policy ?? "queue",
    input,
    at: options.at ?? 0,
    ...(t.owner === undefined ? {} : { owner: t.owner }),
    ...(options.target === undefined ? {} : { target: options.target }),
  };
}

/** A steer `id` into the run `target` of `t`. */
export const steerOf = (t: QueueThread, id: string, target: string): QueuedRun => entryOf(t, id, { policy: "steer", target });

/** Enqueues `entry` on `t` as its owner, at the back or (with `front`) the front, in a queue of `max` (default 16). */
export function enqueue(t: QueueThread, entry: QueuedRun, options: { readonly max?: number; readonly front?: boolean } = {}): Promise<EnqueueAnswer> {
  return t.store.enqueue(entry, { owner: t.owner, max: options.max ?? 16, front: options.front ?? false });
}

/** Begins run `runId` on `t` as its owner with one user message. */
export function beginOn(t: QueueThread, runId: string, options: BeginOptions = {}): Promise<RunWriter> {
  return begin(t.store, t.owner, t.threadId, runId, [user(`u-${runId}`, `question ${runId}`)], options);
}

/** Begins the waiting message `entry` on `t`, as a drain does: its own input, `dequeue` its id. */
export function dequeue(t: QueueThread, entry: QueuedRun, options: BeginOptions = {}): Promise<RunWriter> {
  return t.store.beginRun(entry.input, { owner: t.owner, dequeue: entry.id, ...options });
}

/** Ends `writer`'s run with success. */
export async function finish(writer: RunWriter): Promise<void> {
  await writer.append([finished(writer.threadId, writer.runId)]);
}

/** The three events a run records when its agent takes the steer `entry` (docs/queue.md#what-every-tab-sees). */
export function takenEvents(entry: QueuedRun): Event[] {
  const messageId = messageIdOf(entry.id);
  return [ev.textMessageStart(messageId, { role: "user" }), ev.textMessageContent(messageId, `message ${entry.id}`), ev.textMessageEnd(messageId)];
}

/** The ids of `t`'s waiting messages as a read shows them (`undefined`: the read has no `queue`). */
export async function queueIds(t: QueueThread): Promise<string[] | undefined> {
  const read = await t.store.read(t.threadId, undefined, scopeOf(t));
  if (read?.kind !== "snapshot")
    throw new Error(`expected the snapshot path of thread "${t.threadId}", got ${read === undefined ? "an unknown thread" : read.kind}`);
  return read.queue?.map((entry) => entry.id);
}

/** The cursor `t`'s log has reached (to show that a refusal logged nothing). */
export async function cursorOf(t: QueueThread): Promise<string> {
  return snapshotOf(await t.store.read(t.threadId, undefined, scopeOf(t))).cursor;
}

/** A queue change in one line: `kind id`. */
export const changed = (change: QueueChange): string => `${change.kind} ${change.id}`;

/** A list event in one line: its type, thread, and for a queue change the entry's id and status. */
export function listed(event: ThreadListEvent): string {
  if ("queued" in event) return `${event.type} ${event.threadId} ${event.queued.id} ${event.queued.status}`;
  return "thread" in event ? `${event.type} ${event.thread.threadId}` : `${event.type} ${event.threadId}`;
}
