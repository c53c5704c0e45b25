/** One session's run lifecycle as an external store: what React's `useRun` and Angular's `injectAgent` read and drive. */
import { Observable, type Subscriber, type Subscription } from "rxjs";
import { ClientError } from "../../thread/ClientError";
import type { CancelQueuedResult, StopResult } from "../transports/Transport";
import type { QueuedMessage, WhileRunning } from "../../protocol/queueMeta";
import type { RunEnd, Update } from "../../thread/Update";
import type { ResumeEntry } from "../../protocol/outcomes";
import type { UserMessage } from "../../protocol/messages";
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
  /** Stop was pressed and the server is ending the run: its `done` (cancelled) is on the way. */
  readonly stopping: boolean;
  /** While the run's connection is being resumed: the attempt under way (1, 2, …); `undefined` otherwise. */
  readonly reconnecting: number | undefined;
}

/**
 * What a controller needs of a Session: its two ways to start a run (any `Session<S>` fits).
 *
 * @example
 * const source: SessionLike = session;
 */
export interface SessionLike {
  send(message: string | UserMessage, options?: SendOptions): Observable<Update<unknown>>;
  resume(answers: ResumeEntry[]): Observable<Update<unknown>>;
  /** Edits a user message and runs from there (`Session.edit`); a source without it cannot `edit`. */
  edit?(messageId: string, content: UserMessage["content"]): Observable<Update<unknown>>;
  /** Another answer to a user message (`Session.regenerate`); a source without it cannot `regenerate`. */
  regenerate?(messageId?: string): Observable<Update<unknown>>;
  /** Joins the thread on the server (`Session.connect()`); a source without it cannot `connect`. */
  connect?(): Observable<Update<unknown>>;
  /** Cancels the active run on the server (`Session.stop()`); without it, or when `canStop` is false, `stop` unsubscribes. */
  stop?(): Promise<StopResult>;
  /** Whether `stop()` can ask the server at all (`Session.canStop`). */
  readonly canStop?: boolean | undefined;
  /** The thread's waiting messages (`Session.queued`, docs/queue.md#in-the-client). */
  readonly queued?: readonly QueuedMessage[] | undefined;
  /** Cancels a waiting message (`Session.cancelQueued`); a source without it answers `unknown`. */
  cancelQueued?(id: string): Promise<CancelQueuedResult>;
  /** Hears every change of the source (`Session.subscribe`): how a view re-reads `queued`. */
  subscribe?(listener: () => void): () => void;
}

/**
 * How a view sends: with `whileRunning` (docs/queue.md#policies) a message may be sent while a run
 * is live; it waits in `queued` and does not replace the active run.
 *
 * @example
 * runs.send("and then?", { whileRunning: "queue" });
 */
export interface SendOptions {
  readonly whileRunning?: WhileRunning | undefined;
}

/**
 * Starts, stops and watches one session's runs, for every view on that session (React's `useRun`,
 * Angular's `injectAgent`; `RunController.of(session)` hands out one per session). Starting a run while one is
 * active detaches from the active one first, like `switchMap`: the latest request wins.
 * `connect()` joins the thread (after a reload: the history, then a run in progress as the
 * active run). `stop()` cancels the run: on a server that keeps threads (docs/durability.md#stores-and-routes) through
 * `session.stop()`, after which the run ends with `done` cancelled (status `idle`, and what was
 * streaming when Stop was pressed goes to `cutOff`); elsewhere by unsubscribing, which aborts the
 * request and with it the server's run, as `detach()` does (no `done` follows: the status returns
 * to `idle` and what the run left open goes to `cutOff`). `detach()` only lets go (what a page
 * does when it goes away): a server that keeps the run goes on with it. A run that ends during
 * `send` itself (a refused start: another run active elsewhere, interrupts pending) reports
 * `failed` with the refusal as `error`; the session's pending interrupts stay as they were
 * (read them with `useInterrupts`).
 *
 * @example
 * const runs = RunController.of(session);
 * runs.send("add buy milk");
 * runs.getSnapshot().status; // "running"
 */
