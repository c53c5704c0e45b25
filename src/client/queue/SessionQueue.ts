/**
 * A Session's side of sending while the agent works (docs/queue.md#in-the-client): the post of a
 * send with a policy, what the thread's events and runs say of its queue, and cancelling a
 * waiting message. Kept apart from the Session, which delegates to it.
 */
import { defer, finalize, map, tap, type Observable } from "rxjs";
import { afterAnswer } from "../../rx/afterAnswer";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";
import type { Message, UserMessage } from "../../protocol/messages";
import { whileRunningForwardedProps, type QueuedPolicy } from "../../protocol/queueMeta";
import { ClientError } from "../../thread/ClientError";
import { isTerminal } from "../../thread/isTerminal";
import type { Update } from "../../thread/Update";
import type { KnownHistory } from "../KnownHistory";
import type { ActiveRun, RunSlot } from "../RunSlot";
import type { RunOptions } from "../SessionOptions";
import type { QueueNoticeItem } from "../transports/QueueNoticeItem";
import type { CancelQueuedResult, ThreadNotice, Transport } from "../transports/Transport";
import type { QueueList } from "./QueueList";
import { queuedSend, type RunItem } from "./queuedSend";

/**
 * What the queue side needs of its session.
 *
 * @example
 * new SessionQueue({ transport, threadId, queue, slot, known, messages: () => session.messages, owned: () => ownsHistory(transport), now: Date.now, notify });
 */
export interface SessionQueueOptions {
  readonly transport: Transport;
  readonly threadId: string;
  readonly queue: QueueList;
  readonly slot: RunSlot;
  readonly known: KnownHistory;
  /** The session's messages now (what the post's anchor is taken from). */
  readonly messages: () => readonly Message[];
  /** Whether the server owns the history (asked once per transport). */
  readonly owned: () => Observable<boolean>;
  readonly now: () => number;
  /** The list changed (the session's `queue` view). */
  readonly notify: () => void;
}

/**
 * One send with a policy: the message, its id (the posted `runId`), the input the session would
 * post for a plain send (`input`), and how the session follows the run it starts (`run`).
 *
 * @example
 * const request: PolicySend<Board> = { user, id: "r3", policy: "queue", input: (owned) => sessionInput(owned), run: (items, active) => follow(items, active) };
 */
export interface PolicySend<S> {
  readonly user: UserMessage;
  readonly id: string;
  readonly policy: QueuedPolicy;
  readonly input: (owned: boolean) => RunAgentInput;
  readonly run: (items: Observable<RunItem>, active: ActiveRun) => Observable<Update<S>>;
}

/**
 * The queue side of one Session: `send` (a send with a policy, `queuedSend`), `cancel`, and the
 * list's inputs: `event` (each event of the session's runs and joins), `heard` (each notice of
 * the thread's events stream, answering whether the session should join a run the server started
 * from the queue).
 *
 * @example
 * const sending = new SessionQueue<Board>(options);
 * sending.send({ user, id, policy: "queue", input, run }).subscribe(render);
 */
export class SessionQueue<S> {
  /** The run of one of the session's own sends that a join is showing now (from its RUN_STARTED until its terminal). */
  private joinedRun: string | undefined;
  /** The runs of the session's own sends that a join showed through their end (their sends apply none of their events again). */
  private readonly shown = new Set<string>();

  constructor(private readonly options: SessionQueueOptions) {}

  /**
   * The Update stream of a send with a policy (see `queuedSend`). Its post carries the message, the
   * anchor (docs/threads.md#the-anchor-rule: the last message the server is known to store) and
   * the policy under our key; the message is listed as waiting, never appended before its run's
   * RUN_STARTED (which gets it as its input when the server does not echo it).
   */
  send(request: PolicySend<S>): Observable<Update<S>> {
    const { transport, known, queue, slot } = this.options;
    const { user, id, policy } = request;
    const post = () =>
      afterAnswer(
        () => this.options.owned(),
        (owned) => {
          const base = request.input(owned);
          const present = this.options.messages().filter((message) => message.role !== "activity");
          const messages = owned ? [...known.newPart([...present, user])] : [...present, user];
          const made: RunAgentInput = { ...base, runId: id, messages, forwardedProps: whileRunningForwardedProps(policy, base.forwardedProps) };
          let heard = false;
          return defer(() => transport.run(made, { warnings: true, connection: true, queue: true })).pipe(
            map((item) => withQueuedMessage(item, id, user, made)),
            tap((item) => {
              if (heard || !("type" in item) || typeof item.type !== "string") return;
              heard = true;
              known.heard(made.messages);
            }),
          );
        },
      );
    const shown = () => this.shown.has(id);
    return queuedSend<S>({
      id,
      message: user,
      policy,
      post,
      slot,
      queue,
      queueChanged: this.options.notify,
      now: this.options.now,
      run: request.run,
      shown,
    }).pipe(finalize(() => this.shown.delete(id)));
  }

