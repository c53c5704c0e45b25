/**
 * The machinery one run shares between its context, its subagent contexts and its handles: the
 * synchronous emit path (normalize → verify → state encoding → out), the typed shared state, the
 * spans still open, and the abort controller. Internal to `agui-rx/server`.
 */
import * as E from "../protocol/either";
import { ev, withSubagentRunId } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import type { Interrupt } from "../protocol/outcomes";
import { TokenUsage } from "../protocol/common";
import { describeFailure } from "../protocol/describeFailure";
import type { StateSpec } from "../protocol/stateSpec";
import { DEFAULT_MAX_JSON_DEPTH } from "../protocol/jsonDepth";
import type { ProtocolError } from "../operators/ProtocolError";
import { checkedStep, initialCheckedState, type CheckedSink, type CheckedState } from "../operators/checkedStep";
import { stateEncodingStep } from "../operators/selectStateEncoding";
import { checkEgress } from "./checkEgress";
import { StateManager } from "../operators/StateManager";
import type { IdSource } from "./ids";
import { IncomingMessages } from "./IncomingMessages";
import { isTerminal } from "../thread/isTerminal";
import type { UserMessage } from "../protocol/messages";
import type { Observable } from "rxjs";

/**
 * Something the driver closes if the agent leaves it open: a message, tool call, reasoning, step or subagent.
 *
 * @example
 * if (handle.isOpen) handle.close();
 */
export interface Closable {
  readonly isOpen: boolean;
  close(): void;
}

/**
 * Where a span was opened: the run's top-level context, or a subagent context nested under its parent.
 *
 * @example
 * const root: Scope = { parent: undefined };
 * const child: Scope = { parent: root };
 */
export interface Scope {
  readonly parent: Scope | undefined;
}

/** The summed fields of a `TokenUsage` (all but `provider` and `model`). */
const USAGE_COUNTS = [
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "reasoningTokens",
  "cachedInputTokens",
  "cacheWriteInputTokens",
] as const satisfies readonly (keyof TokenUsage)[];

function within(scope: Scope, ancestor: Scope): boolean {
  for (let s: Scope | undefined = scope; s !== undefined; s = s.parent) if (s === ancestor) return true;
  return false;
}

/**
 * What a `RunCore` is told besides the run itself.
 *
 * @example
 * const options: RunCoreOptions = { newId: sequentialIds("id"), maxJsonDepth: 512 };
 */
export interface RunCoreOptions {
  readonly newId: IdSource;
  readonly ready?: (() => Promise<void>) | undefined;
  readonly maxJsonDepth?: number | undefined;
  /** Where `ctx.setThreadTitle` sends a title (`RunAgentOptions.setThreadTitle`); none: it does nothing. */
  readonly setThreadTitle?: ((title: string) => Promise<void>) | undefined;
  /** The messages steered into the run (`RunAgentOptions.incoming`); none: `ctx.incoming$` completes at once. */
  readonly incoming?: Observable<UserMessage> | undefined;
  /** The ids of those that no longer wait (`RunAgentOptions.withdrawn`). */
  readonly withdrawn?: Observable<string> | undefined;
}

/**
 * One run's shared machinery (see the file comment). Internal: made by `run` and `createRunContext`.
 *
 * @example
 * const core = new RunCore(spec, input, (event) => subscriber.next(event), initialState, { newId: randomIds });
 * core.write(ev.runStarted(input.threadId, input.runId));
 */
export class RunCore<S> {
  /** The normalizer and the verifier, run as one checked step in strict mode. */
  private readonly checked: CheckedState;
  /** Where each write's step collects what it sent (reused: a write allocates nothing for it). */
  private readonly step = new Collected();
  private readonly encoding = new StateManager();
  private readonly open = new Map<Closable, Scope>();
  readonly controller = new AbortController();
  /** The state being edited (`stateMut`). */
  working: S;
  /** A private copy of the state as last published (`state`). */
  published: S;
  /** The interrupts of the outcome being finished, so a subagent left open closes as suspended. */
  pendingInterrupts: readonly Interrupt[] = [];
  /** Token usage reported so far (`ctx.reportUsage`), one entry per (provider, model), for the terminal event. */
  private readonly usage: TokenUsage[] = [];

