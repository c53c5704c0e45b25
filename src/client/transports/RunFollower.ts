/** One subscription of `reconnecting` as a phase machine (docs/durability.md#stores-and-routes): following a connection, deciding after a cut, waiting to reconnect, closed. */
import { asyncScheduler, from, Subscription, take, timer, type Observable, type Subscriber } from "rxjs";
import { FollowedLink, type Continuity } from "./FollowedLink";
import type { Event } from "../../protocol/events";
import { isDecodeWarning, type DecodeWarning } from "../../wire/DecodeWarning";
import { isSseControl } from "../../wire/SseControl";
import { ConnectionNotice, isConnectionNotice } from "./ConnectionNotice";
import { isQueueNoticeItem, type QueueNoticeItem } from "./QueueNoticeItem";
import { StreamOpened, type StreamItem } from "./fetchEventStream";
import { DEFAULT_RECONNECT_ATTEMPTS, reconnectDelay, type ReconnectPlan, type ResumePosition } from "./ReconnectPlan";
import { askedWait } from "./requestFailure";
import { exhausted, isCut, isGone, missed, refusesResume, startedAndPassed, unrestartable, type Cut } from "./resumeFailures";
import { isTerminal } from "../../thread/isTerminal";

/**
 * Where the follower stands. `streak` is the cut that started the current streak of attempts
 * (what the run fails with if it cannot resume); a reconnect that delivers an event ends it.
 * - `following`: a connection's items are passed on;
 * - `ending`: the run's terminal event was passed on, so the connection's end completes the output;
 * - `deciding`: a connection was cut, and whether the server resumes streams is being found out;
 * - `waiting`: the wait before the next attempt (`timer` holds the notifier's subscription);
 * - `closed`: the output ended or was unsubscribed (and, until `start`, nothing is open yet).
 */
type FollowPhase =
  | { readonly kind: "following"; readonly link: FollowedLink; readonly streak: Cut | undefined }
  | { readonly kind: "ending"; readonly link: FollowedLink }
  | { readonly kind: "deciding" }
  | { readonly kind: "waiting"; readonly timer: Subscription }
  | { readonly kind: "closed" };

/**
 * Follows one run across connections for `reconnecting` (see there for the contract): passes a
 * connection's items on, and after a cut decides, waits and reconnects after the last `id:`.
 *
 * @example
 * new Observable((subscriber) => {
 *   const follower = new RunFollower(plan, subscriber);
 *   follower.start();
 *   return () => follower.teardown();
 * });
 */
export class RunFollower {
  private phase: FollowPhase = { kind: "closed" };
  private readonly count: number;
  private readonly resetOnSuccess: boolean;
  // What the connections so far showed about the run and the server, kept across connections.
  private lastEventId: string | undefined;
  private retryMs: number | undefined;
  /** An answer showed that the server resumes streams (an `AGUI-Resumable` header, an `id:`). */
  private resumable = false;
  private runId: string | undefined;
  private attempt = 0;
  /** An event of the run was passed on. */
  private passed = false;
  /** The answer was a queued message's stream (docs/queue.md#on-the-wire): that message's id. */
  private queued: string | undefined;
  /** The connection whose queue notice said the run started, until an event of the run comes on it. */
  private startedOn: FollowedLink | undefined;
  /** The last queue notice's status: a reconnect's answer repeats the status it resumes from, passed on once. */
  private queueStatus: string | undefined;

  constructor(
    private readonly plan: ReconnectPlan,
    private readonly subscriber: Subscriber<Event | DecodeWarning | ConnectionNotice | QueueNoticeItem>,
  ) {
    this.count = plan.config.count ?? DEFAULT_RECONNECT_ATTEMPTS;
    this.resetOnSuccess = plan.config.resetOnSuccess ?? true;
    this.runId = plan.runId;
  }

  /** Makes the first connection. */
  start(): void {
    this.open(this.plan.first(), false, undefined);
  }

  /** Unsubscription: stops the connection or the wait, whichever there is. */
  teardown(): void {
    const phase = this.phase;
    this.phase = { kind: "closed" };
    switch (phase.kind) {
      case "following":
      case "ending":
        return phase.link.subscription.unsubscribe();
      case "waiting":
        return phase.timer.unsubscribe();
      case "deciding":
      case "closed":
        return;
      default:
        return unreachable(phase);
    }
  }

