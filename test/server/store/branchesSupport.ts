/**
 * What the branches contract suite (docs/threads.md#the-tree, #edit-and-regenerate) drives a store
 * with: posts begun exactly as the HTTP handler begins them (`beginReconciledRun`: one read, the
 * history rules, `beginRun` with `expectCursor` and `forkAfter`, the STATE_SNAPSHOT of a starting
 * state that differs), answers appended as a producer appends them, and a chat to branch from.
 */
import { ev, runAgentInput } from "../../../src/protocol/build";
import { forkForwardedProps } from "../../../src/protocol/branchMeta";
import type { Event } from "../../../src/protocol/events";
import type { RunAgentInput } from "../../../src/protocol/input";
import type { Message } from "../../../src/protocol/messages";
import type { Interrupt } from "../../../src/protocol/outcomes";
import { beginReconciledRun, type BegunRun } from "../../../src/server/history/beginReconciledRun";
import type { RunWriter, ThreadStore } from "../../../src/server/store/ThreadStore";
import type { ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";
import { assistant, snapshotOf, text, user } from "./ownedThreadsSupport";

/** One thread of one owner on the store under test. */
export interface BranchThread {
  readonly store: ThreadStore;
  readonly owner: string;
  readonly threadId: string;
}

let runs = 0;

/** Begins the run of a post as the handler does (history owned by the server); a refusal fails the test with its answer. */
export async function post(thread: BranchThread, fields: Partial<Omit<RunAgentInput, "threadId" | "runId">>): Promise<BegunRun> {
  const posted = runAgentInput(thread.threadId, `run-${runs++}`, fields);
  const begun = await beginReconciledRun(thread.store, posted, { history: "server", scope: { owner: thread.owner }, headers: {} });
  if (begun instanceof Response) throw new Error(`expected the post to be begun, but it was answered ${begun.status}: ${await begun.text()}`);
  return begun;
}

/** How an answer ends: a success (leaving `pending` client calls, if given), or an interrupt. */
export type Ending = { readonly pending?: string[] } | { readonly interrupts: [Interrupt, ...Interrupt[]] };

/** Appends the answer `id` (text, or a client tool call `call` when given), a STATE_SNAPSHOT of `state` when given, and the run's end. */
export async function answer(
  writer: RunWriter,
  id: string,
  options: { readonly state?: unknown; readonly call?: string; readonly end?: Ending } = {},
): Promise<void> {
  const events: Event[] =
    options.call === undefined
      ? text(id, `answer ${id}`)
      : [ev.toolCallStart(options.call, "pick", { parentMessageId: id }), ev.toolCallArgs(options.call, "{}"), ev.toolCallEnd(options.call)];
  if (options.state !== undefined) events.push(ev.stateSnapshot(options.state));
  const end = options.end ?? {};
  const outcome =
    "interrupts" in end
      ? ({ type: "interrupt", interrupts: end.interrupts } as const)
      : ({ type: "success", ...(end.pending === undefined ? {} : { pendingToolCallIds: end.pending }) } as const);
  await writer.append([...events, ev.runFinished(writer.threadId, writer.runId, { outcome })]);
}

/** The assistant message `answer` makes with a client tool call `call`. */
export function called(id: string, call: string): Message {
  return { id, role: "assistant", toolCalls: [{ id: call, type: "function", function: { name: "pick", arguments: "{}" } }] };
}

/** The assistant message `answer` makes with text. */
export const answered = (id: string): Message => assistant(id, `answer ${id}`);

/** The thread as a read without cursor shows it. */
export async function current(thread: BranchThread, limit?: number): Promise<ThreadSnapshot> {
  return snapshotOf(await thread.store.read(thread.threadId, undefined, { owner: thread.owner, ...(limit === undefined ? {} : { limit }) }));
}

/** The ids of the messages of a path. */
export const ids = (messages: readonly Message[]): string[] => messages.map((message) => message.id);

/** A post as the official client makes it: the path it holds, then `more`, with the state it holds. */
export async function postWhole(thread: BranchThread, more: Message[], edit?: (path: Message[]) => Message[]): Promise<BegunRun> {
  const now = await current(thread);
  const path = [...now.messages];
  return post(thread, { messages: [...(edit === undefined ? path : edit(path)), ...more], state: now.state });
}

/** A post as our Session makes it: new messages after `forkAfter`, named. */
export function postForked(thread: BranchThread, forkAfter: string | null, messages: Message[] = []): Promise<BegunRun> {
  return post(thread, { messages, forwardedProps: forkForwardedProps(forkAfter) });
}

/**
 * The chat the suite branches from: u1 answered a1 (state `{ n: 1 }`), then u2 answered a2 (state
 * `{ n: 2 }`), each posted as the official client posts (the whole path). Returns the path.
 */
export async function chat(thread: BranchThread): Promise<Message[]> {
  const first = await post(thread, { messages: [user("u1", "hi")] });
  await answer(first.writer, "a1", { state: { n: 1 } });
  const second = await postWhole(thread, [user("u2", "more")]);
  await answer(second.writer, "a2", { state: { n: 2 } });
  return [user("u1", "hi"), answered("a1"), user("u2", "more"), answered("a2")];
}
