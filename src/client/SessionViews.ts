/**
 * The view side of a Session (docs/client.md#session-and-updates): which update changes which view, the replaying
 * observables for Angular's async pipe, and the `subscribe` / `getSnapshot` pair for React's
 * `useSyncExternalStore`. Kept apart from running runs, so that the run logic (reconnects, the
 * client-tool loop) reads without the view plumbing.
 */
import { distinctUntilChanged, Subject, type Observable } from "rxjs";
import type { BranchGroup } from "../protocol/branchMeta";
import type { Message } from "../protocol/messages";
import type { Interrupt } from "../protocol/outcomes";
import type { QueuedMessage } from "../protocol/queueMeta";
import { operate, SourceObserver } from "../rx/operate";
import type { RunningToolCall } from "./tools/RunningToolCalls";
import type { Subagent, Update } from "../thread/Update";

/** Everything a view reads, as one immutable value: the same object until something changes (for `useSyncExternalStore`). */
export interface SessionSnapshot<S> {
  readonly messages: readonly Message[];
  readonly rawState: unknown;
  readonly state: S | undefined;
  readonly interrupts: readonly Interrupt[];
  readonly subagents: readonly Subagent[];
  readonly running: boolean;
  /** The client tool calls executing now (`Session.runningToolCalls`). */
  readonly runningToolCalls: readonly RunningToolCall[];
  /** The sibling groups along the path (`Session.branchGroups`, docs/client.md#branches). */
  readonly branches: readonly BranchGroup[];
  /** The thread's waiting messages (`Session.queued`, docs/queue.md#in-the-client). */
  readonly queued: readonly QueuedMessage[];
}

/** A part of the snapshot that changes on its own, and the views that follow it. */
export type ViewChannel = "messages" | "state" | "interrupts" | "subagents" | "running" | "toolCalls" | "branches" | "queue";

/** Updates by the view they change. */
const CHANNEL_OF: Partial<Record<Update["kind"], ViewChannel>> = {
  message: "messages",
  messages: "messages",
  reasoning: "messages",
  state: "state",
  interrupt: "interrupts",
  done: "interrupts",
  subagent: "subagents",
};

/**
 * The change notifications of one session. `read` builds the snapshot from the session's current
 * values; it is called at most once per change (the snapshot is cached until the next `notify`).
 *
 * @example
 * const views = new SessionViews(() => ({ messages, rawState, state, interrupts, subagents, running, runningToolCalls, branches, queued }));
 * const messages$ = views.view("messages", () => messages);
 * views.notifyUpdate(update); // after applying an update
 */
export class SessionViews<S> {
  private readonly changed = new Subject<ViewChannel>();
  private readonly listeners = new Set<() => void>();
  private cache: SessionSnapshot<S> | undefined;

  constructor(private readonly read: () => SessionSnapshot<S>) {}

  /** Tells the views on `channel` and every listener that something changed. */
  notify(channel: ViewChannel): void {
    this.cache = undefined;
    if (this.changed.observed) this.changed.next(channel);
    if (this.listeners.size > 0) for (const listener of [...this.listeners]) listener();
  }

  /** Notifies the channel an applied update changed, if it changed one. */
  notifyUpdate(update: Update<unknown>): void {
    const channel = CHANNEL_OF[update.kind];
    if (channel !== undefined) this.notify(channel);
  }

  /** A view of one value: replays `read()` on subscription and emits it again after each change on `channel` (or any of several), when it differs. */
  view<T>(channel: ViewChannel | readonly ViewChannel[], read: () => T): Observable<T> {
    const follows = (changed: ViewChannel) => (typeof channel === "string" ? changed === channel : channel.includes(changed));
    return this.changed.pipe(
      operate<ViewChannel, T>((changes, subscriber) => {
        subscriber.next(read());
        // `changed` never ends; a throw from `read()` errors this view, as it does on subscription.
        changes.subscribe(
          new SourceObserver(subscriber, {
            next: (changed) => {
              if (follows(changed)) subscriber.next(read());
            },
          }),
        );
      }),
      distinctUntilChanged(),
    );
  }

  /** Calls `listener` after every change; returns the unsubscribe function (`useSyncExternalStore`'s `subscribe`). */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Everything a view reads; the same object until something changes (`useSyncExternalStore`'s `getSnapshot`). */
  readonly getSnapshot = (): SessionSnapshot<S> => {
    this.cache ??= this.read();
    return this.cache;
  };
}
