/** Starting a thread's first waiting message (docs/queue.md#who-starts-a-waiting-message): any instance may try; exactly one starts it. */
import { handlerRunSpans } from "../tracing/handlerRunSpans";
import type { RunSpans } from "../tracing/RunSpans";
import { ev } from "../../protocol/build";
import { excerpt } from "../../protocol/describeFailure";
import { randomIds } from "../ids";
import { reconcileHistory } from "../history/reconcileHistory";
import type { QueuedRun } from "../store/QueuedRun";
import { awaitsAnswers } from "../store/queueStatus";
import { StoreError } from "../store/StoreError";
import type { SnapshotRead, StoreScope, ThreadStore } from "../store/ThreadStore";
import type { HandlerContext } from "./HandlerContext";
import type { RunFunction } from "./HandlerOptions";
import { startStoredRun } from "./startStoredRun";

/** How often a drain reads the thread again after `history-moved` (an `ABANDONED` end moves the cursor between the read and the begin). */
const HISTORY_MOVED_RETRIES = 3;

/**
 * Tries to start the thread's first waiting message: reads the thread (as `scope`: first its last
 * message only, then, when a message may start, its whole path); does nothing when it is unknown,
 * a run is live, it waits on answers (pending interrupts or client tool results) or its queue is
 * empty. Otherwise reconciles the head's input with the thread as it is
 * now (the anchor rule, as a post is; a refusal cancels the entry with the refusal's message as
 * its `reason`, and the next entry is tried), asks the handler's `route` with a request rebuilt
 * from the entry's URL and input (`POST`, its JSON body, no other header; a `Response` or a throw
 * cancels the entry saying so), then `beginRun` with `dequeue`, as the entry's owner (its
 * decision stands, docs/queue.md#policies), and runs it with no response attached
 * (`startStoredRun`; its end drains again). Losing the race (`queue-moved`, `run-active`) is
 * quiet: someone else started something; `history-moved` is read again a few times. Never
 * rejects: a store failure is reported to `onRunError` and the next trigger tries again.
 *
 * @example
 * void drainQueue(store, threadId, caller.scope, context);
 */
export async function drainQueue(store: ThreadStore, threadId: string, scope: StoreScope, context: HandlerContext): Promise<void> {
  let moved = 0;
  // Each refused head leaves the queue, which holds at most `maxMessages`; the bound only guards a store that keeps a cancelled head.
  for (let turn = 0; turn <= context.queue.maxMessages + HISTORY_MOVED_RETRIES; turn++) {
    const next = await tryHead(store, threadId, scope, context);
    if (next === "done") return;
    if (next === "moved" && ++moved > HISTORY_MOVED_RETRIES) return;
  }
}

/** One attempt: `done` (started, nothing to start, or someone else's), `next` (the head was cancelled: try the next), `moved` (read again). */
async function tryHead(store: ThreadStore, threadId: string, scope: StoreScope, context: HandlerContext): Promise<"done" | "next" | "moved"> {
  let head: QueuedRun | undefined;
  let spans: RunSpans | undefined;
  try {
    // Every stored run's end drains, and most threads have nothing waiting: the first look reads the
    // queue and the run's status with one message of the path (`limit: 1`, a cost that does not grow
    // with the thread), and only a head that may start is worth the whole path its anchor is checked
    // against. A full read here cost every run a second read of its whole thread.
    const look = await store.read(threadId, undefined, { ...scope, limit: 1 });
    if (look === undefined || look.kind !== "snapshot" || !mayStart(look)) return "done";
    const read = await store.read(threadId, undefined, scope);
    if (read === undefined || read.kind !== "snapshot" || !mayStart(read)) return "done";
    head = read.queue?.[0];
    const { snapshot } = read;
    if (head === undefined) return "done";
    const verdict = reconcileHistory(snapshot, head.input, randomIds);
    if ("error" in verdict) {
      await store.cancelQueued(threadId, head.id, `refused when its turn came: ${verdict.message}`, { owner: head.owner });
      return "next";
    }
    const request = rebuiltRequest(head);
    const chosen = await routed(request, head, context);
    if (typeof chosen === "string") {
      await store.cancelQueued(threadId, head.id, chosen, { owner: head.owner });
      return "next";
    }
    const path = verdict.expectPath === undefined ? {} : { expectPath: verdict.expectPath };
    // A waiting message's run begins its own trace (no request of its own is traced), its span first so the logged RUN_STARTED carries it.
    spans = handlerRunSpans(context.telemetry, request, verdict.input, {
      agentName: chosen === undefined ? context.agentName : undefined,
      responseIsRun: false,
    });
    const runTrace = spans === undefined ? {} : { runTrace: spans.trace };
    const writer = await store.beginRun(verdict.input, { owner: head.owner, expectCursor: verdict.expectCursor, ...path, dequeue: head.id, ...runTrace });
    if (verdict.recordState) await writer.append([ev.stateSnapshot(verdict.input.state)]);
    startStoredRun(writer, verdict.input, chosen, context, { request, spans, scope, onEnd: () => void drainQueue(store, threadId, scope, context) });
    return "done";
  } catch (error) {
    spans?.streamEnded("error", StoreError.isInstance(error) ? error.code : "_OTHER", "the waiting message's run did not begin");
    if (StoreError.isInstance(error)) {
      if (error.code === "history-moved") return "moved";
      if (error.code === "queue-moved" || error.code === "run-active" || error.code === "deleted") return "done";
    }
    context.onRunError(error, { threadId, runId: head?.id ?? "(the thread's queue)" });
    return "done";
  }
}

/** Whether the read shows a waiting message that may start now: one is queued, no run is live, and the thread waits on no answers. */
function mayStart(read: SnapshotRead): boolean {
  return read.queue !== undefined && read.queue.length > 0 && read.snapshot.run.status !== "running" && !awaitsAnswers(read.snapshot);
}

/** The request `route` is asked with when a waiting message starts: its URL and input, no headers (docs/queue.md#policies). */
function rebuiltRequest(entry: QueuedRun): Request {
  return new Request(entry.url ?? "http://localhost/", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(entry.input),
  });
}

/** What `route` chose for the entry, or why the entry cannot start (a sentence for its `reason`). */
async function routed(request: Request, entry: QueuedRun, context: HandlerContext): Promise<RunFunction | undefined | string> {
  if (context.route === undefined) return undefined;
  try {
    const chosen = await context.route(request, entry.input);
    return chosen instanceof Response ? `refused when its turn came: route answered ${chosen.status}` : chosen;
  } catch (error) {
    return `refused when its turn came: route failed: ${error instanceof Error ? error.message : excerpt(error)}`;
  }
}
