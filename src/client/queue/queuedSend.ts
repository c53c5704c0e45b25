/**
 * A send with a policy (docs/queue.md#in-the-client): posted without taking the session's run slot,
 * its queue notices told as `queued` updates, then its run, once it started and the session's run
 * before it is done, followed like any other in the same subscription.
 */
import { Observable, type Subscriber, type Subscription } from "rxjs";
import type { Event } from "../../protocol/events";
import type { UserMessage } from "../../protocol/messages";
import type { QueuedPolicy, QueueNotice } from "../../protocol/queueMeta";
import { ClientError } from "../../thread/ClientError";
import { isTerminal } from "../../thread/isTerminal";
import { finishedRunEnd } from "../../thread/reducers/finishedRunEnd";
import type { Update } from "../../thread/Update";
import type { DecodeWarning } from "../../wire/DecodeWarning";
import { failedUpdates } from "../failedExchange";
import type { ActiveRun, RunSlot } from "../RunSlot";
import type { ConnectionNotice } from "../transports/ConnectionNotice";
import { isQueueNoticeItem, type QueueNoticeItem } from "../transports/QueueNoticeItem";
import { ownEntry, type QueueList } from "./QueueList";

/** A run's items as the Session's pipeline reads them (queue notices taken out). */
export type RunItem = Event | DecodeWarning | ConnectionNotice;

/**
 * What a queued send needs of its session.
 *
 * @example
 * const options: QueuedSendOptions<Board> = { id, message, policy: "queue", post, slot, queue, queueChanged, now: Date.now, run };
 */
export interface QueuedSendOptions<S> {
  /** The message's id on the wire: the posted input's `runId`, the id of the run it starts. */
  readonly id: string;
  readonly message: UserMessage;
  readonly policy: QueuedPolicy;
  /** The post (cold): the transport's items for the input sent with the policy, queue notices included. */
  readonly post: () => Observable<RunItem | QueueNoticeItem>;
  readonly slot: RunSlot;
  readonly queue: QueueList;
  /** The list changed (the session's `queue` view). */
  readonly queueChanged: () => void;
  readonly now: () => number;
  /** The message's run on the slot taken for it: its items through the session's pipeline and tool loop (the slot is freed at its `done`). */
  readonly run: (items: Observable<RunItem>, active: ActiveRun) => Observable<Update<S>>;
  /**
   * Whether a join of the session (`connect()`, made while this send's answer had not arrived yet)
   * already showed the message's run through its end: then its items are not applied again.
   */
  readonly shown: () => boolean;
}

/**
 * Where a queued send stands: `waiting` (posted; notices, no run yet), `starting` (its run
 * started or the post runs now, and it waits for the session's slot), `running` (its run is
 * followed), `ended` (cancelled, taken, refused, or unsubscribed).
 */
type QueuedPhase = "waiting" | "starting" | "running" | "ended";

/**
 * The Update stream of one send with a policy, cold. Each status of the waiting message is a
 * `queued` update (and changes `queue`'s list); `cancelled` ends it with `done` cancelled, `taken`
 * (a steer the live run's agent took) with `done` success. When its run starts (`started`, or an
 * answer that is a run's stream at once) the run's items are kept until the session's slot is
 * free, then followed as `run` says: its updates, then its one `done`. A failure before the run
 * (the post refused: 400, 409 `queue-pending`, 422 `steer-not-text`, 429 `queue-full`) is an
 * `error` update and `done` failed. Unsubscribing only detaches: the message still waits on the
 * server (`session.cancelQueued` cancels it).
 *
 * @example
 * queuedSend({ id, message, policy: "queue", post, slot, queue, queueChanged, now: Date.now, run }).subscribe(render);
 */
