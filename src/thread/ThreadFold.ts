/**
 * A thread's compacted state, kept up to date event by event with the client's own reducer, which
 * lives beside it on the thread floor (docs/architecture.md#layer-order; docs/durability.md#stores-and-routes:
 * never a second implementation): the store's half of "the client would build the same".
 */
import type { Event, RunStartedEvent } from "../protocol/events";
import { applyEvent } from "./reducers/applyEvent";
import type { Message } from "../protocol/messages";
import { ClientState } from "./reducers/ClientState";
import type { MessageList } from "./reducers/MessageList";
import { OpenSpans } from "./OpenSpans";
import { forkMarkerOf, type BranchGroup, type ForkMarker } from "../protocol/branchMeta";
import { PathBranches, type SelectResult } from "./branches/PathBranches";
import type { SiblingHead } from "./branches/stateBefore";
import { runTraceOf, type RunTrace } from "../protocol/runTraceMeta";
import type { RunSummaryStatus, RunSummary, ThreadSnapshot } from "./ThreadSnapshot";
import { endedSubagentEvents } from "./endedSubagents";
import { applySubagentEvent } from "./reducers/subagentRules";
import type { Subagent } from "./Update";

/** A position in the thread's log (the store's `Cursor`): the snapshot names the last event folded into it by one. */
type Cursor = ThreadSnapshot["cursor"];

/** The mutable half of a RunSummary; `reopen` comes from the spans when a snapshot is taken. */
interface RunRecord {
  runId: string;
  parentRunId: string | undefined;
  status: RunSummaryStatus;
  errorMessage: string | undefined;
  errorCode: string | undefined;
  /** The trace its RUN_STARTED named (`runTraceOf`), if it was traced. */
  trace: RunTrace | undefined;
}

/**
 * Folds a thread's events, in log order, into what a client holds after them: each event goes
 * through `applyEvent` on an untyped `ClientState` (messages, raw state, pending interrupts), and
 * the last run's status and open spans are followed beside it, and so are the client tool calls a
 * run that ended with success left pending (`pendingToolCallIds`, from its outcome, until the next
 * run starts). Cost per event is the reducer's
 * (proportional to the event); `snapshot()` copies nothing but the open-span list.
 *
 * Fold a run's RUN_STARTED with its `input` (docs/rules.md#A15 appends the input's messages the thread does not
 * have yet), even if the copy that is logged and sent leaves the input out.
 *
 * @example
 * const fold = new ThreadFold("t1");
 * fold.apply(ev.runStarted("t1", "r1", { input }), "c1");
 * fold.apply(ev.textMessageStart("m1"), "c2");
 * fold.snapshot().run.reopen; // [TEXT_MESSAGE_START m1]
 */
export class ThreadFold {
  private readonly client: ClientState<unknown>;
  private spans = new OpenSpans();
  private run: RunRecord | undefined;
  private cursor: Cursor | undefined;
  /** The client tool calls the last run left to the client and no run has taken up since (docs/threads.md#pending-client-tools). */
  private pendingToolCallIds: readonly string[] = [];
  /** The forks and state checkpoints beside the path (docs/threads.md#the-tree). */
  private branches = new PathBranches();
  /** The last `subagents` replay built, and the registry and run it was built from: a snapshot rebuilds it only when one changed. */
  private ended: { readonly registry: readonly Subagent[]; readonly reopen: readonly Event[]; readonly events: readonly Event[] } | undefined;

  /** A fold of a new, empty thread. */
  constructor(threadId: string);
  /** @internal A fold over a reducer state the caller already holds (a store's, `restore`'s); left out of the published types with `ClientState`. */
  constructor(threadId: string, client: ClientState<unknown>);
  constructor(
    readonly threadId: string,
    client: ClientState<unknown> = ClientState.untyped(),
  ) {
    this.client = client;
  }

