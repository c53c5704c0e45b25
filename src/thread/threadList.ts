/**
 * The thread list and history pages as they travel between a handler and a client
 * (docs/threads.md): a principal's threads, one page at a time, the changes to that list, the
 * edits a client may make, and older pages of one thread's messages. Our own JSON, not AG-UI; each
 * type is `t.TypeOf` of its codec with a named interface as its face, so both ends decode the
 * same shapes.
 */
import * as t from "io-ts";
import { struct, taggedUnion } from "../protocol/codec";
import { Message } from "../protocol/messages";
import { QueuedMessage } from "../protocol/queueMeta";
import type { NamedStructCodec } from "../protocol/namedCodec";

const MessagePreviewCodec = /* @__PURE__ */ struct("MessagePreview", { role: t.string, preview: t.string }, {});
/**
 * The last message of a thread as a list shows it: who spoke and the start of what was said
 * (text only, cut to a readable length).
 *
 * @example
 * const last: MessagePreview = { role: "assistant", preview: "Here is the plan: first…" };
 */
export interface MessagePreview extends t.TypeOf<typeof MessagePreviewCodec> {}
export const MessagePreview: NamedStructCodec<MessagePreview> = MessagePreviewCodec;

const ThreadSummaryCodec = /* @__PURE__ */ struct(
  "ThreadSummary",
  { threadId: t.string, title: t.string, createdAt: t.number, updatedAt: t.number, running: t.boolean, archived: t.boolean },
  { lastMessage: MessagePreview },
);
/**
 * One thread in its owner's list. `createdAt` and `updatedAt` are milliseconds since the epoch
 * (the store's clock); `updatedAt` moves on every run start, run end, rename and archive.
 * `running` is true while a run of the thread is live and its producer holds the lease (a dead
 * producer's thread is not shown running). `title` is the one set by a rename or by the agent,
 * else taken from the first user message, else empty.
 *
 * @example
 * const row: ThreadSummary = { threadId: "t1", title: "Trip to Lisbon", createdAt: 1, updatedAt: 2, running: false, archived: false };
 */
export interface ThreadSummary extends t.TypeOf<typeof ThreadSummaryCodec> {}
export const ThreadSummary: NamedStructCodec<ThreadSummary> = ThreadSummaryCodec;

const ThreadPageCodec = /* @__PURE__ */ struct("ThreadPage", { threads: t.readonlyArray(ThreadSummary) }, { next: t.string });
/**
 * One page of `GET {url}/threads`: most recently updated first (ties by thread id), and `next`,
 * an opaque cursor for the following page, when there is one. The cursor names a position
 * (`updatedAt`, `threadId`), not an offset, so pages neither skip nor repeat a thread that was not
 * updated while they were read.
 *
 * @example
 * const page: ThreadPage = { threads: [row], next: "1718000000000:t1" };
 */
export interface ThreadPage extends t.TypeOf<typeof ThreadPageCodec> {}
export const ThreadPage: NamedStructCodec<ThreadPage> = ThreadPageCodec;

const ThreadPatchCodec = /* @__PURE__ */ struct("ThreadPatch", {}, { title: t.string, archived: t.boolean });
/**
 * The body of `PATCH {url}/threads/{threadId}`: a new title, archived or not, or both.
 *
 * @example
 * const patch: ThreadPatch = { title: "Lisbon, final plan" };
 */
export interface ThreadPatch extends t.TypeOf<typeof ThreadPatchCodec> {}
export const ThreadPatch: NamedStructCodec<ThreadPatch> = ThreadPatchCodec;

const ThreadChangedCodec = /* @__PURE__ */ struct(
  "ThreadChanged",
  {
    type: t.keyof({ created: null, updated: null, renamed: null, archived: null, "run-started": null, "run-ended": null, "path-selected": null }),
    thread: ThreadSummary,
  },
  {},
);
/**
 * A thread of the list changed: it was `created`, `updated` (unarchived, or its last message
 * moved), `renamed`, `archived`, a run of it started or ended, or another sibling of it was
 * selected (`path-selected`: a client showing the thread re-reads it, docs/threads.md#the-tree).
 * `thread` is the row as it is now.
 *
 * @example
 * const change: ThreadChanged = { type: "renamed", thread: row };
 */