export class RunController {
  private static readonly controllers = new WeakMap<SessionLike, RunController>();

  /** The controller of `session`, made on first use. */
  static of(session: SessionLike): RunController {
    let controller = RunController.controllers.get(session);
    if (!controller) {
      controller = new RunController(session);
      RunController.controllers.set(session, controller);
    }
    return controller;
  }

  private snapshot: RunSnapshot = Object.freeze({
    status: "idle",
    error: undefined,
    end: undefined,
    cutOff: NOTHING_CUT_OFF,
    stopping: false,
    reconnecting: undefined,
  });
  private active: ActiveRun | undefined;
  private readonly listeners = new Set<() => void>();

  private constructor(private readonly session: SessionLike) {}

  /** The current reading (stable until the next change). */
  readonly getSnapshot = (): RunSnapshot => this.snapshot;

  /** Registers a change listener; returns its removal (the `useSyncExternalStore` shape). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Sends a user message and runs the agent. With `whileRunning` other than `refuse`
   * (docs/queue.md#in-the-client) the active run is left alone: the message waits (the source's
   * `queued`), and its run becomes the active one when it starts.
   */
  readonly send = (message: string | UserMessage, options: SendOptions = {}): void => {
    const policy = options.whileRunning ?? "refuse";
    if (policy === "refuse") this.start(this.session.send(message));
    else this.startQueued(this.session.send(message, { whileRunning: policy }));
  };

  /** Cancels a waiting message of the thread (`Session.cancelQueued`); `unknown` for a source that cannot. */
  readonly cancelQueued = (id: string): Promise<CancelQueuedResult> => {
    const source = this.session;
    return source.cancelQueued === undefined ? Promise.resolve("unknown") : source.cancelQueued(id);
  };

  /** Answers the pending interrupts and runs the agent again. */
  readonly resume = (answers: readonly ResumeEntry[]): void => {
    this.start(this.session.resume([...answers]));
  };

  /**
   * Edits the user message `messageId` (a sibling with `content`) and runs from there
   * (`Session.edit`, docs/client.md#branches). Nothing happens for a source without `edit`.
   */
  readonly edit = (messageId: string, content: UserMessage["content"]): void => {
    const source = this.session;
    if (source.edit !== undefined) this.start(source.edit(messageId, content));
  };

  /**
   * Asks for another answer to the user message at or before `messageId` (the last one without it;
   * `Session.regenerate`, docs/client.md#branches). Nothing happens for a source without `regenerate`.
   */
  readonly regenerate = (messageId?: string): void => {
    const source = this.session;
    if (source.regenerate !== undefined) this.start(source.regenerate(messageId));
  };

  /**
   * Joins the session's thread on the server (after a reload: its history, and a run in progress
   * as the active run, which `stop()` can cancel). Nothing happens for a source without
   * `connect`; a thread the server does not know leaves the status `idle`.
   */
  readonly connect = (): void => {
    const source = this.session;
    if (source.connect !== undefined) this.start(source.connect());
  };

  /**
   * Cancels the active run, if any: through `session.stop()` when the server can (the run then
   * ends with `done` cancelled; `stopping` until it does), else, or when the server answers that
   * it cannot, or the request fails, by unsubscribing (as `detach()`).
   */
  readonly stop = (): void => {
    const active = this.active;
    if (!active || active.stopping !== undefined) return;
    const source = this.session;
    if (source.stop === undefined || source.canStop === false) return this.detach();
    active.stopping = active.parts.cutOff(); // what was streaming when Stop was pressed
    this.set({ ...this.snapshot, stopping: true });
    source.stop().then(
      (result) => {
        if (result === "unavailable" || result === "idle") this.detachRun(active);
      },
      (error: unknown) => {
        this.detachRun(active);
        this.set({ ...this.snapshot, error: ClientError.from(error) });
      },
    );
  };

  /**
   * Lets go of the active run, if any: unsubscribes, adds what it left open to `cutOff` and
   * returns to `idle`. On a server that keeps threads the run goes on there (a later `connect()`
   * joins it again); on one that does not, this aborts it, as it always did.
   */
  readonly detach = (): void => {
    if (this.active) this.detachRun(this.active);
  };

