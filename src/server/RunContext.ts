/**
 * What an agent's `run` receives: the request, the typed shared state, and the writers that emit
 * events through the run's verified chain (seed 002, DESIGN §4).
 */
import { ev, withSubagentRunId } from "../protocol/build";
import {
  SUBAGENT_EVENT_TYPES,
  UNATTRIBUTABLE_EVENT_TYPES,
  type AttributableEvent,
  type Event,
} from "../protocol/events";
import type { TokenUsage } from "../protocol/common";
import type { Context, RunAgentInput, Tool } from "../protocol/input";
import type { Message, ToolMessage } from "../protocol/messages";
import type { Interrupt, ResumeEntry, SubagentFinishedOutcome } from "../protocol/outcomes";
import { ProtocolError } from "../operators/ProtocolError";
import { interrupt, type InterruptFields } from "./Agent";
import { ActivityHandle } from "./handles/ActivityHandle";
import { MessageHandle } from "./handles/MessageHandle";
import { ReasoningHandle } from "./handles/ReasoningHandle";
import { StepGuard } from "./handles/StepGuard";
import { ToolCallHandle } from "./handles/ToolCallHandle";
import type { Closable, RunCore, Scope } from "./RunCore";

/**
 * Options of `ctx.assistantMessage()`.
 *
 * @example
 * ctx.assistantMessage({ id: "m-1", name: "Ada" });
 */
export interface MessageOptions {
  /** The message id; a fresh one by default. */
  readonly id?: string;
  /** An optional display name of the speaker (`name` on TEXT_MESSAGE_START). */
  readonly name?: string;
}

/**
 * Options of `ctx.toolCall()`.
 *
 * @example
 * ctx.toolCall("search", { parentMessageId: message.id });
 */
export interface ToolCallOptions {
  /** The tool call id; a fresh one by default. */
  readonly id?: string;
  /** The assistant message the call belongs to. */
  readonly parentMessageId?: string;
}

/**
 * Options of `ctx.subagent()`.
 *
 * @example
 * ctx.subagent("researcher", { description: "finds sources", parentToolCallId: call.id });
 */
export interface SubagentOptions {
  /** The invocation id; a fresh one by default. Pass a suspended subagent's old id to resume it (RULES I12). */
  readonly id?: string;
  readonly description?: string;
  /** The tool call of the parent that started this subagent. */
  readonly parentToolCallId?: string;
  /** The message of the parent that started this subagent. */
  readonly parentMessageId?: string;
}

function isAttributable(event: Event): event is AttributableEvent {
  return !UNATTRIBUTABLE_EVENT_TYPES.has(event.type) && !SUBAGENT_EVENT_TYPES.has(event.type);
}