  /**
   * A fold that continues from `snapshot` (a store that persists snapshots reads one back):
   * folding the events after `snapshot.cursor` gives what folding everything would have.
   */
  static restore(snapshot: ThreadSnapshot): ThreadFold {
    const client = ClientState.untyped(snapshot.state);
    client.messages.reset(snapshot.messages);
    client.interrupts = snapshot.interrupts;
    for (const event of snapshot.subagents ?? []) {
      if (event.type === "SUBAGENT_STARTED" || event.type === "SUBAGENT_FINISHED" || event.type === "SUBAGENT_ERROR") applySubagentEvent(client, event);
    }
    const fold = new ThreadFold(snapshot.threadId, client);
    const { run } = snapshot;
    fold.run = {
      runId: run.runId,
      parentRunId: run.parentRunId,
      status: run.status,
      errorMessage: run.errorMessage,
      errorCode: run.errorCode,
      trace: run.trace,
    };
    if (run.status === "running") fold.spans = OpenSpans.from(run.reopen);
    fold.pendingToolCallIds = snapshot.pendingToolCallIds ?? [];
    fold.branches = PathBranches.from(snapshot.branches);
    fold.cursor = snapshot.cursor;
    return fold;
  }

  /** The selected path read by position, in place (the fold's own list: no copy); it changes as the fold does. */
  get path(): { readonly length: number; at(index: number): Message; indexOf(id: string): number } {
    return this.client.messages;
  }

  /** Where the selected path ends (its message count and last message id), in O(1): what `BeginOptions.expectPath` compares. */
  pathMark(): { readonly count: number; readonly lastId: string | null } {
    const { messages } = this.client;
    return { count: messages.length, lastId: messages.length === 0 ? null : messages.at(messages.length - 1).id };
  }

  /** Whether a run has started and not yet ended. */
  get running(): boolean {
    return this.run?.status === "running";
  }

  /** Folds one event logged at `cursor`. */
  apply(event: Event, cursor: Cursor): void {
    if (event.type === "RUN_STARTED") this.branchAt(event);
    applyEvent(this.client, event);
    this.cursor = cursor;
    switch (event.type) {
      case "RUN_STARTED":
        this.startRun(event);
        break;
      case "RUN_FINISHED":
        this.endRun(statusOf(event.outcome?.type), undefined, undefined, event.outcome?.type === "success" ? event.outcome.pendingToolCallIds : undefined);
        break;
      case "RUN_ERROR":
        this.endRun("failed", event.message, event.code, undefined);
        break;
      default:
        if (this.running) this.spans.apply(event);
        break;
    }
  }

  /**
   * Whether the thread waits on answers (docs/queue.md#policies): the pending interrupts, or the
   * client tool calls its last run left. O(1), unlike a snapshot.
   */
  awaitsAnswers(): boolean {
    return this.client.interrupts.length > 0 || this.pendingToolCallIds.length > 0;
  }

  /**
   * The compacted thread through the last folded event, or `undefined` before any. Its arrays
   * are the fold's own immutable snapshots (the message list's frozen copy, the interrupts).
   * With `lastMessages`, `messages` holds only the last that many, read one by one: no copy of
   * the whole list, so a connect with a limit costs the same on a long thread (docs/threads.md#paginated-history).
   */
  snapshot(lastMessages?: number): ThreadSnapshot | undefined {
    const run = this.run;
    const cursor = this.cursor;
    if (run === undefined || cursor === undefined) return undefined;
    const reopen = run.status === "running" ? this.spans.reopeners() : [];
    const subagents = this.endedSubagents(reopen);
    const summary: RunSummary = {
      runId: run.runId,
      status: run.status,
      reopen,
      ...(run.parentRunId === undefined ? {} : { parentRunId: run.parentRunId }),
      ...(run.errorMessage === undefined ? {} : { errorMessage: run.errorMessage }),
      ...(run.errorCode === undefined ? {} : { errorCode: run.errorCode }),
      ...(run.trace === undefined ? {} : { trace: run.trace }),
    };
    return {
      threadId: this.threadId,
      cursor,
      messages: lastMessages === undefined ? this.client.messages.snapshot() : lastOf(this.client.messages, lastMessages),
      state: this.client.rawState ?? null,
      interrupts: this.client.interrupts,
      run: summary,
      ...(this.pendingToolCallIds.length === 0 ? {} : { pendingToolCallIds: this.pendingToolCallIds }),
      ...(this.branches.empty ? {} : { branches: this.branches.tree(this.client) }),
      ...(subagents.length === 0 ? {} : { subagents }),
    };
  }