  /** Cancels the waiting message `id` (`transport.cancelQueued`); a confirmed cancel takes it out of the list at once. */
  async cancel(id: string): Promise<CancelQueuedResult> {
    const { transport, threadId, queue } = this.options;
    if (transport.cancelQueued === undefined)
      throw new ClientError(
        "config",
        "this session's transport cannot cancel a waiting message (it has no cancelQueued): use HttpTransport against a server that keeps threads",
      );
    const result = await transport.cancelQueued({ threadId, id });
    if (result !== "started" && queue.drop(id)) this.options.notify();
    return result;
  }

  /** An event of the session's runs or joins: a join's MESSAGES_SNAPSHOT lists the thread's queue; runs and recorded messages take entries out. */
  event(event: Event, joining: boolean): void {
    const { queue } = this.options;
    if (joining) this.joined(event);
    let changed = joining && event.type === "MESSAGES_SNAPSHOT" && queue.snapshot(event.metadata);
    if (queue.event(event)) changed = true;
    if (changed) this.options.notify();
  }

  /**
   * An event of a join: a join that shows the run of one of the session's own sends still waiting
   * for its answer (a `connect()` made before that answer arrived) through its end has shown that
   * run; its send must not apply it again (docs/queue.md#in-the-client: never twice).
   */
  private joined(event: Event): void {
    if (event.type === "RUN_STARTED") this.joinedRun = this.options.queue.owns(event.runId) ? event.runId : undefined;
    else if (isTerminal(event) && this.joinedRun !== undefined) {
      this.shown.add(this.joinedRun);
      this.joinedRun = undefined;
    }
  }

  /**
   * A notice of the thread's events stream: a queue change updates the list; answers whether the
   * session should join the thread (a waiting message of another tab or of a send no longer
   * followed started its run: `queue-started`). The session's own send follows its own run.
   */
  heard(notice: ThreadNotice): boolean {
    const { queue } = this.options;
    if (queue.thread(notice)) this.options.notify();
    return notice.type === "queue-started" && notice.queued !== undefined && !queue.owns(notice.queued.id);
  }
}

/**
 * Why a run cannot carry `runOptions.whileRunning` (`what`: an edit, a regenerate, a resume): only
 * `send` takes a policy (docs/queue.md#policies); `undefined` when it asks for none.
 *
 * @example
 * policyRefusal({ whileRunning: "queue" }, "a resume")?.message;
 */
export function policyRefusal(runOptions: RunOptions, what: string): ClientError | undefined {
  const policy = runOptions.whileRunning ?? "refuse";
  if (policy === "refuse") return undefined;
  return new ClientError(
    "config",
    `${what} cannot be sent with whileRunning "${policy}": only send takes a policy (an edit, a regenerate or a resume waits for the live run); leave whileRunning out or use "refuse"`,
  );
}

/** The message's own RUN_STARTED, with the message as its input when the server did not echo it (so that it is shown, once). */
function withQueuedMessage(item: RunItem | QueueNoticeItem, id: string, user: UserMessage, made: RunAgentInput): RunItem | QueueNoticeItem {
  if (!("type" in item) || typeof item.type !== "string" || item.type !== "RUN_STARTED" || item.runId !== id) return item;
  const input = item.input ?? { ...made, messages: [] };
  if (input.messages.some((message) => message.id === user.id)) return item;
  return { ...item, input: { ...input, messages: [...input.messages, user] } };
}