/**
 * The context of one run. Readers describe the request; writers emit events that go through the
 * chunk normalizer, the strict ordering verifier (RULES §1) and the state encoding (S5) before
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
export class RunContext<S = unknown> {
  #resumeById: Map<string, ResumeEntry> | undefined;
  #toolResultById: Map<string, ToolMessage> | undefined;

  /** @internal */
  constructor(
    /** @internal */
    protected readonly core: RunCore<S>,
    /** @internal */
    protected readonly scope: Scope,
    /** The subagent invocation every event of this context is attributed to; `undefined` for the parent agent. */
    readonly subagentRunId: string | undefined,
  ) {}

  // ---- readers -------------------------------------------------------------------------------

  /** The whole request, for whatever the other readers do not cover. */
  get input(): RunAgentInput {
    return this.core.input;
  }
  /** Which conversation. */
  get threadId(): string {
    return this.core.input.threadId;
  }
  /** Which run. */
  get runId(): string {
    return this.core.input.runId;
  }
  /** The run that started this one, if any. */
  get parentRunId(): string | undefined {
    return this.core.input.parentRunId;
  }
  /** The conversation so far, oldest first. */
  get messages(): readonly Message[] {
    return this.core.input.messages;
  }
  /** The tools the client offers for this run. */
  get tools(): readonly Tool[] {
    return this.core.input.tools;
  }
  /** Extra context entries sent with the request. */
  get context(): readonly Context[] {
    return this.core.input.context;
  }
  /** The opaque value the client forwards as it is. */
  get forwardedProps(): unknown {
    return this.core.input.forwardedProps;
  }
  /** The answers to the previous run's interrupts (RULES I4); empty when this run is not a resume. */
  get resume(): readonly ResumeEntry[] {
    return this.core.input.resume ?? [];
  }
  /** Whether this run answers interrupts of the previous one. */
  get isResume(): boolean {
    return this.resume.length > 0;
  }
  /** Aborted when the consumer unsubscribes (the HTTP client went away); pass it to `fetch` and model SDKs. */
  get signal(): AbortSignal {
    return this.core.controller.signal;
  }

  /**
   * Resolves when the consumer can take more events. Writes never wait (they are synchronous, so
   * the ordering check happens at the call site); an agent that produces faster than its client
   * reads awaits this between bursts, and over HTTP it then follows the client's reading speed.
   *
   * @example
   * for (const chunk of document) { message.delta(chunk); await ctx.ready(); }
   */
  ready(): Promise<void> {
    return this.core.ready();
  }

  /**
   * The text of the last user message: string content as it is, multimodal content with only its
   * text parts kept (concatenated). `undefined` when the history has no user message at all; `""`
   * for an empty one.
   *
   * @example
   * ctx.lastUserText(); // "what is the weather in Seoul?"
   */
  lastUserText(): string | undefined {
    const { messages } = this.core.input;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (message.role !== "user") continue;
      if (typeof message.content === "string") return message.content;
      let text = "";
      for (const part of message.content) if (part.type === "text") text += part.text;
      return text;
    }
    return undefined;
  }

  /**
   * The client-provided tool named `name`, or `undefined`.
   *
   * @example
   * if (ctx.tool("get_weather")) …
   */
  tool(name: string): Tool | undefined {
    return this.core.input.tools.find((tool) => tool.name === name);
  }

  /**
   * The resume entry answering interrupt `interruptId`, or `undefined`.
   *
   * @example
   * const answer = ctx.resumeFor("approve-transfer");
   * if (answer?.status === "resolved") …
   */
  resumeFor(interruptId: string): ResumeEntry | undefined {
    this.#resumeById ??= new Map(this.resume.map((entry) => [entry.interruptId, entry]));
    return this.#resumeById.get(interruptId);
  }

  /**
   * The tool message that answers `toolCallId` in the conversation (the last one, should there be
   * two): what the client sent back for a call of an earlier run, or `undefined`. A client tool's
   * result is its content (a string as it is, anything else JSON); a failure has `error` set and
   * the content `{"error": …}` (docs/tools.md § results).
   *
   * @example
   * const answer = ctx.toolResultFor("call-1");
   * if (answer !== undefined && answer.error === undefined) ctx.say(`Your local time is ${answer.content}.`);
   */
  toolResultFor(toolCallId: string): ToolMessage | undefined {
    if (this.#toolResultById === undefined) {
      this.#toolResultById = new Map();
      for (const message of this.core.input.messages) if (message.role === "tool") this.#toolResultById.set(message.toolCallId, message);
    }
    return this.#toolResultById.get(toolCallId);
  }

  /**
   * The answers to the calls of the last assistant message that made any: the tool messages the
   * client sent back for the previous run's calls, in the calls' order (calls without an answer
   * left out). Empty when no assistant message made a call.
   *
   * @example
   * for (const result of ctx.lastToolResults) console.log(result.toolCallId, result.content);
   */
  get lastToolResults(): readonly ToolMessage[] {
    const { messages } = this.core.input;
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i];
      if (message.role !== "assistant" || message.toolCalls === undefined || message.toolCalls.length === 0) continue;
      return message.toolCalls.flatMap((call) => {
        const answer = this.toolResultFor(call.id);
        return answer === undefined ? [] : [answer];
      });
    }
    return [];
  }

  /**
   * A fresh id from the run's id source (`RunOptions.ids`; random UUIDs by default), for an id an
   * agent needs before it opens what it names (a tool call's `parentMessageId`, say).
   *
   * @example
   * const messageId = ctx.newId();
   * ctx.toolCall("search", { parentMessageId: messageId });
   */
  newId(): string {
    return this.core.newId();
  }

  // ---- token usage (WIRE §4.12) ----------------------------------------------------------------

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

  // ---- shared state (seed 000) ---------------------------------------------------------------

  /** The typed state as of the last publish (the decoded input state before the first). Do not mutate it. */
  get state(): S {
    return this.core.published;
  }

  /** The typed state to edit in place; nothing is sent until `publishState()`. */
  get stateMut(): S {
    return this.core.working;
  }

  /** Sends what changed since the last publish: STATE_SNAPSHOT first in a run, then STATE_DELTA when smaller, nothing when nothing changed. */
  publishState(): void {
    this.core.publishState(this.subagentRunId);
  }

  /**
   * Edits the state and publishes it in one call; `edit` mutates the draft in place or returns a
   * new value.
   *
   * @example
   * ctx.updateState((doc) => { doc.step += 1; });
   */
  updateState(edit: (draft: S) => S | void): void {
    const next = edit(this.core.working);
    if (next !== undefined) this.core.working = next;
    this.publishState();
  }

  /** Replaces the state and publishes it. */
  setState(value: S): void {
    this.core.working = value;
    this.publishState();
  }

  // ---- writers -------------------------------------------------------------------------------

  /**
   * Sends any event, attributed to this context's subagent when it is attributable and carries no
   * `subagentRunId` yet. The escape hatch for what has no typed writer (CUSTOM, RAW,
   * MESSAGES_SNAPSHOT, …). Refused with a `ProtocolError`, nothing sent:
   * - anything a client would refuse, strip or rewrite (rule S10: strict egress, checked with the
   *   codecs clients decode with): `{ type: "NOPE" }`, a bare string, a STATE_DELTA with op
   *   `frobnicate`, a member the type does not declare, a `null` for an absent member, a BigInt,
   *   nesting deeper than `RunOptions.maxJsonDepth`;
   * - RUN_STARTED, RUN_FINISHED and RUN_ERROR (rule S1): the driver owns the run's lifecycle.
   *
   * @example
   * ctx.emit(ev.custom("highlight", { line: 3 }));
   */
  emit(event: Event): void {
    this.core.check(event);
    this.send(event);
  }

  /**
   * @internal `emit` without the egress check, for the typed writers and handles: an event an
   * `ev.*` builder made from typed arguments has the shape a client decodes.
   */
  send(event: Event): void {
    if (event.type === "RUN_STARTED" || event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") {
      throw new ProtocolError(
        "run-lifecycle",
        "S1",
        event,
        `expected an event inside the run, but got ${event.type}: the driver sends RUN_STARTED and the one terminal event; resolve with an outcome or throw instead`,
      );
    }
    const tagged =
      this.subagentRunId !== undefined && isAttributable(event) && event.subagentRunId === undefined
        ? withSubagentRunId(event, this.subagentRunId)
        : event;
    this.core.write(tagged);
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
    this.send(ev.textMessageStart(id, { role: "assistant", name: options.name }));
    return this.track(new MessageHandle(this, id, this.release));
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
    this.send(ev.toolCallStart(id, name, { parentMessageId: options.parentMessageId }));
    return this.track(new ToolCallHandle(this, id, name, this.core.newId, this.release));
  }

  /**
   * Sends a tool result (TOOL_CALL_RESULT) for a call that is not open in this run: the resumed
   * run of a tool-bound interrupt answers the original call this way, without re-sending its
   * START/ARGS/END (RULES I8). Returns the result's message id.
   *
   * @example
   * if (ctx.resumeFor("approve")?.status === "resolved") ctx.toolResult("call-1", "sent");
   */
  toolResult(toolCallId: string, content: string, options: { readonly messageId?: string } = {}): string {
    const messageId = options.messageId ?? this.core.newId();
    this.send(ev.toolCallResult(messageId, toolCallId, content));
    return messageId;
  }

  /**
   * Opens a reasoning message inside a reasoning block of its own, both with one id
   * (REASONING_START, REASONING_MESSAGE_START: R22 wants the block), and returns its handle. If the
   * message is refused (a reasoning message of that id is already open), the block just sent is
   * ended before the error is thrown, so nothing is left open.
   *
   * @example
   * const thinking = ctx.reasoning();
   * thinking.delta("Checking the calendar first.");
   * thinking.end();
   */
  reasoning(options: { readonly id?: string } = {}): ReasoningHandle<S> {
    const id = options.id ?? this.core.newId();
    this.send(ev.reasoningStart(id));
    try {
      this.send(ev.reasoningMessageStart(id));
    } catch (refused) {
      this.send(ev.reasoningEnd(id));
      throw refused;
    }
    return this.track(new ReasoningHandle(this, id, this.release));
  }

  /**
   * A handle for one activity message of type `type` (sends nothing until its first snapshot).
   *
   * @example
   * ctx.activity("progress").snapshot({ done: 1, total: 3 });
   */
  activity(type: string, options: { readonly id?: string } = {}): ActivityHandle<S> {
    return new ActivityHandle(this, options.id ?? this.core.newId(), type);
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
    this.send(ev.stepStarted(name));
    const guard = this.track(new StepGuard(this, name, this.release));
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
    const sub = new SubagentContext(this.core, { parent: this.scope }, id, name, this.release);
    this.core.track(sub, this.scope);
    return sub;
  }

  private track<H extends Closable>(handle: H): H {
    this.core.track(handle, this.scope);
    return handle;
  }

  private readonly release = (span: Closable): void => this.core.untrack(span);
}