export function queuedSend<S>(options: QueuedSendOptions<S>): Observable<Update<S>> {
  return new Observable<Update<S>>((subscriber) => {
    const { id, queue, slot } = options;
    const items = new HeldItems();
    let phase: QueuedPhase = "waiting";
    let freeing: Subscription | undefined;
    let running: Subscription | undefined;
    const end = (update: Update<S>): void => {
      phase = "ended";
      if (queue.drop(id)) options.queueChanged();
      subscriber.next(update);
      subscriber.complete();
    };
    const start = (): void => {
      phase = "starting";
      freeing = slot.whenFree().subscribe(() => {
        phase = "running";
        // A join showed the run (its snapshot, its events, its end): applying its events again would show them twice
        // (a text message's deltas appended to the text the snapshot already holds). Only how it ended is read.
        if (options.shown()) {
          running = shownRunEnd<S>(items.observable).subscribe({ next: (update) => (update.kind === "done" ? end(update) : subscriber.next(update)) });
          return;
        }
        const active = slot.begin();
        active.runId = id;
        active.heard = true;
        running = slot.observe(options.run(items.observable, active), active).subscribe(subscriber);
      });
    };
    const noticed = (notice: QueueNotice): void => {
      if (phase === "ended") return;
      const fallback = () => ownEntry(id, options.policy, "queued", options.message, options.now());
      if (queue.notice(notice, fallback)) options.queueChanged();
      subscriber.next({ kind: "queued", notice });
      if (notice.status === "cancelled") end({ kind: "done", end: { kind: "cancelled" } });
      else if (notice.status === "taken") end({ kind: "done", end: { kind: "success" } });
      else if (notice.status === "started" && phase === "waiting") start();
    };
    queue.claim(id);
    const posting = options.post().subscribe({
      next: (item) => {
        if (isQueueNoticeItem(item)) return noticed(item.notice);
        items.next(item);
        // an answer that is a run's stream at once: the message runs now (nothing was live)
        if (phase === "waiting" && "type" in item) start();
      },
      error: (error: unknown) => {
        if (phase === "waiting") {
          const failure = ClientError.from(error);
          subscriber.next({ kind: "error", error: failure });
          end({ kind: "done", end: { kind: "failed", message: failure.message } });
        } else items.error(error);
      },
      complete: () => {
        if (phase !== "waiting") return items.complete();
        const failure = new ClientError(
          "transport",
          `the stream of the message sent while the agent works (${id}) ended before its run started or it was cancelled`,
        );
        subscriber.next({ kind: "error", error: failure });
        end({ kind: "done", end: { kind: "failed", message: failure.message } });
      },
    });
    return () => {
      posting.unsubscribe();
      freeing?.unsubscribe();
      running?.unsubscribe();
      queue.release(id);
    };
  });
}

/**
 * The end of a run a join of the session already showed: its items read only for their terminal,
 * told as the session's reducer tells it (RUN_ERROR an `error` then `done` failed; RUN_FINISHED its
 * `finishedRunEnd`). The join's own exchange executed any client tool calls it left.
 */
function shownRunEnd<S>(items: Observable<RunItem>): Observable<Update<S>> {
  return new Observable<Update<S>>((subscriber) => {
    const fail = (error: ClientError): void => {
      for (const update of failedUpdates<S>(error)) subscriber.next(update);
      subscriber.complete();
    };
    return items.subscribe({
      next: (item) => {
        if (!("type" in item) || !isTerminal(item) || subscriber.closed) return;
        if (item.type === "RUN_ERROR") return fail(new ClientError("run", item.message, { code: item.code, event: item }));
        subscriber.next({ kind: "done", end: finishedRunEnd(item) });
        subscriber.complete();
      },
      error: (error: unknown) => fail(ClientError.from(error)),
      complete: () => {
        if (!subscriber.closed)
          fail(new ClientError("decode", "the stream ended before the run's RUN_FINISHED or RUN_ERROR: it was truncated", { code: "truncated" }));
      },
    });
  });
}

/**
 * A run's items, held until the pipeline subscribes (the session's run before it may still be
 * going), then handed on as they come: the hold lasts only until the slot is free.
 */
class HeldItems {
  private held: { readonly item?: RunItem; readonly error?: unknown; readonly complete?: true }[] | undefined = [];
  private target: Subscriber<RunItem> | undefined;

  /** The items, for one subscriber: what was held first, then the rest as it comes. */
  readonly observable = new Observable<RunItem>((subscriber) => {
    this.target = subscriber;
    const held = this.held ?? [];
    this.held = undefined;
    for (const entry of held) {
      if (subscriber.closed) break;
      if (entry.complete === true) subscriber.complete();
      else if ("error" in entry) subscriber.error(entry.error);
      else if (entry.item !== undefined) subscriber.next(entry.item);
    }
    return () => (this.target = undefined);
  });

  next(item: RunItem): void {
    if (this.held === undefined) this.target?.next(item);
    else this.held.push({ item });
  }

  error(error: unknown): void {
    if (this.held === undefined) this.target?.error(error);
    else this.held.push({ error });
  }

  complete(): void {
    if (this.held === undefined) this.target?.complete();
    else this.held.push({ complete: true });
  }
}
