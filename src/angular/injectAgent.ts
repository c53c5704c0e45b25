/** A Session as Angular signals: what a component reads (messages, state, run status …) and the calls that drive it. */
import { assertInInjectionContext, computed, DestroyRef, inject, signal, type InjectionToken, type Signal } from "@angular/core";
import {
  callsOf,
  RunController,
  sameBranchInfo,
  sessionTicks,
  type ClientError,
  type ClientTool,
  type CutOff,
  type RunEnd,
  type RunningToolCall,
  type RunSnapshot,
  type RunStatus,
  type BranchInfo,
  type CancelQueuedResult,
  type QueuedMessage,
  type SendOptions,
  type Session,
  type Subagent,
} from "../client";
import type { Interrupt, ResumeEntry } from "../protocol/outcomes";
import type { Message, UserMessage } from "../protocol/messages";
import { AGENT_SESSION } from "./provideAgent";

/**
 * One component's view of a Session: read-only signals that refresh after the session changes
 * (at most once per frame), and the calls that start, answer, stop and join runs. A signal's
 * value keeps its identity until it changes (the session's values are structurally shared), so
 * `computed`s and `@for (…; track …)` redo only what moved.
 *
 * @example
 * const agent: AgentView<Board> = injectAgent(BOARD);
 * agent.status(); // "idle"
 */
export interface AgentView<S> {
  /** The session itself, for what the signals do not cover (`threadId`, `messages$`, `stop()` as a promise …). */
  readonly session: Session<S>;
  readonly messages: Signal<readonly Message[]>;
  /** The shared state, typed by the session's StateSpec; `undefined` while it does not decode. */
  readonly state: Signal<S | undefined>;
  /** What the agent waits on: answer with `resume`. Read it rather than `status() === "interrupted"` (a refused send leaves `failed` while an interrupt still waits). */
  readonly interrupts: Signal<readonly Interrupt[]>;
  readonly subagents: Signal<readonly Subagent[]>;
  /** The client tool calls the session is executing now (each with `respond`). */
  readonly runningToolCalls: Signal<readonly RunningToolCall[]>;
  /** The run lifecycle as one value (`RunController`'s snapshot); the six signals below are its fields. */
  readonly run: Signal<RunSnapshot>;
  readonly status: Signal<RunStatus>;
  readonly error: Signal<ClientError | undefined>;
  readonly end: Signal<RunEnd | undefined>;
  /** What Stop left unfinished, over the session's runs: mark these messages "stopped". */
  readonly cutOff: Signal<CutOff>;
  readonly stopping: Signal<boolean>;
  readonly reconnecting: Signal<number | undefined>;
  /** The running calls of one client tool (by the tool object the session was given, typed by it, or by name). */
  toolCalls<A, R>(tool: ClientTool<A, R>): Signal<readonly RunningToolCall<A, R>[]>;
  toolCalls(name: string): Signal<readonly RunningToolCall[]>;
  /**
   * Sends a user message and runs the agent (detaching from an active run first: the latest wins);
   * with `{ whileRunning }` other than `refuse` (docs/queue.md#in-the-client) the active run goes
   * on and the message waits in `queued` until its run starts.
   */
  send(message: string | UserMessage, options?: SendOptions): void;
  /** The thread's waiting messages, this tab's and others' (`session.queued`, docs/queue.md#in-the-client). */
  readonly queued: Signal<readonly QueuedMessage[]>;
  /** Cancels a waiting message (`session.cancelQueued`): `cancelled`, `started`, `taken` or `unknown`. */
  cancelQueued(id: string): Promise<CancelQueuedResult>;
  /** Answers the pending interrupts and runs the agent again. */
  resume(answers: readonly ResumeEntry[]): void;
  /** Where a message stands among its siblings (`session.branches`), refreshed after the path or its groups change; the value keeps its identity while it stays the same. */
  branches(messageId: string): Signal<BranchInfo>;
  /** Edits a user message (a sibling with new content) and runs from there (docs/client.md#branches). */
  edit(messageId: string, content: UserMessage["content"]): void;
  /** Another answer to the user message at or before `messageId` (the last one without it). */
  regenerate(messageId?: string): void;
  /** Shows another sibling (`session.selectBranch`); resolves once the new path is shown, rejects with the refusal. */
  selectBranch(messageId: string, index: number): Promise<void>;
  /** Joins the thread on the server: its history, and a run in progress (call it when the page loads). */
  connect(): void;
  /** Cancels the active run: on the server when it keeps threads (the run ends `cancelled`), else by aborting the request. */
  stop(): void;
  /** Lets go of the active run (a server that keeps it goes on; one that does not aborts it). */
  detach(): void;
}

