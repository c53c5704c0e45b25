/** A memory store thread's metadata and its row in the owner's list (docs/threads.md#in-the-store). */
import type { Message } from "../../../protocol/messages";
import type { MessagePreview, ThreadSummary } from "../../../thread/threadList";
import { defaultTitle, previewOf } from "../../../thread/threadTitle";
import type { LiveRun } from "./LiveRun";

/**
 * What the list knows of a thread besides its messages. Three titles, of which the row shows the
 * first set: the owner's (a rename, kept from then on), the agent's (`RunWriter.setTitle`), and
 * the default one from the first user message.
 *
 * @example
 * const meta = newMeta("alice", clock.now());
 */
export interface ThreadMeta {
  /** `undefined`: a thread without an owner, which no list shows. */
  readonly owner: string | undefined;
  readonly createdAt: number;
  /** Moves on run start, run end, rename and archive; change it through `ThreadTable.reindex` (it orders the list). */
  updatedAt: number;
  /** Change it through `ThreadTable.reindex` (it picks the list). */
  archived: boolean;
  ownerTitle: string | undefined;
  agentTitle: string | undefined;
  /** `defaultTitle` of the path, looked for when a run starts or ends until one is found (the first user message does not change). */
  defaultTitle: string;
}

/**
 * The metadata of a thread created now by `owner`.
 *
 * @example
 * newMeta(undefined, 0); // an ownerless thread: no list shows it
 */
export function newMeta(owner: string | undefined, now: number): ThreadMeta {
  return { owner, createdAt: now, updatedAt: now, archived: false, ownerTitle: undefined, agentTitle: undefined, defaultTitle: "" };
}

/**
 * What a row needs of a thread: its id, metadata, live run and messages by position.
 *
 * @example
 * summaryOf(thread, clock.now()); // a MemoryThread is a RowSource
 */
export interface RowSource {
  readonly id: string;
  readonly meta: ThreadMeta;
  readonly live: LiveRun | undefined;
  readonly messages: { readonly length: number; at(index: number): Message };
}

/**
 * The thread's row as its owner's list shows it at `now`: `running` only while its live run holds
 * the lease (a producer that stopped renewing is not shown running, whether or not a timer has
 * ended its run yet). Cost: the trailing messages without text, for the preview; usually one.
 *
 * @example
 * const row = summaryOf(thread, clock.now()); // { threadId, title, createdAt, updatedAt, running, archived, lastMessage? }
 */
export function summaryOf(thread: RowSource, now: number): ThreadSummary {
  const { meta, live } = thread;
  const lastMessage = lastPreview(thread.messages);
  return {
    threadId: thread.id,
    title: meta.ownerTitle ?? meta.agentTitle ?? meta.defaultTitle,
    createdAt: meta.createdAt,
    updatedAt: meta.updatedAt,
    running: live !== undefined && now < live.deadline,
    archived: meta.archived,
    ...(lastMessage === undefined ? {} : { lastMessage }),
  };
}

/**
 * Finds the default title once the path has a user message with text (a scan from the start,
 * which stops at the first one; done when a run starts or ends, until found).
 *
 * @example
 * noteDefaultTitle(thread); // thread.meta.defaultTitle: "Plan a weekend in Lisbon"
 */
export function noteDefaultTitle(thread: RowSource): void {
  if (thread.meta.defaultTitle !== "") return;
  const { messages } = thread;
  for (let index = 0; index < messages.length; index++) {
    const title = defaultTitle([messages.at(index)]);
    if (title !== "") {
      thread.meta.defaultTitle = title;
      return;
    }
  }
}

/** `previewOf` the path, read from its end one message at a time (never a copy of the path). */
function lastPreview(messages: RowSource["messages"]): MessagePreview | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const preview = previewOf([messages.at(index)]);
    if (preview !== undefined) return preview;
  }
  return undefined;
}