  private open(source: Observable<StreamItem | ConnectionNotice>, reconnect: boolean, streak: Cut | undefined): void {
    const link = new FollowedLink(reconnect);
    this.phase = { kind: "following", link, streak };
    link.subscription.add(
      source.subscribe({
        next: (item) => this.take(link, item),
        error: (error: unknown) => this.end(link, { kind: "error", error }),
        complete: () => this.end(link, { kind: "complete" }),
      }),
    );
  }

  private take(link: FollowedLink, item: StreamItem | ConnectionNotice): void {
    const { plan, subscriber } = this;
    if (isConnectionNotice(item)) {
      if (plan.notices) subscriber.next(item);
      return;
    }
    if (item instanceof StreamOpened) return this.answered(link, item);
    if (isSseControl(item)) {
      if (item.kind === "id") {
        this.lastEventId = item.id === "" ? undefined : item.id;
        this.learn();
      } else this.retryMs = item.ms;
      return;
    }
    if (isDecodeWarning(item)) return subscriber.next(item);
    if (isQueueNoticeItem(item)) return this.noticed(link, item);
    if (link.phase.kind !== "streaming" && !this.firstEvent(link, link.phase.continuity, item)) return;
    if (item.type === "RUN_STARTED") this.runId ??= item.runId;
    if (isTerminal(item) && this.phase.kind === "following") this.phase = { kind: "ending", link };
    this.passed = true;
    this.startedOn = undefined;
    subscriber.next(item);
  }

  /** The connection's answer came: learn whether the server resumes, and announce a reconnect whose mode it names. */
  private answered(link: FollowedLink, opened: StreamOpened): void {
    link.phase = link.phase.kind === "streaming" ? { kind: "streaming", answered: true } : { kind: "answered", continuity: link.phase.continuity };
    if (opened.resumable) this.learn();
    if (opened.queued !== undefined) this.queued ??= opened.queued;
    if (opened.mode === undefined || link.phase.kind !== "answered" || link.phase.continuity !== "pending") return;
    const snapshot = opened.mode === "snapshot";
    link.phase = { kind: "answered", continuity: snapshot ? "snapshot" : "continues" };
    this.announce(snapshot);
  }

  /**
   * A queue notice (docs/queue.md#on-the-wire): as a connection's first item it ends a reconnect's
   * streak (the wait goes on where it was); `started` names the run that follows, `cancelled` and
   * `taken` end the stream (its end then completes the output). A status repeated by a reconnect's
   * answer is passed on once.
   */
  private noticed(link: FollowedLink, item: QueueNoticeItem): void {
    if (link.phase.kind !== "streaming") {
      const pending = link.phase.continuity === "pending";
      link.phase = { kind: "streaming", answered: link.answered };
      if (link.reconnect) {
        if (pending && !this.announce(false)) return;
        if (this.resetOnSuccess) this.attempt = 0;
        if (this.phase.kind === "following") this.phase = { kind: "following", link, streak: undefined };
      }
    }
    const { notice } = item;
    this.queued ??= notice.id;
    if (notice.status === "started") {
      this.runId ??= notice.id;
      if (!this.passed) this.startedOn = link;
    }
    if ((notice.status === "cancelled" || notice.status === "taken") && this.phase.kind === "following") this.phase = { kind: "ending", link };
    if (notice.status === this.queueStatus) return;
    this.queueStatus = notice.status;
    if (this.plan.queue === true) this.subscriber.next(item);
  }

  /** A connection's first event; on a reconnect it ends the streak. Returns whether it is passed on. */
  private firstEvent(link: FollowedLink, continuity: Continuity, event: Event): boolean {
    link.phase = { kind: "streaming", answered: link.answered };
    if (!link.reconnect) return true;
    if (continuity === "pending") {
      // No mode header (a page on another origin may not read it): only a snapshot starts with RUN_STARTED.
      continuity = event.type === "RUN_STARTED" ? "snapshot" : "continues";
      if (!this.announce(continuity === "snapshot")) return false;
    }
    if (this.resetOnSuccess) this.attempt = 0;
    if (this.phase.kind === "following") this.phase = { kind: "following", link, streak: undefined };
    const { runId } = this;
    if (continuity === "snapshot" && event.type === "RUN_STARTED" && runId !== undefined && event.runId !== runId) {
      this.subscriber.error(missed(runId, event.runId));
      return false;
    }
    return this.phase.kind !== "closed";
  }