/**
 * The {@link AgentView} of the provided Session (`provideAgent`), for a component, directive or
 * service: call it in an injection context (a field initializer or constructor). Its listener on
 * the session is removed through the caller's `DestroyRef` when the caller is destroyed; the run
 * itself belongs to the session's provider, which detaches it when its own injector goes. Every
 * view of one session shares its run (`RunController.of(session)`).
 *
 * @example
 * export class ChatComponent {
 *   protected readonly agent = injectAgent(BOARD);
 *   protected readonly canSend = computed(() => this.agent.status() !== "running" && this.agent.interrupts().length === 0);
 *   constructor() { this.agent.connect(); }
 * }
 */
export function injectAgent(): AgentView<unknown>;
export function injectAgent<S>(token: InjectionToken<Session<S>>): AgentView<S>;
export function injectAgent<S>(token?: InjectionToken<Session<S>>): AgentView<S> | AgentView<unknown> {
  assertInInjectionContext(injectAgent);
  return token === undefined ? agentOf(inject(AGENT_SESSION)) : agentOf(inject(token));
}

/** Builds the view in the current injection context: one tick listener and one run listener, both removed on destroy. */
function agentOf<S>(session: Session<S>): AgentView<S> {
  const runs = RunController.of(session);
  // One counter bumped per tick; each reading is a computed over it, whose equality (Object.is)
  // keeps a value that did not change from notifying its readers.
  const ticks = signal(0);
  const run = signal(runs.getSnapshot());
  const subscription = sessionTicks(session).subscribe(() => ticks.update((n) => n + 1));
  const unlisten = runs.subscribe(() => run.set(runs.getSnapshot()));
  inject(DestroyRef).onDestroy(() => {
    subscription.unsubscribe();
    unlisten();
  });
  const read = <T>(value: () => T): Signal<T> =>
    computed(() => {
      ticks();
      return value();
    });
  const runningToolCalls = read(() => session.runningToolCalls);
  function toolCalls<A, R>(tool: ClientTool<A, R>): Signal<readonly RunningToolCall<A, R>[]>;
  function toolCalls(name: string): Signal<readonly RunningToolCall[]>;
  function toolCalls<A, R>(tool: ClientTool<A, R> | string): Signal<readonly RunningToolCall<A, R>[]> | Signal<readonly RunningToolCall[]> {
    return typeof tool === "string" ? computed(() => callsOf(runningToolCalls(), tool)) : computed(() => callsOf(runningToolCalls(), tool));
  }
  return {
    session,
    messages: read(() => session.messages),
    state: read(() => session.state),
    interrupts: read(() => session.interrupts),
    subagents: read(() => session.subagents),
    runningToolCalls,
    queued: read(() => session.queued),
    cancelQueued: runs.cancelQueued,
    run: run.asReadonly(),
    status: computed(() => run().status),
    error: computed(() => run().error),
    end: computed(() => run().end),
    cutOff: computed(() => run().cutOff),
    stopping: computed(() => run().stopping),
    reconnecting: computed(() => run().reconnecting),
    toolCalls,
    branches: (messageId: string) =>
      computed(
        () => {
          ticks();
          return session.branches(messageId);
        },
        { equal: sameBranchInfo },
      ),
    edit: runs.edit,
    regenerate: runs.regenerate,
    selectBranch: (messageId: string, index: number) => session.selectBranch(messageId, index),
    send: runs.send,
    resume: runs.resume,
    connect: runs.connect,
    stop: runs.stop,
    detach: runs.detach,
  };
}
