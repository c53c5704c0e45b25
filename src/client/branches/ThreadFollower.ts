/**
 * A Session following its thread's switches from other tabs (docs/client.md#branches): the thread's
 * own events stream, one per session, and a re-read of the thread when another sibling was selected.
 */
import { catchError, EMPTY, type Subscription } from "rxjs";
import { afterAnswer } from "../../rx/afterAnswer";
import { ownsHistory } from "../ownsHistory";
import type { ThreadNotice, Transport } from "../transports/Transport";

/**
 * What a follower needs of its session.
 *
 * @example
 * const options: FollowerOptions = { transport, threadId: "t1", running: () => session.running, reread: () => session.connect().subscribe() };
 */
export interface FollowerOptions {
  readonly transport: Transport;
  readonly threadId: string;
  /** Whether the session is running now: a re-read waits for it to be idle. */
  readonly running: () => boolean;
  /** Reads the thread again (the session's `connect()`), while idle. */
  readonly reread: () => void;
  /**
   * Hears every notice first; answers whether it calls for a re-read too (a run the server started
   * from the thread's queue, which the session joins: docs/queue.md#in-the-client).
   */
  readonly heard?: (notice: ThreadNotice) => boolean;
}

/**
 * Follows one thread's events (`transport.followThread`) while started, and only on a server that
 * owns the history: on `path-selected` (another tab switched a branch), on a reconnection
 * (a switch may have been missed meanwhile), and when `heard` asks (a run started from the
 * queue, docs/queue.md#in-the-client), it re-reads the thread, at once when the session is
 * idle, else once it is (`idle()`). A refusal (401, 404: a handler without `identify` has no such
 * route) or a stream that cannot be reconnected stops it for good: no retry storm. `stop()`
 * unsubscribes (the request is aborted); a later `start()` follows again.
 *
 * @example
 * const follower = new ThreadFollower({ transport, threadId, running: () => slot.running, reread });
 * follower.start(); // once connected
 * follower.stop(); // Session.close()
 */
export class ThreadFollower {
  private subscription: Subscription | undefined;
  /** A switch was heard while the session ran: re-read once it is idle. */
  private stale = false;
  /** The server refused the stream, or it could not be kept: never asked again by this session. */
  private refused = false;

  constructor(private readonly options: FollowerOptions) {}

  /** The stream answered (its first `opened`) and is still followed. */
  private opened = false;

  /** Whether the thread's events are heard now: the stream is open (the server answered) and followed. */
  get following(): boolean {
    return this.opened && this.subscription !== undefined && !this.subscription.closed;
  }

  /** Starts following, unless it already does, was refused, or the transport cannot follow threads. */
  start(): void {
    const { transport, threadId } = this.options;
    if ((this.subscription !== undefined && !this.subscription.closed) || this.refused || transport.followThread === undefined) return;
    const follow = (id: string) => transport.followThread?.(id) ?? EMPTY;
    this.subscription = afterAnswer(
      () => ownsHistory(transport),
      (owned) => (owned ? follow(threadId) : EMPTY),
    )
      .pipe(
        catchError(() => {
          // a refusal or the reconnects used up: the session goes on without hearing other tabs (its next connect shows what changed)
          this.refused = true;
          return EMPTY;
        }),
      )
      .subscribe((notice) => {
        if (notice.type === "opened") this.opened = true;
        const joins = this.options.heard?.(notice) === true;
        if (joins || notice.type === "path-selected" || (notice.type === "opened" && (notice.attempt ?? 0) > 0)) this.changed();
      });
  }

  /** The session became idle: a switch heard meanwhile is read now. */
  idle(): void {
    if (!this.stale) return;
    this.stale = false;
    // after the run's own teardown, not inside it
    queueMicrotask(() => this.changed());
  }

  /** Stops following (the request is aborted). */
  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.stale = false;
    this.opened = false;
  }

  private changed(): void {
    if (this.options.running()) this.stale = true;
    else this.options.reread();
  }
}
