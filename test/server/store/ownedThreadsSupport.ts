/**
 * What the owned-threads contract suites (docs/threads.md#owners, #the-thread-list) share: the
 * store and clock of the running test, unique owners and thread ids (stores sharing one backend
 * never see each other's), and small helpers that run a thread's runs through the interface.
 */
import { firstValueFrom, lastValueFrom, take, toArray, type Observable } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { StoreError, type StoreErrorCode } from "../../../src/server/store/StoreError";
import { rejection } from "./threadStoreContract";
import type { BeginOptions, RunWriter, ThreadRead, ThreadStore } from "../../../src/server/store/ThreadStore";
import type { ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";
import type { ManualClock } from "./manualClock";

/** The store and clock of the test that is running (fresh for each test). */
export interface OwnedContext {
  readonly store: ThreadStore;
  readonly clock: ManualClock;
  /** The lease the store was made with, in ms of `clock`. */
  readonly lease: number;
}

let made = 0;
const unique = (): string => `${process.pid}-${Date.now().toString(36)}-${made++}`;
/** An owner no other test uses, so its list starts empty on a shared backend. */
export const newOwner = (): string => `owner-${unique()}`;
/** A thread id no other test uses. */
export const newThreadId = (): string => `owned-${unique()}`;

/** A user message with text. */
export const user = (id: string, content: string): Message => ({ id, role: "user", content });
/** An assistant message with text, as the fold builds it from `text`. */
export const assistant = (id: string, content: string): Message => ({ id, role: "assistant", content });
/** One whole text message of the run, in three events. */
export const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];
/** The success end of run `runId`. */
export const finished = (threadId: string, runId: string): Event => ev.runFinished(threadId, runId, { outcome: { type: "success" } });

/** Begins run `runId` on `threadId` as `owner` with the input `messages`. */
export function begin(store: ThreadStore, owner: string | undefined, threadId: string, runId: string, messages: Message[] = [], options: BeginOptions = {}) {
  return store.beginRun(runAgentInput(threadId, runId, { messages }), { owner, ...options });
}

/**
 * One whole turn: run `runId` with the user message `u<n>` (after the `history` the client holds),
 * answered by the assistant message `a<n>`, then finished. Returns the writer (over) and the path.
 */
export async function turn(
  store: ThreadStore,
  owner: string | undefined,
  threadId: string,
  n: number,
  history: Message[] = [],
): Promise<{ writer: RunWriter; path: Message[] }> {
  const question = user(`u${n}`, `question ${n}`);
  const writer = await begin(store, owner, threadId, `r${n}`, [...history, question]);
  await writer.append([...text(`a${n}`, `answer ${n}`), finished(threadId, `r${n}`)]);
  return { writer, path: [...history, question, assistant(`a${n}`, `answer ${n}`)] };
}

/** `turns` whole turns on one thread; returns the path they made (u1, a1, u2, a2, …). */
export async function conversation(store: ThreadStore, owner: string | undefined, threadId: string, turns: number): Promise<Message[]> {
  let path: Message[] = [];
  for (let n = 1; n <= turns; n++) path = (await turn(store, owner, threadId, n, path)).path;
  return path;
}

/** The snapshot of a read that must take the snapshot path. */
export function snapshotOf(read: ThreadRead | undefined): ThreadSnapshot {
  if (read?.kind !== "snapshot") throw new Error(`expected the snapshot path, got ${read === undefined ? "an unknown thread" : read.kind}`);
  return read.snapshot;
}

/** Every value of a source that completes (a tail, a stop watch). */
export function collect<T>(source: Observable<T>): Promise<T[]> {
  return lastValueFrom(source.pipe(toArray()));
}

/** The next `count` values of a hot source, subscribed now (no sleeping: it resolves when they have come). */
export function nextValues<T>(source: Observable<T>, count: number): Promise<T[]> {
  return firstValueFrom(source.pipe(take(count), toArray()));
}

/** Expects `promise` to reject with a StoreError of `code`, and returns it. */
export async function expectRefused(promise: Promise<unknown>, code: StoreErrorCode): Promise<StoreError> {
  const error = await rejection(promise);
  expect(error.code).toBe(code);
  return error;
}
