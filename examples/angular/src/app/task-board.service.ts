/** The page's one service: a Session on the task-board endpoint, as observables (async pipe) and signals. */
import { Injectable, InjectionToken, computed, inject, signal, type OnDestroy, type Signal } from "@angular/core";
import { toSignal } from "@angular/core/rxjs-interop";
import { map, type Observable } from "rxjs";
import { Session } from "../../../../src/client/Session";
import { HttpTransport } from "../../../../src/client/transports/HttpTransport";
import type { ClientTool } from "../../../../src/client/tools/clientTool";
import { callsOf, type RunningToolCall } from "../../../../src/client/tools/RunningToolCalls";
import type { ClientError } from "../../../../src/thread/ClientError";
import type { RunEnd, Subagent } from "../../../../src/thread/Update";
import type { Message } from "../../../../src/protocol/messages";
import type { Interrupt, ResumeEntry } from "../../../../src/protocol/outcomes";
import { RunController, type RunStatus } from "../../../../src/react/RunController";
import type { CutOff } from "../../../../src/react/UnfinishedParts";
import { answerFor } from "../../../shared/approvals";
import type { PageThread } from "../../../shared/pageThread";
import { confirmDelete, PAGE_TOOLS } from "../../../shared/pageTools";
import { boardSpec, type Board } from "../../../task-board/board";

/** The AG-UI endpoint the service talks to; `/agent` on the page's origin by default. */
export const AGENT_URL = new InjectionToken<string>("AGENT_URL", {
  factory: () => new URL("/agent", location.href).href,
});

/** The tab's thread and the bearer token that owns it (main.ts provides them: `pageThread(sessionStorage)`). */
export const PAGE_THREAD = new InjectionToken<PageThread>("PAGE_THREAD");

/** Where the runs stand: no run, one running, the last one waiting on an interrupt, the last one failed (the type `useRun` reports). */
export type { RunStatus };

/**
 * Owns the Session. Views read the conversation through an observable (`messages$`, for the
 * `async` pipe or `toSignal`) or signals (`board`, `interrupts`, `subagents`, made with
 * `toSignal`), and drive it with `send`, `approve`/`reject`, `connect` and `stop`. The run
 * lifecycle is the framework-free `RunController` that `useRun` reads on the React page (one run
 * at a time; Stop cancels on the server, which keeps the tab's thread; leaving the page only
 * detaches), mirrored into signals: `status`, `error`, `end`, `cutOff` (what Stop left
 * unfinished, for the "stopped" marks), `stopping`, `reconnecting`.
 * The session offers the page's client tools; `clientToolCalls(tool)` is the running calls of one
 * tool as a signal (what `useClientTool` renders on the React page), and `confirmations` those of
 * `confirm_delete`, each answered with its own `respond`.
 */
@Injectable({ providedIn: "root" })
export class TaskBoardService implements OnDestroy {
  private readonly page = inject(PAGE_THREAD);
  readonly session = new Session<Board>(new HttpTransport(inject(AGENT_URL), { headers: { Authorization: `Bearer ${this.page.token}` } }), {
    threadId: this.page.threadId,
    state: boardSpec,
    tools: PAGE_TOOLS,
  });

  /** The messages, for the async pipe. */
  readonly messages$: Observable<readonly Message[]> = this.session.messages$;

  /** The shared state, typed. */
  readonly board: Signal<Board | undefined> = toSignal(this.session.state$, { initialValue: this.session.state });
  readonly interrupts: Signal<readonly Interrupt[]> = toSignal(this.session.interrupts$, { initialValue: this.session.interrupts });
  readonly subagents: Signal<readonly Subagent[]> = toSignal(this.session.subagents$, { initialValue: this.session.subagents });
  /** The pending `confirm_delete` calls: one card each, every call of the turn. */
  readonly confirmations = this.clientToolCalls(confirmDelete);
  /** The ids of the calls waiting for the user, for their tool cards. */
  readonly waiting: Signal<ReadonlySet<string>> = computed(() => new Set(this.confirmations().map((call) => call.toolCallId)));

  private readonly runs = RunController.of(this.session);
  private readonly snapshot = signal(this.runs.getSnapshot());
  private readonly unlisten = this.runs.subscribe(() => this.snapshot.set(this.runs.getSnapshot()));
  /** The run status. */
  readonly status: Signal<RunStatus> = computed(() => this.snapshot().status);
  /** The last error update of the current or last run. */
  readonly error: Signal<ClientError | undefined> = computed(() => this.snapshot().error);
  /** How the last run ended. */
  readonly end: Signal<RunEnd | undefined> = computed(() => this.snapshot().end);
  /** What Stop cut off over this session's runs: messages mid-text and tool calls without a result. */
  readonly cutOff: Signal<CutOff> = computed(() => this.snapshot().cutOff);
  /** Stop was pressed and the server is ending the run. */
  readonly stopping: Signal<boolean> = computed(() => this.snapshot().stopping);
  /** The reconnect attempt under way while the run's connection is lost. */
  readonly reconnecting: Signal<number | undefined> = computed(() => this.snapshot().reconnecting);

  /**
   * The running calls of one client tool of the session, typed by it: `args` decoded, `respond`
   * answering the call. Call it in an injection context (a field initializer), as `toSignal` needs.
   */
  clientToolCalls<A, R>(tool: ClientTool<A, R>): Signal<readonly RunningToolCall<A, R>[]> {
    const calls$ = this.session.runningToolCalls$.pipe(map((calls) => callsOf(calls, tool)));
    return toSignal(calls$, { initialValue: callsOf(this.session.runningToolCalls, tool) });
  }

  /** Sends a user message and runs the agent. */
  send(text: string): void {
    this.runs.send(text);
  }

  /** Approves a pending interrupt (resolved, with `{ approved: true }`). */
  approve(interrupt: Interrupt): void {
    this.resume([answerFor(interrupt, "approve")]);
  }

  /** Rejects a pending interrupt (cancelled). */
  reject(interrupt: Interrupt): void {
    this.resume([answerFor(interrupt, "reject")]);
  }

  /** Answers interrupts and runs the agent again. */
  resume(answers: ResumeEntry[]): void {
    this.runs.resume(answers);
  }

  /** Joins the thread on the server: its history, and the live rest of a run in progress. */
  connect(): void {
    this.runs.connect();
  }

  /** Cancels the active run on the server (it ends `cancelled`, for every tab on the thread). */
  stop(): void {
    this.runs.stop();
  }

  ngOnDestroy(): void {
    this.unlisten();
    this.runs.detach();
  }
}