  /** The ended subagents' lifecycle, minus those the live run replays in `reopen` (built again only when the registry or the live run's lifecycle changed). */
  private endedSubagents(reopen: readonly Event[]): readonly Event[] {
    const registry = this.client.subagentList();
    const lifecycle = reopen.filter((event) => event.type === "SUBAGENT_STARTED");
    const cached = this.ended;
    if (cached !== undefined && cached.registry === registry && sameEvents(cached.reopen, lifecycle)) return cached.events;
    const live = new Set(lifecycle.flatMap((event) => (event.type === "SUBAGENT_STARTED" ? [event.subagentRunId] : [])));
    const events = endedSubagentEvents(registry, live);
    this.ended = { registry, reopen: lifecycle, events };
    return events;
  }

  /**
   * The RUN_STARTED marker for a run that starts a sibling after `after` (docs/threads.md#the-tree),
   * or `undefined` when the path ends there (the run just continues it). `after` must be on the path.
   */
  forkMarker(after: string | null): ForkMarker | undefined {
    return this.branches.markerFor(this.client, after);
  }

  /**
   * The state a sibling started after `after` begins with: the state before the run of the user
   * message it answers (`head` `answer`, the default: a regenerate) or replaces (`user`: an edit).
   */
  forkState(after: string | null, head: SiblingHead = "answer"): unknown {
    return this.branches.stateAfter(this.client, after, head);
  }

  /** The sibling groups of the selected path, as the wire shows them. */
  groups(): readonly BranchGroup[] {
    return this.branches.groups(this.client);
  }

  /**
   * Shows sibling `index` of the group of the path's message `messageId` (docs/threads.md#the-tree):
   * the path, state, interrupts and pending client calls become that sibling's. Not while a run is
   * live (the store refuses first). The cursor does not move: a switch logs no event.
   */
  select(messageId: string, index: number): SelectResult {
    const { result, pending } = this.branches.select(this.client, messageId, index, this.pendingToolCallIds);
    if (pending !== undefined) this.pendingToolCallIds = pending;
    return result;
  }

  /** Before a RUN_STARTED is applied: its fork (a sibling starts), then the checkpoint of the state it starts from. */
  private branchAt(event: RunStartedEvent): void {
    const marker = forkMarkerOf(event.metadata);
    if (marker !== undefined) this.branches.fork(this.client, marker, this.pendingToolCallIds, event.input?.messages);
    this.branches.checkpoint(this.client);
  }

  private startRun(event: RunStartedEvent): void {
    this.run = {
      runId: event.runId,
      parentRunId: event.parentRunId,
      status: "running",
      errorMessage: undefined,
      errorCode: undefined,
      trace: runTraceOf(event.metadata),
    };
    this.spans = new OpenSpans();
    // docs/threads.md#pending-client-tools: a new run ends the wait — the tool messages of its input answered
    // their calls, and a call it left unanswered is one the client moved on from (nobody resumes it any more)
    this.pendingToolCallIds = [];
  }

  /** Ends the run; `pending` is a success outcome's `pendingToolCallIds` (only a success leaves calls to the client, docs/wire.md#4.10). */
  private endRun(status: RunSummaryStatus, errorMessage: string | undefined, errorCode: string | undefined, pending: readonly string[] | undefined): void {
    if (this.run === undefined) return; // a terminal before any RUN_STARTED (docs/rules.md#R1 allows RUN_ERROR first): nothing to end
    this.run = { ...this.run, status, errorMessage, errorCode };
    this.spans = new OpenSpans();
    // docs/threads.md#pending-client-tools: a cancelled or failed run leaves none (the next run's input closes its open calls)
    this.pendingToolCallIds = pending === undefined ? [] : [...new Set(pending)];
  }
}

function statusOf(outcome: "success" | "interrupt" | "cancelled" | undefined): RunSummaryStatus {
  switch (outcome) {
    case undefined:
    case "success":
      return "finished";
    case "interrupt":
      return "interrupted";
    case "cancelled":
      return "cancelled";
    default: {
      const unexpected: never = outcome;
      return unexpected;
    }
  }
}

function sameEvents(a: readonly Event[], b: readonly Event[]): boolean {
  return a.length === b.length && a.every((event, index) => event === b[index]);
}

/** The last `count` messages of `list`, oldest first, read by position (O(count)). */
function lastOf(list: MessageList, count: number): readonly Message[] {
  const out: Message[] = [];
  for (let index = Math.max(0, list.length - count); index < list.length; index++) out.push(list.at(index));
  return out;
}