/**
 * The context of one subagent invocation: a `RunContext` whose events are attributed to it, plus
 * the two ways it ends. Both first close what the subagent left open (innermost first).
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
export class SubagentContext<S = unknown> extends RunContext<S> implements Closable {
  #open = true;

  /** @internal Made by `ctx.subagent()`, which has already sent SUBAGENT_STARTED. */
  constructor(
    core: RunCore<S>,
    scope: Scope,
    /** The invocation id (`subagentRunId`). */
    readonly id: string,
    /** The subagent's name. */
    readonly name: string,
    private readonly releaseFromParent: (span: Closable) => void,
  ) {
    super(core, scope, id);
  }

  /** Whether neither `finish` nor `fail` has been sent yet. */
  get isOpen(): boolean {
    return this.#open;
  }

  /**
   * Ends the subagent (SUBAGENT_FINISHED) with an optional result and outcome: success by
   * default, or `outcome.suspended(interruptIds)` when it waits on interrupts (RULES I10).
   *
   * @example
   * sub.finish(undefined, outcome.suspended([pending.id]));
   */
  finish(result?: unknown, outcome?: SubagentFinishedOutcome): void {
    this.core.closeOpen(this.scope);
    const finished = ev.subagentFinished(this.id, { result, outcome });
    this.core.check(finished); // the result is the agent's own value
    this.core.write(finished);
    this.closed();
  }

  /**
   * Ends the subagent with an error (SUBAGENT_ERROR). The run itself goes on.
   *
   * @example
   * sub.fail("the search index is down", "UPSTREAM_UNAVAILABLE");
   */
  fail(message: string, code?: string): void {
    this.core.closeOpen(this.scope);
    this.core.write(ev.subagentError(this.id, message, { code }));
    this.closed();
  }

  /** What the driver does with a subagent left open: finish it, suspended on the run's interrupts that name it. */
  close(): void {
    if (!this.#open) return;
    const mine = this.core.pendingInterrupts.filter((pending) => pending.subagentRunId === this.id).map((pending) => pending.id);
    this.finish(undefined, mine.length > 0 ? { type: "suspended", interruptIds: mine } : undefined);
  }

  private closed(): void {
    this.#open = false;
    this.releaseFromParent(this);
  }
}