  private detachRun(active: ActiveRun): void {
    if (this.active !== active) return;
    this.active = undefined;
    active.subscription.unsubscribe();
    const cutOff = mergeCutOff(this.snapshot.cutOff, active.stopping ?? active.parts.cutOff());
    this.set({ status: "idle", error: undefined, end: undefined, cutOff, stopping: false, reconnecting: undefined });
  }

  /**
   * A send with a policy: its `queued` updates change nothing here (the source lists the message);
   * from its run's first other update on, it is followed as `start` follows a run, replacing the
   * active one (which is over by then: the session runs one at a time). Ended before its run
   * (cancelled, a steer taken, refused) it leaves the snapshot as it was, a refusal's error aside.
   */
  private startQueued(updates$: Observable<Update<unknown>>): void {
    let handed: Subscriber<Update<unknown>> | undefined;
    let begun = false;
    const waiting = updates$.subscribe({
      next: (update) => {
        if (begun) return handed?.next(update);
        if (update.kind === "queued") return;
        if (update.kind === "error") return this.set({ ...this.snapshot, error: update.error });
        if (update.kind === "done") return;
        begun = true;
        this.start(
          new Observable<Update<unknown>>((subscriber) => {
            handed = subscriber;
            subscriber.next(update);
            return () => waiting.unsubscribe();
          }),
        );
      },
      error: (error: unknown) => (begun ? handed?.error(error) : this.set({ ...this.snapshot, error: ClientError.from(error) })),
      complete: () => handed?.complete(),
    });
  }

  private start(run$: Observable<Update<unknown>>): void {
    this.detach();
    this.set({ ...this.snapshot, status: "running", error: undefined, end: undefined, stopping: false, reconnecting: undefined });
    const parts = new UnfinishedParts();
    const run: { active: ActiveRun | undefined } = { active: undefined };
    // `over` and `parts` rather than the subscription: a run can end inside `subscribe` (a refused
    // start emits its error and done at once), before `subscribe` has returned the subscription.
    let over = false;
    let finished = false;
    const subscription = run$.subscribe({
      next: (update) => {
        if (update.kind === "done") {
          finished = true;
          // A stop ends the run cancelled after closing what was open: the cut-off is what was streaming when Stop was pressed.
          const cut = update.end.kind === "cancelled" ? (run.active?.stopping ?? parts.cutOff()) : NOTHING_CUT_OFF;
          parts.apply(update);
          const cutOff = mergeCutOff(this.snapshot.cutOff, cut);
          this.set({ ...this.snapshot, status: statusAfter(update.end), end: update.end, cutOff, stopping: false, reconnecting: undefined });
          return;
        }
        parts.apply(update);
        if (update.kind === "error") this.set({ ...this.snapshot, error: update.error });
        else if (update.kind === "connection") this.set({ ...this.snapshot, reconnecting: update.status === "reconnecting" ? update.attempt : undefined });
      },
      error: (error: unknown) => {
        // A Session reports failures as updates; this is a broken source, shown as a failed run.
        over = true;
        this.release(parts);
        const reported = ClientError.from(error);
        this.set({
          ...this.snapshot,
          status: "failed",
          error: reported,
          end: { kind: "failed", message: reported.message },
          stopping: false,
          reconnecting: undefined,
        });
      },
      complete: () => {
        over = true;
        this.release(parts);
        if (!finished) this.set({ ...this.snapshot, status: "idle", stopping: false, reconnecting: undefined });
      },
    });
    if (!over) {
      run.active = { subscription, parts, stopping: undefined };
      this.active = run.active;
    }
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

/** The active run: its subscription, what it has open, and once Stop was pressed what was open then. */
interface ActiveRun {
  readonly subscription: Subscription;
  readonly parts: UnfinishedParts;
  stopping: CutOff | undefined;
}

function statusAfter(end: RunEnd): RunStatus {
  switch (end.kind) {
    case "success":
    case "cancelled": // a stopped run is not a failure (docs/rules.md#E2); the `done` branch in `start` adds what it cut off
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