  /** Says "connected" (a restart when a snapshot follows events already passed on); returns whether the output goes on. */
  private announce(snapshot: boolean): boolean {
    const restart = snapshot && this.passed;
    if (restart && !this.plan.notices) {
      this.subscriber.error(unrestartable());
      return false;
    }
    if (this.plan.notices) this.subscriber.next(new ConnectionNotice("connected", this.attempt, restart));
    return this.phase.kind !== "closed";
  }

  private learn(): void {
    if (this.resumable) return;
    this.resumable = true;
    this.plan.learned();
  }

  /** A connection ended: after the run's terminal the output completes, before it this is a cut. */
  private end(link: FollowedLink, what: Cut): void {
    switch (this.phase.kind) {
      case "ending":
        return this.subscriber.complete();
      case "following":
        // Started, then the end with none of the run's events: the server had only the notice to
        // give (a later run followed that run), and asking again would get the same answer.
        if (what.kind === "complete" && this.startedOn === link) return this.subscriber.error(startedAndPassed(this.queued ?? "", this.runId ?? ""));
        return this.cut(link, what, this.phase.streak);
      case "deciding":
      case "waiting":
      case "closed":
        return; // a connection already let go
      default:
        return unreachable(this.phase);
    }
  }

  /** A connection ended before the run did: try again if this is a cut and the server can resume, else end as the cut says. */
  private cut(link: FollowedLink, what: Cut, streak: Cut | undefined): void {
    const opened = link.answered;
    // A reconnect answered 410: the thread is gone, so the run ends with that clear error (code `gone`), not its first cut's.
    if (what.kind === "error" && link.reconnect && isGone(what.error)) return this.give(what);
    if (what.kind === "error" && !isCut(what.error, opened, link.reconnect)) {
      // A reconnect refused with 404 or 405: the server keeps no such thread (or no threads at
      // all), so the run ends as the first cut would have ended it without reconnects.
      return this.give(link.reconnect && refusesResume(what.error) ? (streak ?? what) : what);
    }
    const first = streak ?? what;
    if (this.count <= 0) return this.give(first);
    this.phase = { kind: "deciding" };
    // An answer without the header and without an id is a server that does not resume: it is not asked.
    const decide = this.resumable ? Promise.resolve(true) : opened ? Promise.resolve(false) : this.plan.resumable().catch(() => false);
    void decide.then((can) => {
      if (this.phase.kind === "closed") return;
      if (!can) return this.give(first);
      this.attempt++;
      if (this.attempt > this.count) return this.subscriber.error(exhausted(this.count, what, first));
      if (this.plan.notices) this.subscriber.next(new ConnectionNotice("reconnecting", this.attempt));
      this.wait(what, first);
    });
  }

  /** Waits as `config.delay` says, then reconnects after the last `id:`. */
  private wait(what: Cut, streak: Cut): void {
    const { plan, attempt, retryMs } = this;
    const cause = what.kind === "error" ? what.error : undefined;
    const delay = plan.config.delay;
    let notifier: Observable<unknown>;
    try {
      // a 503's Retry-After (capped, MAX_RETRY_AFTER_MS) is a floor under the backoff; a delay function decides for itself
      const scheduler = plan.scheduler ?? asyncScheduler;
      notifier =
        typeof delay === "function"
          ? from(delay(cause, attempt, retryMs))
          : timer(Math.max(delay ?? reconnectDelay(attempt, retryMs), askedWait(cause)), scheduler);
    } catch (error) {
      this.subscriber.error(error); // a delay function that throws ends the run with its error, as a per-value callback must
      return;
    }
    const waiting = new Subscription();
    this.phase = { kind: "waiting", timer: waiting };
    waiting.add(
      notifier.pipe(take(1)).subscribe({
        next: () => this.open(plan.again(this.position()), true, streak),
        error: (error: unknown) => this.subscriber.error(error),
        complete: () => {
          if (this.phase.kind === "waiting") this.give(streak); // the notifier gave up
        },
      }),
    );
  }

  /** Where a reconnect resumes: a queued message whose run passed nothing yet is asked for by its id, anything else after the last `id:`. */
  private position(): ResumePosition {
    const { lastEventId, runId, attempt, queued } = this;
    return queued !== undefined && !this.passed ? { lastEventId: undefined, runId, attempt, queued } : { lastEventId, runId, attempt };
  }

  private give(cut: Cut): void {
    if (cut.kind === "complete") this.subscriber.complete();
    else this.subscriber.error(cut.error);
  }
}

function unreachable(phase: never): never {
  throw new Error(`expected a known follower phase, but got ${JSON.stringify(phase)}`);
}
