/**
 * What an agent's `run` receives: the request, the typed shared state, and the writers that emit
 * events through the run's verified chain (docs/seeds.md#seed-002, docs/server.md#run-and-context). The handles it opens depend on
 * its port (`RunPort.ts`), not on it; the subagent context is `SubagentRunContext.ts`, which this
 * file reaches only through the factory each context is made with.
 */
import type { Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { TokenUsage } from "../protocol/common";
import type { UserMessage } from "../protocol/messages";
import type { Interrupt, SubagentFinishedOutcome } from "../protocol/outcomes";
import type { IncomingOffer } from "./IncomingOffer";
import { interrupt, type InterruptFields } from "./interrupt";
import { ActivityHandle } from "./handles/ActivityHandle";
import { MessageHandle, type MessageOptions } from "./handles/MessageHandle";
import { ReasoningHandle } from "./handles/ReasoningHandle";
import { StepGuard } from "./handles/StepGuard";
import { ToolCallHandle, type ToolCallOptions } from "./handles/ToolCallHandle";
import type { Closable, RunCore, Scope } from "./RunCore";
import { ScopedRunPort } from "./RunPort";
import { RunReaders } from "./RunReaders";

/**
 * Options of `ctx.subagent()`.
 *
 * @example
 * ctx.subagent("researcher", { description: "finds sources", parentToolCallId: call.id });
 */
export interface SubagentOptions {
  /** The invocation id; a fresh one by default. Pass a suspended subagent's old id to resume it (docs/rules.md#I12). */
  readonly id?: string | undefined;
  readonly description?: string | undefined;
  /** The tool call of the parent that started this subagent. */
  readonly parentToolCallId?: string | undefined;
  /** The message of the parent that started this subagent. */
  readonly parentMessageId?: string | undefined;
}

/**
 * The context of one run. Readers describe the request; writers emit events that go through the
 * chunk normalizer, the strict ordering verifier (docs/rules.md#order) and the state encoding (docs/rules.md#S5) before
 * they are sent. **A write that would break an ordering rule throws a `ProtocolError` right there
 * and sends nothing**; after the run was cancelled every write throws the abort reason.
 *
 * Made by the driver `run(agent, input)` (or by `createRunContext` in unit tests); never
 * constructed directly.
 *
 * @example
 * async run(ctx) {
 *   const city = ctx.lastUserText() ?? "Seoul";
 *   const call = ctx.toolCall("get_weather");
 *   call.argsJson({ city });
 *   call.resultJson(await weather(city, { signal: ctx.signal }));
 *   ctx.say(`Here is the weather in ${city}.`);
 * }
 */
export class RunContext<S = unknown> extends RunReaders<S> {
  /** Not for applications: made by the driver (`run`), `createRunContext`, or `subagent()` through `makeSubagent`. */
  constructor(
    core: RunCore<S>,
    /** Where this context's spans open (the driver's, or a subagent's under its parent's). */
    protected readonly scope: Scope,
    /** The subagent invocation every event of this context is attributed to; `undefined` for the parent agent. */
    readonly subagentRunId: string | undefined,
    /** How `subagent()` makes a subagent's context (`SubagentRunContext`). */
    protected readonly makeSubagent: SubagentFactory,
  ) {
    super(core, new ScopedRunPort(core, scope, subagentRunId));
  }

  // Readers (the request, signal, ready(), lastUserText(), tool(), resumeFor(), toolResultFor(),
  // lastToolResults, newId()) come from RunReaders; the shared state (state, stateMut,
  // publishState(), updateState(), setState()) from StateAccess beneath it.

  // ---- token usage (docs/wire.md#4.12) ----------------------------------------------------------------

  /**
   * Adds model token counts to the run's usage, which the driver puts on the terminal event
   * (`RUN_FINISHED.usage`, or `RUN_ERROR.usage` for the calls that completed before a failure).
   * Entries with the same `provider` and `model` are summed; leave out a count the provider did
   * not report (never send 0 for it). A count that is not a non-negative integer throws a
   * `TypeError` naming it, and nothing is recorded. Subagent contexts report into the same run.
   *
   * @example
   * ctx.reportUsage({ provider: "openai", model: "gpt-4o", inputTokens: 812, outputTokens: 64, totalTokens: 876 });
   */
  reportUsage(usage: TokenUsage): void {
    this.core.addUsage(usage);
  }

  /** The usage reported so far, one entry per (provider, model): what the terminal event will carry. */
  get usage(): readonly TokenUsage[] {
    return this.core.usageSoFar();
  }

  // ---- the thread (docs/threads.md#the-thread-list) -------------------------------------------

  /**
   * Sets the thread's title, which its owner's thread list shows (a rename by the owner later
   * replaces it). Resolves once the store has it; rejects with the store's `StoreError` (`run-ended`
   * once the run is over). Without a store (`createHandler` without one, `run()` without
   * `RunAgentOptions.setThreadTitle`) there is no list: it does nothing and resolves. A title that is
   * not a string throws a `TypeError`, and nothing is sent.
   *
   * @example
   * if (ctx.messages.length === 1) await ctx.setThreadTitle(`Weather in ${city}`);
   */
  setThreadTitle(title: string): Promise<void> {
    if (typeof title !== "string") throw new TypeError(`expected a string title for the thread, but got ${typeof title}`);
    return this.core.setThreadTitle(title);
  }

  // ---- steered messages (docs/queue.md#steer) --------------------------------------------------

  /**
   * The user messages steered into this run while it works, each taken as it is handed to a
   * subscriber: at that moment it is recorded in the run's events (TEXT_MESSAGE_START with role
   * `user` and the message's id, TEXT_MESSAGE_CONTENT with its text, TEXT_MESSAGE_END), where the
   * run is then, also in the middle of an open assistant message, tool call or reasoning (both the
   * strict verifier and `@ag-ui/client`'s accept it there), and then handed over. Messages sent
   * before the agent subscribed wait for it and come first, in order. Every subscriber receives
   * every message taken while it is subscribed, recorded once. Completes when the run ends (nothing
   * is taken after its terminal: a steer never taken stays in the store's queue and runs as a
   * queued message of its own), or at once when the run has no source (`RunAgentOptions.incoming`,
   * which `createHandler` with a store passes). The content is text only: a string, or text parts.
   *
   * A subagent's context (`ctx.subagent()`) completes at once: steers are sent to the run's own
   * agent, which decides what its subagents hear.
   *
   * @example
   * const correction = await firstValueFrom(ctx.incoming$.pipe(timeout({ first: 30_000 })), { defaultValue: undefined });
   * if (correction !== undefined) ctx.say(`Noted: ${correction.content as string}`);
   */
  get incoming$(): Observable<UserMessage> {
    return this.core.incoming.incoming$;
  }

  /**
   * The lower level of `incoming$`, for adapters that decide when a message is taken (`aiAgent`
   * takes one when the model step that received it starts): each message not taken yet as an
   * `IncomingOffer`, offered once to each subscriber (those sent before it subscribed first, in
   * order). Nothing is recorded until `offer.take()`. Completes as `incoming$` does; a subagent's
   * context completes at once.
   *
   * @example
   * ctx.offers$.subscribe((offer) => steering.steer(textOf(offer.message), { id: offer.message.id }));
   */
  get offers$(): Observable<IncomingOffer> {
    return this.core.incoming.offers$;
  }

  // ---- writers -------------------------------------------------------------------------------

  /**
   * Sends any event, attributed to this context's subagent when it is attributable and carries no
   * `subagentRunId` yet. The escape hatch for what has no typed writer (CUSTOM, RAW,
   * MESSAGES_SNAPSHOT, …). Refused with a `ProtocolError`, nothing sent:
   * - anything a client would refuse, strip or rewrite (rule docs/rules.md#S10: strict egress, checked with the
   *   codecs clients decode with): `{ type: "NOPE" }`, a bare string, a STATE_DELTA with op
   *   `frobnicate`, a member the type does not declare, a `null` for an absent member, a BigInt,
   *   nesting deeper than `RunAgentOptions.maxJsonDepth`;
   * - RUN_STARTED, RUN_FINISHED and RUN_ERROR (rule docs/rules.md#S1): the driver owns the run's lifecycle.
   *
   * @example
   * ctx.emit(ev.custom("highlight", { line: 3 }));
   */
  emit(event: Event): void {
    this.port.emit(event);
  }

  /**
   * Opens an assistant message (TEXT_MESSAGE_START) and returns its handle.
   *
   * @example
   * const message = ctx.assistantMessage();
   * message.delta("Hello");
   * message.end();
   */
  assistantMessage(options: MessageOptions = {}): MessageHandle<S> {
    const id = options.id ?? this.core.newId();
    this.port.send(ev.textMessageStart(id, { role: "assistant", name: options.name }));
    return this.port.track(new MessageHandle(this.port, id));
  }

  /**
   * Sends a whole assistant message (START, CONTENT, END) and returns its id.
   *
   * @example
   * ctx.say("Hello from TypeScript.");
   */
  say(text: string, options: MessageOptions = {}): string {
    const message = this.assistantMessage(options);
    message.delta(text);
    message.end();
    return message.id;
  }

  /**
   * Opens a tool call (TOOL_CALL_START) and returns its handle.
   *
   * @example
   * const call = ctx.toolCall("get_weather");
   * call.argsJson({ city: "Seoul" });
   * call.resultJson({ temperature: 21 });
   */
  toolCall(name: string, options: ToolCallOptions = {}): ToolCallHandle<S> {
    const id = options.id ?? this.core.newId();
    this.port.send(ev.toolCallStart(id, name, { parentMessageId: options.parentMessageId }));
    return this.port.track(new ToolCallHandle(this.port, id, name));
  }

  /**
   * Sends a tool result (TOOL_CALL_RESULT) for a call that is not open in this run: the resumed
   * run of a tool-bound interrupt answers the original call this way, without re-sending its
   * START/ARGS/END (docs/rules.md#I8). Returns the result's message id.
   *
   * @example
   * if (ctx.resumeFor("approve")?.status === "resolved") ctx.toolResult("call-1", "sent");
   */
  toolResult(toolCallId: string, content: string, options: { readonly messageId?: string | undefined } = {}): string {
    const messageId = options.messageId ?? this.core.newId();
    this.port.send(ev.toolCallResult(messageId, toolCallId, content));
    return messageId;
  }

  /**
   * Opens a reasoning message inside a reasoning block of its own, both with one id
   * (REASONING_START, REASONING_MESSAGE_START: docs/rules.md#R22 wants the block), and returns its handle. If the
   * message is refused (a reasoning message of that id is already open), the block just sent is
   * ended before the error is thrown, so nothing is left open.
   *
   * @example
   * const thinking = ctx.reasoning();
   * thinking.delta("Checking the calendar first.");
   * thinking.end();
   */
  reasoning(options: { readonly id?: string | undefined } = {}): ReasoningHandle<S> {
    const id = options.id ?? this.core.newId();
    this.port.send(ev.reasoningStart(id));
    try {
      this.port.send(ev.reasoningMessageStart(id));
    } catch (refused) {
      this.port.send(ev.reasoningEnd(id));
      throw refused;
    }
    return this.port.track(new ReasoningHandle(this.port, id));
  }

  /**
   * A handle for one activity message of type `type` (sends nothing until its first snapshot).
   *
   * @example
   * ctx.activity("progress").snapshot({ done: 1, total: 3 });
   */
  activity(type: string, options: { readonly id?: string | undefined } = {}): ActivityHandle<S> {
    return new ActivityHandle(this.port, options.id ?? this.core.newId(), type);
  }

  /**
   * Starts a step (STEP_STARTED). Without `body`, returns a guard that sends STEP_FINISHED when
   * disposed (`using step = ctx.step("research")`). With `body`, runs it and sends STEP_FINISHED
   * when it settles, on success, early return and throw alike, and returns its result.
   *
   * @example
   * const facts = await ctx.step("research", async () => search(ctx.lastUserText()));
   */
  step(name: string): StepGuard;
  step<T>(name: string, body: (ctx: this) => T | Promise<T>): Promise<T>;
  step<T>(name: string, body?: (ctx: this) => T | Promise<T>): StepGuard | Promise<T> {
    this.port.send(ev.stepStarted(name));
    const guard = this.port.track(new StepGuard(this.port, name));
    if (body === undefined) return guard;
    const settle = async (): Promise<T> => {
      try {
        return await body(this);
      } finally {
        guard.end();
      }
    };
    return settle();
  }

  /**
   * An interrupt for the run's outcome, attributed to this context's subagent if it is one.
   *
   * @example
   * return interrupted(ctx.interrupt({ reason: "confirmation", message: "Send it?" }));
   */
  interrupt(fields: InterruptFields): Interrupt {
    const attributed = this.subagentRunId !== undefined && fields.subagentRunId === undefined ? { ...fields, subagentRunId: this.subagentRunId } : fields;
    return interrupt(attributed, this.core.newId);
  }

  /**
   * Starts a subagent (SUBAGENT_STARTED) and returns its context: every attributable event written
   * through it carries its `subagentRunId`; it shares this run's state, request and signal. A
   * subagent started from a subagent context records it as `parentSubagentRunId`. Close it with
   * `finish()` or `fail()`; the driver finishes one left open (as `suspended` when the run's
   * interrupts name it).
   *
   * @example
   * const researcher = ctx.subagent("researcher", { description: "finds sources" });
   * researcher.say("Found three papers.");
   * researcher.finish({ papers: 3 });
   */
  subagent(name: string, options: SubagentOptions = {}): SubagentContext<S> {
    const id = options.id ?? this.core.newId();
    this.core.write(
      ev.subagentStarted(id, name, {
        description: options.description,
        parentSubagentRunId: this.subagentRunId,
        parentToolCallId: options.parentToolCallId,
        parentMessageId: options.parentMessageId,
      }),
    );
    return this.port.track(this.makeSubagent(this.core, { parent: this.scope }, id, name, this.port.release));
  }
}

/**
 * The context of one subagent invocation (made by `ctx.subagent()`): a `RunContext` whose events
 * are attributed to it, plus the two ways it ends. Both first close what the subagent left open
 * (innermost first).
 *
 * @example
 * const a = ctx.subagent("writer");
 * const b = ctx.subagent("critic");
 * const draft = a.assistantMessage();
 * const review = b.assistantMessage();
 * draft.delta("First draft"); review.delta("Too long");
 * draft.end(); review.end();
 * a.finish(); b.fail("gave up", "TIMEOUT");
 */
export interface SubagentContext<S = unknown> extends RunContext<S>, Closable {
  /** The invocation id (`subagentRunId`). */
  readonly id: string;
  /** The subagent's name. */
  readonly name: string;
  /** Whether neither `finish` nor `fail` has been sent yet. */
  readonly isOpen: boolean;
  /**
   * Ends the subagent (SUBAGENT_FINISHED) with an optional result and outcome: success by
   * default, or `outcome.suspended(interruptIds)` when it waits on interrupts (docs/rules.md#I10).
   *
   * @example
   * sub.finish(undefined, outcome.suspended([pending.id]));
   */
  finish(result?: unknown, outcome?: SubagentFinishedOutcome): void;
  /**
   * Ends the subagent with an error (SUBAGENT_ERROR). The run itself goes on.
   *
   * @example
   * sub.fail("the search index is down", "UPSTREAM_UNAVAILABLE");
   */
  fail(message: string, code?: string): void;
  /** What the driver does with a subagent left open: finish it, suspended on the run's interrupts that name it. */
  close(): void;
}

/**
 * Not for applications: makes the context of a subagent that `subagent()` has just announced (SUBAGENT_STARTED
 * sent): its core, its scope under the parent's, its id and name, and how it leaves the parent's
 * open set once ended. `SubagentRunContext.ts` has the one implementation.
 *
 * @example
 * const makeSubagent: SubagentFactory = (core, scope, id, name, release) => new SubagentRunContext(core, scope, id, name, release);
 */
export type SubagentFactory = <S>(core: RunCore<S>, scope: Scope, id: string, name: string, release: (span: Closable) => void) => SubagentContext<S>;
