/**
 * What `POST {url}/connect` sends (docs/durability.md#stores-and-routes), decided purely from the store's
 * answer: the events after a cursor, or the thread as a compacted prelude. Every stream it plans
 * passes our strict verifier and `@ag-ui/client` 1.0.0's (ag-ui #2813 is the official compaction
 * failing its own verifier), and a fresh client applying it ends with the thread's messages and
 * state.
 */
import { branchesMetadata } from "../../protocol/branchMeta";
import { withRunTrace } from "../../protocol/runTraceMeta";
import { queueMetadata, type QueuedMessage } from "../../protocol/queueMeta";
import { ev, outcome } from "../../protocol/build";
import { PROTOCOL_VERSION } from "../../protocol/version";
import type { Event } from "../../protocol/events";
import type { RunFinishedOutcome } from "../../protocol/outcomes";
import { isTerminal } from "../../thread/isTerminal";
import { listedQueue } from "./queueStatus";
import type { Cursor, ThreadRead } from "./ThreadStore";
import type { ThreadSnapshot } from "../../thread/ThreadSnapshot";

/**
 * One frame of a connect stream. `cursor` is the SSE `id:` to send with it; prelude frames have
 * none except the last, which carries the snapshot's cursor, so that a client cut inside the
 * prelude never resumes from a position it did not fully receive.
 *
 * @example
 * const frame: ConnectFrame = { event: ev.messagesSnapshot([]) };
 */
export interface ConnectFrame {
  readonly event: Event;
  readonly cursor?: Cursor;
  /** The event's JSON text where the tail handed it on (`StoredEvent.json`). */
  readonly json?: string | undefined;
}

/**
 * A connect stream as data: `mode` (`resume`: a continuation of what the client received through
 * its cursor; `snapshot`: a stream that stands alone, starting with RUN_STARTED), the `frames` to
 * send now, and `tailAfter`: when defined, the run is live and `store.tail(threadId, tailAfter)`
 * gives the rest, through its terminal event.
 *
 * @example
 * const plan = planConnect(await store.read(threadId, lastEventId));
 */
export interface ConnectPlan {
  readonly mode: "resume" | "snapshot";
  readonly frames: readonly ConnectFrame[];
  readonly tailAfter: Cursor | undefined;
}

/**
 * How a connect stream is asked for.
 *
 * @example
 * planConnect(read, { reconnect: request.headers.has("last-event-id") });
 */
export interface ConnectStreamOptions {
  /**
   * The client follows a run (it reconnects after a cut: it sent a `Last-Event-ID`, or names the
   * run): a snapshot of a run that ended failed or cancelled then ends as that run ended (RUN_ERROR
   * with its message and code, RUN_FINISHED cancelled), not as history, so the client learns how
   * the run it followed ended. Default `false` (joining a thread: see `connectPrelude`).
   */
  readonly reconnect?: boolean | undefined;
}

/**
 * Plans the connect stream for a store's `read` answer:
 *
 * - **resume** (the cursor is still in the log): the events after it as logged, then — unless the
 *   last is a terminal event — the live tail. Concatenated after what the client received through
 *   its cursor, it is exactly the run as logged, so it passes wherever the uncut run passes.
 * - **snapshot** (no cursor, or an evicted or spent one): `connectPrelude(snapshot)`, then the
 *   live tail while the thread's last run is still running.
 *
 * @example
 * planConnect({ kind: "resume", after: "c4", events: [{ cursor: "c5", event: ev.textMessageContent("m1", "lo") }] });
 * // { mode: "resume", frames: [the TEXT_MESSAGE_CONTENT], tailAfter: "c5" }
 */
export function planConnect(read: ThreadRead, options: ConnectStreamOptions = {}): ConnectPlan {
  switch (read.kind) {
    case "resume": {
      const last = read.events.length === 0 ? undefined : read.events[read.events.length - 1];
      const ended = last !== undefined && isTerminal(last.event);
      return { mode: "resume", frames: read.events, tailAfter: ended ? undefined : (last?.cursor ?? read.after) };
    }
    case "snapshot": {
      const { snapshot } = read;
      const events = connectPrelude(snapshot, options, listedQueue(read.queue ?? [], snapshot));
      const frames: ConnectFrame[] = events.map((event, index) => (index === events.length - 1 ? { event, cursor: snapshot.cursor } : { event }));
      return { mode: "snapshot", frames, tailAfter: snapshot.run.status === "running" ? snapshot.cursor : undefined };
    }
    default: {
      const unexpected: never = read;
      return unexpected;
    }
  }
}

