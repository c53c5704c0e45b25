/** The page's one service: a Session on the task-board endpoint, as observables (async pipe) and signals. */
import { Injectable, InjectionToken, computed, inject, signal, type OnDestroy, type Signal } from "@angular/core";
import { toSignal } from "@angular/core/rxjs-interop";
import { map, tap, type Observable, type Subscription } from "rxjs";
import { Session } from "../../../../src/client/Session";
import { HttpTransport } from "../../../../src/client/transports/HttpTransport";
import { coalesceUpdates } from "../../../../src/client/coalesceUpdates";
import type { ClientTool } from "../../../../src/client/tools/clientTool";
import { callsOf, type RunningToolCall } from "../../../../src/client/tools/RunningToolCalls";
import { ClientError } from "../../../../src/client/ClientError";
import type { RunEnd, Subagent, Update } from "../../../../src/client/Update";
import type { Message } from "../../../../src/protocol/messages";
import type { Interrupt, ResumeEntry } from "../../../../src/protocol/outcomes";
import type { RunStatus } from "../../../../src/react/RunController";
import { mergeCutOff, NOTHING_CUT_OFF, UnfinishedParts, type CutOff } from "../../../../src/react/UnfinishedParts";
import { answerFor } from "../../../shared/approvals";
import { confirmDelete, PAGE_TOOLS } from "../../../shared/pageTools";
import { boardSpec, type Board } from "../../../task-board/board";

/** The AG-UI endpoint the service talks to; `/agent` on the page's origin by default. */
export const AGENT_URL = new InjectionToken<string>("AGENT_URL", {
  factory: () => new URL("/agent", location.href).href,
});

/** Where the runs stand: no run, one running, the last one waiting on an interrupt, the last one failed (the type `useRun` reports). */
export type { RunStatus };

/**
 * Owns the Session. Views read the conversation through an observable (`messages$`, for the
 * `async` pipe or `toSignal`) or signals (`board`, `interrupts`, `subagents`, made with `toSignal`), and
 * drive it with `send`, `approve`/`reject` and `stop`. One run at a time: starting one stops the
 * active one. A run's updates are coalesced per animation frame (`coalesceUpdates`), so forty
 * text deltas in a frame cost one change detection pass. `cutOff` names what Stop left
 * unfinished (for the "stopped" marks), as `useRun(session).cutOff` does on the React page.
 * The session offers the page's client tools; `clientToolCalls(tool)` is the running calls of one
 * tool as a signal (what `useClientTool` renders on the React page), and `confirmations` those of
 * `confirm_delete`, each answered with its own `respond`.
 */
@Injectable({ providedIn: "root" })
export class TaskBoardService implements OnDestroy {
  readonly session = new Session<Board>(new HttpTransport(inject(AGENT_URL)), { threadId: `board-${Date.now()}`, state: boardSpec, tools: PAGE_TOOLS });

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

  private readonly statusSignal = signal<RunStatus>("idle");
  private readonly errorSignal = signal<ClientError | undefined>(undefined);
  private readonly cutOffSignal = signal<CutOff>(NOTHING_CUT_OFF);
  /** The run status. */
  readonly status = this.statusSignal.asReadonly();
  /** The last error update of the current or last run. */
  readonly error = this.errorSignal.asReadonly();
  /** What Stop cut off over this session's runs: messages mid-text and tool calls without a result. */
  readonly cutOff = this.cutOffSignal.asReadonly();

  private active: { readonly subscription: Subscription; readonly parts: UnfinishedParts } | undefined;

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
    this.start(this.session.send(text));
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
    this.start(this.session.resume(answers));
  }

  /** Stops the active run: unsubscribing aborts the request, and with it the server's run. */
  stop(): void {
    const active = this.active;
    this.active = undefined;
    if (!active) return;
    active.subscription.unsubscribe();
    this.cutOffSignal.update((cutOff) => mergeCutOff(cutOff, active.parts.cutOff()));
    this.statusSignal.set("idle");
  }

  ngOnDestroy(): void {
    this.stop();
  }

  private start(run$: Observable<Update<Board>>): void {
    this.stop();
    this.statusSignal.set("running");
    this.errorSignal.set(undefined);
    const parts = new UnfinishedParts();
    // `over` and `parts` rather than the subscription: a refused start (say, a send while an
    // interrupt waits) emits its error and done, and completes, inside `subscribe`, before the
    // subscription exists to compare with.
    let over = false;
    let finished = false;
    const release = () => {
      over = true;
      if (this.active?.parts === parts) this.active = undefined;
    };
    const subscription = run$
      .pipe(
        tap((update) => parts.apply(update)), // before coalescing, which keeps only the latest change per message
        coalesceUpdates<Board>(),
      )
      .subscribe({
        next: (batch) => {
          for (const update of batch) {
            if (update.kind === "error") this.errorSignal.set(update.error);
            if (update.kind === "done") {
              finished = true;
              this.statusSignal.set(statusAfter(update.end));
            }
          }
        },
        error: (error: unknown) => {
          release();
          this.errorSignal.set(ClientError.from(error));
          this.statusSignal.set("failed");
        },
        complete: () => {
          release();
          if (!finished) this.statusSignal.set("idle");
        },
      });
    if (!over) this.active = { subscription, parts };
  }
}

function statusAfter(end: RunEnd): RunStatus {
  switch (end.kind) {
    case "success":
    case "cancelled": // a stopped run is not a failure (E2)
      return "idle";
    case "interrupted":
      return "interrupted";
    case "failed":
      return "failed";
    default:
      return unknownEnd(end);
  }
}

/** A RunEnd kind added later fails to compile above; at run time it reads as the end of the run. */
function unknownEnd(end: never): RunStatus {
  void end;
  return "idle";
}
