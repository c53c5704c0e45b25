/**
 * The steered messages of one run (docs/queue.md#steer): what `RunAgentOptions.incoming` sends in, held
 * until the agent takes them, recorded in the run's events at the moment they are taken, and
 * offered through `ctx.offers$` / `ctx.incoming$`. Internal to `agui-rx/server`: the run's core
 * owns one.
 */
import { Observable, Subject, type Subscription } from "rxjs";
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { UserMessage } from "../protocol/messages";
import { steerText } from "../protocol/steerText";
import type { IncomingOffer } from "./IncomingOffer";

/** One received message, in order of arrival (`seq`), until it is taken. */
class Offer implements IncomingOffer {
  #taken = false;
  #withdrawn = false;

  constructor(
    readonly message: UserMessage,
    /** Its text (content joined), recorded as the TEXT_MESSAGE_CONTENT delta. */
    readonly text: string,
    /** Its place in the order of arrival: each subscriber is offered each `seq` once. */
    readonly seq: number,
    private readonly owner: IncomingMessages,
  ) {}

  get isOpen(): boolean {
    return !this.#taken && !this.#withdrawn;
  }

  take(): boolean {
    if (this.#taken || this.#withdrawn || !this.owner.record(this)) return false;
    this.#taken = true;
    this.owner.handOver(this);
    return true;
  }

  /** Its sender cancelled it before it was taken: it is no longer open. */
  withdraw(): void {
    if (!this.#taken) this.#withdrawn = true;
  }
}

/**
 * The steered messages of one run. `start()` subscribes the source (`RunAgentOptions.incoming`) and
 * keeps every message it sends, in order, until it is taken; `close()` (the run's terminal, a
 * stop, the consumer gone, or `ctx.signal` aborting) ends it: nothing is taken afterwards, and
 * `offers$` and `incoming$` complete. A message whose content is not text only cannot be a steer
 * (the handler refuses it before, 422 `steer-not-text`): it is skipped, never offered, so it stays
 * in the store's queue and runs as a queued message of its own. A second message with an id
 * already received is skipped too (the source sends each once). A message withdrawn (its id on
 * `withdrawn`: its sender cancelled it) before it is taken is dropped, and never received after.
 *
 * @example
 * const incoming = new IncomingMessages(options.incoming, (event) => core.write(event), core.controller.signal);
 * incoming.start();
 * incoming.incoming$.subscribe((message) => console.log(message.content)); // recorded, then handed over
 * incoming.close();
 */
export class IncomingMessages {
  /** Received and not taken yet, in order of arrival; a taken one leaves at once, so this holds at most what the store keeps waiting. */
  private readonly pending: Offer[] = [];
  private readonly seen = new Set<string>();
  /** Signals every subscriber of `offers$` to look at `pending` again: a message arrived, the source completed, or the run ended. */
  private readonly changed = new Subject<void>();
  /** Each message as it is taken, for every subscriber of `incoming$`. */
  private readonly taken = new Subject<UserMessage>();
  private source: Subscription | undefined;
  private withdrawals: Subscription | undefined;
  private nextSeq = 0;
  private sourceDone = false;
  private closed = false;

  constructor(
    private readonly messages: Observable<UserMessage> | undefined,
    /** Writes one event through the run's verified chain (`RunCore.write`): throws and sends nothing when refused. */
    private readonly write: (event: Event) => void,
    private readonly signal: AbortSignal,
    /** The ids of messages that no longer wait (`RunAgentOptions.withdrawn`). */
    private readonly withdrawn?: Observable<string>,
  ) {
    this.sourceDone = messages === undefined;
  }

  /** Subscribes the source, once; a run started without one has none (`offers$` and `incoming$` complete at once). */
  start(): void {
    if (this.closed || this.source !== undefined || this.messages === undefined) return;
    if (this.signal.aborted) return this.close();
    this.signal.addEventListener("abort", this.close, { once: true });
    // first, so that a cancellation announced while the source sends its backlog is not missed
    this.withdrawals = this.withdrawn?.subscribe({ next: (id) => this.withdraw(id), error: () => undefined });
    this.source = this.messages.subscribe({
      next: (message) => this.receive(message),
      // A source that fails sends nothing more: what it sent is still offered, as after its end.
      error: () => this.sourceEnded(),
      complete: () => this.sourceEnded(),
    });
  }

  /** Ends taking: from now on `take()` returns `false`; subscribers complete. Idempotent. */
  readonly close = (): void => {
    if (this.closed) return;
    this.closed = true;
    this.signal.removeEventListener("abort", this.close);
    this.source?.unsubscribe();
    this.withdrawals?.unsubscribe();
    this.pending.length = 0;
    this.changed.next();
    this.changed.complete();
    this.taken.complete();
  };

  /**
   * Each message not taken yet, offered once to each subscriber: those received before it
   * subscribed first, in order, then each as it arrives. Completes when the run ends, or when the
   * source has completed and everything received was offered.
   */
  readonly offers$: Observable<IncomingOffer> = new Observable<IncomingOffer>((subscriber) => {
    let offeredUpTo = -1;
    let draining = false;
    let again = false;
    // Offering runs the subscriber's code, which may take (writing events, and so anything the
    // run's consumer does) or receive more: a re-entrant call only asks the running loop to look again.
    const drain = (): void => {
      if (draining) {
        again = true;
        return;
      }
      draining = true;
      do {
        again = false;
        for (const offer of [...this.pending]) {
          if (subscriber.closed) return;
          if (offer.seq <= offeredUpTo) continue;
          offeredUpTo = offer.seq;
          if (offer.isOpen && !this.closed) subscriber.next(offer);
        }
      } while (again && !subscriber.closed);
      draining = false;
      if (this.closed || this.sourceDone) subscriber.complete();
    };
    const changes = this.changed.subscribe({ next: drain, complete: drain });
    drain();
    return changes;
  });

  /**
   * The messages as they are taken: subscribing takes every message offered to it (recorded, then
   * handed over). Each subscriber receives every message taken while it is subscribed, by it or by
   * anyone else (`offers$`), each recorded once. Completes as `offers$` does.
   */
  readonly incoming$: Observable<UserMessage> = new Observable<UserMessage>((subscriber) => {
    const handed = this.taken.subscribe(subscriber);
    const offers = this.offers$.subscribe({
      next: (offer) => offer.take(),
      complete: () => subscriber.complete(),
    });
    return () => {
      offers.unsubscribe();
      handed.unsubscribe();
    };
  });

  /** @internal Records `offer` in the run's events; `false` (nothing sent) when the run is over or the verifier refuses it where the run is now. */
  record(offer: Offer): boolean {
    if (this.closed || this.signal.aborted) return false;
    const { id } = offer.message;
    try {
      this.write(ev.textMessageStart(id, { role: "user" }));
    } catch {
      // Refused (its id is open in this run) or the run just ended: it stays offered, and in the store's queue.
      return false;
    }
    // An empty text is recorded as START and END: TEXT_MESSAGE_CONTENT carries a non-empty delta.
    if (offer.text !== "") this.write(ev.textMessageContent(id, offer.text));
    this.write(ev.textMessageEnd(id));
    return true;
  }

  /** @internal The offer was recorded: it leaves `pending` and goes to every subscriber of `incoming$`. */
  handOver(offer: Offer): void {
    const at = this.pending.indexOf(offer);
    if (at >= 0) this.pending.splice(at, 1);
    this.taken.next(offer.message);
  }

  private receive(message: UserMessage): void {
    if (this.closed || this.seen.has(message.id)) return;
    this.seen.add(message.id);
    const text = steerText(message);
    if (text === undefined) return; // not text only: never a steer (see the class comment)
    this.pending.push(new Offer(message, text, this.nextSeq++, this));
    this.changed.next();
  }

  /** Drops the message `id` if it waits here, and makes sure it is never received after. */
  private withdraw(id: string): void {
    if (this.closed) return;
    this.seen.add(id);
    const at = this.pending.findIndex((offer) => offer.message.id === id);
    if (at < 0) return;
    this.pending[at].withdraw();
    this.pending.splice(at, 1);
  }

  private sourceEnded(): void {
    if (this.closed) return;
    this.sourceDone = true;
    this.changed.next();
  }
}