/**
 * The compacted prelude of a thread: RUN_STARTED (the last run's ids, without the input echo: the
 * messages snapshot holds it all; with the run's trace under `metadata["agui-rx"]` when its own
 * RUN_STARTED logged one, docs/observability.md#store-work), MESSAGES_SNAPSHOT (with the path's sibling groups under
 * `metadata["agui-rx"].branches` when it has any, docs/threads.md#branches-on-the-wire, and the
 * thread's waiting messages `queue` under `metadata["agui-rx"].queue` when there are any,
 * docs/queue.md#what-every-tab-sees), STATE_SNAPSHOT, then
 *
 * - while the last run is running: `snapshot.run.reopen`, the events that re-open what it has
 *   open (text messages, tool calls, reasoning blocks and messages, steps) and replay its
 *   subagents' lifecycle; the live tail continues from there;
 * - otherwise: RUN_FINISHED, carrying the pending interrupts (outcome `interrupt`) when the thread
 *   waits on them, outcome `success` when it does not — with `pendingToolCallIds` when the last run
 *   left client tool calls nobody has answered (docs/threads.md#pending-client-tools).
 *
 * How an ended run ended is not replayed as the prelude's end (decision): a thread whose last run
 * failed or was cancelled still connects as a finished replay with its full history, instead of
 * turning every reload into a failure (ag-ui #2408 was the opposite bug: one failed run made a
 * replayed thread hydrate empty). `snapshot.run` says how it ended, for a server that wants to tell;
 * with `reconnect` (a client following that run) the prelude ends as the run ended: RUN_ERROR with
 * its message and code when it failed, RUN_FINISHED `cancelled` when it was stopped (a success's
 * `result` is not kept in the snapshot, so it is not replayed).
 *
 * @example
 * connectPrelude(snapshot).map((event) => event.type);
 * // ["RUN_STARTED", "MESSAGES_SNAPSHOT", "STATE_SNAPSHOT", "RUN_FINISHED"]
 */
export function connectPrelude(snapshot: ThreadSnapshot, options: ConnectStreamOptions = {}, queue: readonly QueuedMessage[] = []): Event[] {
  const { threadId, run } = snapshot;
  const events: Event[] = [
    ev.runStarted(threadId, run.runId, {
      parentRunId: run.parentRunId,
      protocolVersion: PROTOCOL_VERSION,
      ...(run.trace === undefined ? {} : { metadata: withRunTrace(undefined, run.trace) }),
    }),
    ev.messagesSnapshot(snapshot.messages.slice(), snapshotMetadata(snapshot, queue)),
    ev.stateSnapshot(snapshot.state),
    ...replayedSubagents(snapshot),
  ];
  if (run.status === "running") {
    for (const event of run.reopen) events.push(event);
    return events;
  }
  if (options.reconnect === true && run.status === "failed") {
    events.push(ev.runError(run.errorMessage ?? "the run failed", { code: run.errorCode }));
    return events;
  }
  if (options.reconnect === true && run.status === "cancelled") {
    events.push(ev.runFinished(threadId, run.runId, { outcome: { type: "cancelled" } }));
    return events;
  }
  const [first, ...rest] = snapshot.interrupts;
  events.push(ev.runFinished(threadId, run.runId, { outcome: first === undefined ? successOutcome(snapshot) : outcome.interrupt([first, ...rest]) }));
  return events;
}

/**
 * The ended subagents' lifecycle (`snapshot.subagents`) for those the snapshot's messages name, so
 * a joining client heads their groups by name and status (a windowed read replays only its window's).
 */
function replayedSubagents(snapshot: ThreadSnapshot): readonly Event[] {
  const ended = snapshot.subagents ?? [];
  if (ended.length === 0) return ended;
  const named = new Set<string>();
  for (const message of snapshot.messages) if (message.subagentRunId !== undefined) named.add(message.subagentRunId);
  return ended.filter((event) => "subagentRunId" in event && event.subagentRunId !== undefined && named.has(event.subagentRunId));
}

/**
 * The prelude of a thread the caller has never had (docs/threads.md#joining-a-new-thread): valid
 * AG-UI on its own (a run that starts and finishes `success`, the protocol version declared), with
 * no MESSAGES_SNAPSHOT and no STATE_SNAPSHOT, so a client that hydrated messages or state keeps
 * them. `runId` names only this answer (nothing is stored): no later stream or stop knows it.
 *
 * @example
 * newThreadPrelude("t1", "r0").map((event) => event.type); // ["RUN_STARTED", "RUN_FINISHED"]
 */
export function newThreadPrelude(threadId: string, runId: string): Event[] {
  return [ev.runStarted(threadId, runId, { protocolVersion: PROTOCOL_VERSION }), ev.runFinished(threadId, runId, { outcome: outcome.success() })];
}

/** The MESSAGES_SNAPSHOT's options: the path's sibling groups, when it has any, and the thread's waiting messages, when it has any (docs/queue.md#what-every-tab-sees). */
function snapshotMetadata(snapshot: ThreadSnapshot, queue: readonly QueuedMessage[]): { metadata?: Record<string, unknown> } {
  const groups = snapshot.branches?.groups ?? [];
  const branches = groups.length === 0 ? undefined : branchesMetadata(groups);
  if (queue.length === 0) return branches === undefined ? {} : { metadata: branches };
  return { metadata: queueMetadata(queue, branches) };
}

/**
 * The prelude's success: with the client tool calls the thread still waits for, when there are any
 * (docs/threads.md#pending-client-tools), so that a joining Session executes them as if the run had just ended.
 * Only a non-empty list goes on the wire (docs/wire.md#4.10 allows it on 1.0.0's success outcome).
 */
function successOutcome(snapshot: ThreadSnapshot): RunFinishedOutcome {
  const pending = snapshot.pendingToolCallIds ?? [];
  return pending.length === 0 ? outcome.success() : { type: "success", pendingToolCallIds: [...pending] };
}
