/** The page's one service: a Session on the task-board endpoint, as observables (async pipe) and signals. */
import { Injectable, InjectionToken, inject, signal, type OnDestroy, type Signal } from "@angular/core";
import { toSignal } from "@angular/core/rxjs-interop";
import { map, type Observable, type Subscription } from "rxjs";
import { Session } from "../../../../src/client/Session";
import { HttpTransport } from "../../../../src/client/transports/HttpTransport";
import { coalesceUpdates } from "../../../../src/client/coalesceUpdates";
import type { ClientError } from "../../../../src/client/ClientError";
import type { Subagent, Update } from "../../../../src/client/Update";
import type { Message } from "../../../../src/protocol/messages";
import type { Interrupt, ResumeEntry } from "../../../../src/protocol/outcomes";
import { boardSpec, type Board } from "../../../task-board/board";
import { groupMessages, type Block } from "../../../shared/groupMessages";

/** The AG-UI endpoint the service talks to; `/agent` on the page's origin by default. */
export const AGENT_URL = new InjectionToken<string>("AGENT_URL", {
  factory: () => new URL("/agent", location.href).href,
});

/** Where the runs stand: no run, one running, the last one waiting on an interrupt, the last one failed. */
export type RunStatus = "idle" | "running" | "interrupted" | "failed";

/**
 * Owns the Session. Views read the conversation through observables (`messages$`, `blocks$`,
 * for the `async` pipe) or signals (`board`, `interrupts`, `subagents`, made with `toSignal`), and
 * drive it with `send`, `approve`/`reject` and `stop`. One run at a time: starting one stops the
 * active one. A run's updates are coalesced per animation frame (`coalesceUpdates`), so forty
 * text deltas in a frame cost one change detection pass.
 */
@Injectable({ providedIn: "root" })
export class TaskBoardService implements OnDestroy {
  readonly session = new Session<Board>(new HttpTransport(inject(AGENT_URL)), { threadId: `board-${Date.now()}`, state: boardSpec });

  /** The messages, for the async pipe. */
  readonly messages$: Observable<readonly Message[]> = this.session.messages$;
  /** The messages grouped for display: top-level messages and subagent groups. */
  readonly blocks$: Observable<readonly Block[]> = this.messages$.pipe(map(groupMessages));

  /** The shared state, typed. */
  readonly board: Signal<Board | undefined> = toSignal(this.session.state$, { initialValue: this.session.state });
  readonly interrupts: Signal<readonly Interrupt[]> = toSignal(this.session.interrupts$, { initialValue: this.session.interrupts });
  readonly subagents: Signal<readonly Subagent[]> = toSignal(this.session.subagents$, { initialValue: this.session.subagents });

  private readonly statusSignal = signal<RunStatus>("idle");
  private readonly errorSignal = signal<ClientError | undefined>(undefined);
  /** The run status. */
  readonly status = this.statusSignal.asReadonly();
  /** The last error update of the current or last run. */
  readonly error = this.errorSignal.asReadonly();

  private active: Subscription | undefined;

  /** Sends a user message and runs the agent. */
  send(text: string): void {
    this.start(this.session.send(text));
  }

  /** Approves a pending interrupt (resolved, with `{ approved: true }`). */
  approve(interrupt: Interrupt): void {
    this.resume([{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }]);
  }

  /** Rejects a pending interrupt (cancelled). */
  reject(interrupt: Interrupt): void {
    this.resume([{ interruptId: interrupt.id, status: "cancelled" }]);
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
    active.unsubscribe();
    this.statusSignal.set("idle");
  }

  ngOnDestroy(): void {
    this.stop();
  }

  private start(run$: Observable<Update<Board>>): void {
    this.stop();
    this.statusSignal.set("running");
    this.errorSignal.set(undefined);
    const subscription = run$.pipe(coalesceUpdates<Board>()).subscribe({
      next: (batch) => {
        for (const update of batch) {
          if (update.kind === "error") this.errorSignal.set(update.error);
          if (update.kind === "done") {
            this.statusSignal.set(update.end.kind === "success" ? "idle" : update.end.kind);
          }
        }
      },
      complete: () => {
        if (this.active === subscription) this.active = undefined;
      },
    });
    if (!subscription.closed) this.active = subscription;
  }
}