  readonly newId: IdSource;
  /** The consumer's pace (`RunAgentOptions.ready`); none means it never asks the run to wait. */
  readonly ready: () => Promise<void>;
  /** Where `ctx.setThreadTitle` sends a title: the store's run, or nowhere (`RunAgentOptions.setThreadTitle`). */
  readonly setThreadTitle: (title: string) => Promise<void>;
  /** The nesting limit of every event sent (`RunAgentOptions.maxJsonDepth`). */
  private readonly maxJsonDepth: number;
  /** The steered messages (docs/queue.md#steer): started by the driver before the agent runs, closed before the terminal. */
  readonly incoming: IncomingMessages;

  constructor(
    readonly spec: StateSpec<S> | undefined,
    readonly input: RunAgentInput,
    private readonly output: (event: Event) => void,
    initial: S,
    options: RunCoreOptions,
  ) {
    this.newId = options.newId;
    this.ready = options.ready ?? (() => Promise.resolve());
    this.setThreadTitle = options.setThreadTitle ?? (() => Promise.resolve());
    this.maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    this.incoming = new IncomingMessages(options.incoming, (event) => this.write(event), this.controller.signal, options.withdrawn);
    this.checked = initialCheckedState({ mode: "strict", newId: this.newId });
    // Both are private copies: `initial` may be the spec's shared default, which `stateMut` edits
    // must never reach, and `state` must not follow `stateMut` edits before a publish.
    this.working = this.copy(initial).typed;
    this.published = this.copy(initial).typed;
  }

  /**
   * The egress check (`checkEgress`, rule docs/rules.md#S10): throws a `ProtocolError` for an event a client
   * would refuse, strip or rewrite. Called for every event whose content comes from outside the
   * typed writers (`ctx.emit`, state, activity content, results, outcomes); an event an `ev.*`
   * builder made from typed arguments needs none, which keeps the streaming hot path (deltas) at
   * the cost it had.
   */
  check(event: unknown): void {
    const refused = checkEgress(event, this.maxJsonDepth);
    if (refused !== undefined) throw refused;
  }

  /**
   * Sends `event` now, or throws and sends nothing. The chunk normalizer may expand one input into
   * several events; each is verified in order (`checkedStep`, strict), and if one is rejected the
   * ones before it are still sent before the error is thrown, and the normalizer and verifier hold
   * exactly what was sent, so the stream and the two never disagree. Every typed writer produces
   * exactly one event, so for them a rejection always means nothing was sent. Does not run the
   * egress check (`check`).
   */
  write(event: Event): void {
    const { signal } = this.controller;
    if (signal.aborted) throw signal.reason;
    let refused: ProtocolError | undefined;
    try {
      checkedStep(this.checked, event, this.step);
    } finally {
      refused = this.flush(); // what the verifier accepted is sent even when the id source threw part-way
    }
    if (refused !== undefined) throw refused;
  }

  /** Sends what the last step collected and returns its refusal, if any; emptied first: what `output` sets off (a subscriber, an agent's callback) may write again. */
  private flush(): ProtocolError | undefined {
    const { first, more, error } = this.step;
    this.step.clear();
    if (first !== undefined) this.send(first);
    if (more !== undefined) for (const next of more) this.send(next);
    return error;
  }

  private send(event: Event): void {
    const encoded = stateEncodingStep(this.encoding, event);
    if (encoded !== undefined) this.output(encoded);
  }

  /**
   * Feeds `event` to the normalizer and verifier without sending it: the test harness starts its
   * context inside a run without emitting the RUN_STARTED the driver would have sent.
   */
  prime(event: Event): void {
    let refused: ProtocolError | undefined;
    try {
      checkedStep(this.checked, event, this.step);
    } finally {
      refused = this.step.error; // primed, never sent
      this.step.clear();
    }
    if (refused !== undefined) throw refused;
  }