export interface ThreadChanged extends t.TypeOf<typeof ThreadChangedCodec> {}
export const ThreadChanged: NamedStructCodec<ThreadChanged> = ThreadChangedCodec;

const ThreadDeletedCodec = /* @__PURE__ */ struct("ThreadDeleted", { type: t.literal("deleted"), threadId: t.string }, {});
/**
 * A thread of the list was deleted: every instance answers it as unknown from now on.
 *
 * @example
 * const change: ThreadDeleted = { type: "deleted", threadId: "t1" };
 */
export interface ThreadDeleted extends t.TypeOf<typeof ThreadDeletedCodec> {}
export const ThreadDeleted: NamedStructCodec<ThreadDeleted> = ThreadDeletedCodec;

const ThreadQueueChangedCodec = /* @__PURE__ */ struct(
  "ThreadQueueChanged",
  { type: t.keyof({ "queue-enqueued": null, "queue-started": null, "queue-taken": null, "queue-cancelled": null }), threadId: t.string, queued: QueuedMessage },
  {},
);
/**
 * A thread's queue changed (docs/queue.md#on-the-wire): a message was sent while a run was live
 * (`queue-enqueued`), its run started (`queue-started`), the live run's agent took a steer
 * (`queue-taken`), or it was cancelled (`queue-cancelled`). `queued` is the entry as it was listed.
 *
 * @example
 * const change: ThreadQueueChanged = { type: "queue-cancelled", threadId: "t1", queued };
 */
export interface ThreadQueueChanged extends t.TypeOf<typeof ThreadQueueChangedCodec> {}
export const ThreadQueueChanged: NamedStructCodec<ThreadQueueChanged> = ThreadQueueChangedCodec;

/**
 * One frame of `GET {url}/threads/events` (the SSE `data:`), for the caller's own threads only.
 * The stream has no cursor: a client that reconnects fetches the first page again and then
 * applies the events it hears (docs/threads.md).
 *
 * @example
 * ThreadListEvent.is({ type: "deleted", threadId: "t1" }); // true
 */
export const ThreadListEvent = /* @__PURE__ */ taggedUnion("ThreadListEvent", "type", {
  created: ThreadChanged,
  updated: ThreadChanged,
  renamed: ThreadChanged,
  archived: ThreadChanged,
  "run-started": ThreadChanged,
  "run-ended": ThreadChanged,
  "path-selected": ThreadChanged,
  deleted: ThreadDeleted,
  "queue-enqueued": ThreadQueueChanged,
  "queue-started": ThreadQueueChanged,
  "queue-taken": ThreadQueueChanged,
  "queue-cancelled": ThreadQueueChanged,
});
export type ThreadListEvent = ThreadChanged | ThreadDeleted | ThreadQueueChanged;

/**
 * The thread a list change is about.
 *
 * @example
 * threadIdOfChange({ type: "deleted", threadId: "t1" }); // "t1"
 */
export function threadIdOfChange(change: ThreadListEvent): string {
  return "thread" in change ? change.thread.threadId : change.threadId;
}

const HistoryPageCodec = /* @__PURE__ */ struct("HistoryPage", { messages: t.readonlyArray(Message), hasOlder: t.boolean }, {});
/**
 * An older page of a thread's messages on its selected path (`POST {url}/history`): at most
 * `limit` messages that come right before the message `before`, oldest first, and whether still
 * older ones exist.
 *
 * @example
 * const page: HistoryPage = { messages: [{ id: "m1", role: "user", content: "Hi" }], hasOlder: false };
 */
export interface HistoryPage extends t.TypeOf<typeof HistoryPageCodec> {}
export const HistoryPage: NamedStructCodec<HistoryPage> = HistoryPageCodec;

const HistoryRequestCodec = /* @__PURE__ */ struct("HistoryRequest", { threadId: t.string, before: t.string, limit: t.number }, {});
/**
 * The body of `POST {url}/history`: the thread, the id of the oldest message the client holds,
 * and how many older messages it wants (1 to the handler's maximum).
 *
 * @example
 * const request: HistoryRequest = { threadId: "t1", before: "m51", limit: 50 };
 */
export interface HistoryRequest extends t.TypeOf<typeof HistoryRequestCodec> {}
export const HistoryRequest: NamedStructCodec<HistoryRequest> = HistoryRequestCodec;
