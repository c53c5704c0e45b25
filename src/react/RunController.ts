/** One session's run lifecycle as an external store: what `useRun` reads and drives. */
import type { Observable, Subscription } from "rxjs";
import type { ClientError } from "../client/ClientError";
import type { RunEnd, Update } from "../client/Update";
import type { ResumeEntry } from "../protocol/outcomes";
import type { UserMessage } from "../protocol/messages";

/**
 * Where the session's runs stand: no run (or the last one succeeded or was stopped), one running, the last one interrupted or failed.
 *
 * @example
 * const canType = (status: RunStatus) => status !== "running" && status !== "interrupted";
 */
export type RunStatus = "idle" | "running" | "interrupted" | "failed";

/**
 * An immutable reading of the run lifecycle; a new object after each change.
 *
 * @example
 * const { status, error } = RunController.of(session).getSnapshot();
 */
export interface RunSnapshot {
  readonly status: RunStatus;
  /** The last `error` update of the current or last run (fatal or not); cleared when a run starts. */
  readonly error: ClientError | undefined;
  /** How the last run ended; `undefined` while running, before the first run and after `stop()`. */
  readonly end: RunEnd | undefined;
}

/**
 * What a controller needs of a Session: its two ways to start a run (any `Session<S>` fits).
 *
 * @example
 * const source: RunSource = session;
 */
export interface RunSource {
  send(message: string | UserMessage): Observable<Update<unknown>>;
  resume(answers: ResumeEntry[]): Observable<Update<unknown>>;
}

const IDLE: RunSnapshot = Object.freeze({ status: "idle", error: undefined, end: undefined });

/**
 * Starts, stops and watches one session's runs, for every component that calls `useRun` on that
 * session (`RunController.of(session)` hands out one per session). Starting a run while one is
 * active stops the active one first (unsubscribing aborts its request), like `switchMap`: the
 * latest request wins. `stop()` unsubscribes, which aborts the HTTP request and so the server's
 * run; no `done` follows an unsubscription, so the status returns to `idle`.
 *
 * @example
 * const runs = RunController.of(session);
 * runs.send("add buy milk");
 * runs.getSnapshot().status; // "running"
 */
export class RunController {
  private static readonly controllers = new WeakMap<RunSource, RunController>();

  /** The controller of `session`, made on first use. */
  static of(session: RunSource): RunController {
    let controller = RunController.controllers.get(session);
    if (!controller) {
      controller = new RunController(session);
      RunController.controllers.set(session, controller);
    }
    return controller;
  }

  private snapshot: RunSnapshot = IDLE;
  private active: Subscription | undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly session: RunSource) {}

  /** The current reading (stable until the next change). */
  readonly getSnapshot = (): RunSnapshot => this.snapshot;

  /** Registers a change listener; returns its removal (the `useSyncExternalStore` shape). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Sends a user message and runs the agent. */
  readonly send = (message: string | UserMessage): void => {
    this.start(this.session.send(message));
  };

  /** Answers the pending interrupts and runs the agent again. */
  readonly resume = (answers: readonly ResumeEntry[]): void => {
    this.start(this.session.resume([...answers]));
  };

  /** Stops the active run, if any: unsubscribes (aborting the request) and returns to `idle`. */
  readonly stop = (): void => {
    if (!this.active) return;
    const active = this.active;
    this.active = undefined;
    active.unsubscribe();
    this.set(IDLE);
  };

  private start(run$: Observable<Update<unknown>>): void {
    this.stop();
    this.set({ status: "running", error: undefined, end: undefined });
    let finished = false;
    const subscription = run$.subscribe({
      next: (update) => {
        if (update.kind === "error") this.set({ ...this.snapshot, error: update.error });
        else if (update.kind === "done") {
          finished = true;
          this.set({ status: statusAfter(update.end), error: this.snapshot.error, end: update.end });
        }
      },
      complete: () => {
        if (this.active === subscription) this.active = undefined;
        if (!finished) this.set({ ...this.snapshot, status: "idle" });
      },
    });
    // A run that ended synchronously (a replay, a refused start) is already over.
    if (!subscription.closed) this.active = subscription;
  }

  private set(next: RunSnapshot): void {
    this.snapshot = next;
    for (const listener of [...this.listeners]) listener();
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
  }
}
