/** One session's run lifecycle as an external store: what `useRun` reads and drives. */
import type { Observable, Subscription } from "rxjs";
import { ClientError } from "../client/ClientError";
import type { RunEnd, Update } from "../client/Update";
import type { ResumeEntry } from "../protocol/outcomes";
import type { UserMessage } from "../protocol/messages";
import { mergeCutOff, NOTHING_CUT_OFF, UnfinishedParts, type CutOff } from "./UnfinishedParts";

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
  /**
   * What `stop()` cut off, over all of this session's runs: the messages still streaming (or
   * holding a tool call with no result) when a run was stopped, and those tool calls. A page
   * marks them "stopped"; they stay in `session.messages` as far as they got.
   */
  readonly cutOff: CutOff;
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


/**
 * Starts, stops and watches one session's runs, for every component that calls `useRun` on that
 * session (`RunController.of(session)` hands out one per session). Starting a run while one is
 * active stops the active one first (unsubscribing aborts its request), like `switchMap`: the
 * latest request wins. `stop()` unsubscribes, which aborts the HTTP request and so the server's
 * run; no `done` follows an unsubscription, so the status returns to `idle`, and what the run
 * left open is added to `cutOff`. A run that ends during `send` itself (a refused start: another
 * run active elsewhere, interrupts pending) reports `failed` with the refusal as `error`; the
 * session's pending interrupts stay as they were (read them with `useInterrupts`).
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

  private snapshot: RunSnapshot = Object.freeze({ status: "idle", error: undefined, end: undefined, cutOff: NOTHING_CUT_OFF });
  private active: { readonly subscription: Subscription; readonly parts: UnfinishedParts } | undefined;
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

  /**
   * Stops the active run, if any: unsubscribes (aborting the request), adds what it left open to
   * `cutOff` and returns to `idle`.
   */
  readonly stop = (): void => {
    const active = this.active;
    if (!active) return;
    this.active = undefined;
    active.subscription.unsubscribe();
    const cutOff = mergeCutOff(this.snapshot.cutOff, active.parts.cutOff());
    this.set({ status: "idle", error: undefined, end: undefined, cutOff });
  };

  private start(run$: Observable<Update<unknown>>): void {
    this.stop();
    this.set({ ...this.snapshot, status: "running", error: undefined, end: undefined });
    const parts = new UnfinishedParts();
    // `over` and `parts` rather than the subscription: a run can end inside `subscribe` (a refused
    // start emits its error and done at once), before `subscribe` has returned the subscription.
    let over = false;
    let finished = false;
    const subscription = run$.subscribe({
      next: (update) => {
        parts.apply(update);
        if (update.kind === "error") this.set({ ...this.snapshot, error: update.error });
        else if (update.kind === "done") {
          finished = true;
          this.set({ ...this.snapshot, status: statusAfter(update.end), end: update.end });
        }
      },
      error: (error: unknown) => {
        // A Session reports failures as updates; this is a broken source, shown as a failed run.
        over = true;
        this.release(parts);
        const reported = ClientError.from(error);
        this.set({ ...this.snapshot, status: "failed", error: reported, end: { kind: "failed", message: reported.message } });
      },
      complete: () => {
        over = true;
        this.release(parts);
        if (!finished) this.set({ ...this.snapshot, status: "idle" });
      },
    });
    if (!over) this.active = { subscription, parts };
  }

  /** Forgets the active run if it is this one (a newer run may have replaced it). */
  private release(parts: UnfinishedParts): void {
    if (this.active?.parts === parts) this.active = undefined;
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
    default:
      return unknownEnd(end);
  }
}

/** A RunEnd kind added later fails to compile above; at run time it reads as the end of the run. */
function unknownEnd(end: never): RunStatus {
  void end;
  return "idle";
}