  /**
   * Publishes the working state as a STATE_SNAPSHOT; the state encoding turns it into a delta or
   * nothing (docs/rules.md#S5). The snapshot is a private copy of the codec's output, so later edits of
   * `stateMut` never reach an event already sent.
   */
  publishState(tag: string | undefined): void {
    const { wire, typed } = this.copy(this.working);
    const snapshot = ev.stateSnapshot(wire);
    this.check(snapshot); // a state may hold what JSON cannot carry (a BigInt, a cycle, too deep)
    this.write(tag === undefined ? snapshot : withSubagentRunId(snapshot, tag));
    this.published = typed;
  }

  /**
   * Two private copies of `value`: its wire form (the codec's output), and the typed value read
   * back from that form by the codec, so `state` holds real instances (a `Date` stays a `Date`)
   * and shares nothing with `stateMut` or with the event sent.
   */
  private copy(value: S): { wire: unknown; typed: S } {
    const codec = this.spec?.codec;
    if (codec === undefined) return { wire: structuredClone(value), typed: structuredClone(value) };
    const wire = structuredClone(codec.encode(value));
    const typed = codec.decode(structuredClone(wire));
    if (E.isLeft(typed)) {
      throw new TypeError(`the state codec "${codec.name}" cannot decode what it encoded; a state codec must round-trip`);
    }
    return { wire, typed: typed.right };
  }

  /**
   * Adds `entry` to the run's usage: counts of an entry with the same provider and model are
   * summed (a count reported by only one of them is kept as it is), a new pair is appended.
   * Throws a `TypeError` naming the field for a count that is not a non-negative integer, and
   * records nothing then.
   */
  addUsage(entry: TokenUsage): void {
    const decoded = TokenUsage.decode(entry);
    if (E.isLeft(decoded)) {
      const failure = describeFailure(decoded.left);
      throw new TypeError(`invalid token usage at "${failure.path}": ${failure.expected}, but got ${JSON.stringify(failure.actual)}`);
    }
    const same = this.usage.find((kept) => kept.provider === entry.provider && kept.model === entry.model);
    if (same === undefined) {
      this.usage.push({ ...decoded.right });
      return;
    }
    for (const key of USAGE_COUNTS) {
      const added = decoded.right[key];
      if (added !== undefined) same[key] = (same[key] ?? 0) + added;
    }
  }

  /** A copy of the usage reported so far. */
  usageSoFar(): TokenUsage[] {
    return this.usage.map((entry) => ({ ...entry }));
  }

  /** `terminal` with the run's usage attached (RUN_FINISHED.usage, RUN_ERROR.usage) when any was reported; other events as they are. */
  withUsage(terminal: Event): Event {
    if (this.usage.length === 0 || !isTerminal(terminal)) return terminal;
    return { ...terminal, usage: this.usageSoFar() };
  }

  track(span: Closable, scope: Scope): void {
    this.open.set(span, scope);
  }

  untrack(span: Closable): void {
    this.open.delete(span);
  }

  /** Closes the spans still open, innermost (latest opened) first; only those inside `scope` when given. */
  closeOpen(scope?: Scope): void {
    const entries = [...this.open].reverse();
    for (const [span, where] of entries) {
      if (span.isOpen && (scope === undefined || within(where, scope))) span.close();
    }
  }
}

/**
 * One checked step's outcome, collected: the events to send (the first apart, so the usual step of
 * one event allocates nothing), and the error that ended it, if any. Read it, then `clear` it.
 */
class Collected implements CheckedSink {
  first: Event | undefined;
  more: Event[] | undefined;
  error: ProtocolError | undefined;

  sent(event: Event): void {
    if (this.first === undefined) this.first = event;
    else (this.more ??= []).push(event);
  }

  refused(error: ProtocolError): void {
    this.error = error;
  }

  clear(): void {
    this.first = this.more = this.error = undefined;
  }
}
