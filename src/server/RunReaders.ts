/** The reading half of a run context (docs/seeds.md#seed-002, docs/server.md#run-and-context): the request, the run's signal and pace, its ids, and (from `StateAccess`) the shared state. */
import type { Context, RunAgentInput, Tool } from "../protocol/input";
import type { Message, ToolMessage } from "../protocol/messages";
import type { ResumeEntry } from "../protocol/outcomes";
import { StateAccess } from "./handles/StateAccess";
import type { RunCore } from "./RunCore";
import type { RunPort } from "./RunPort";

/**
 * What a `RunContext` reads: the request as the client sent it and the lookups derived from it
 * (built once, on first use), the abort signal, the consumer's pace, the run's id source. Every
 * context of a run (the parent's and each subagent's) reads the same run.
 *
 * @example
 * const city = ctx.lastUserText() ?? "Seoul";
 * if (ctx.isResume && ctx.resumeFor("approve")?.status === "resolved") ctx.say(`Sending to ${city}.`);
 */
export abstract class RunReaders<S> extends StateAccess<S> {
  #resumeById: Map<string, ResumeEntry> | undefined;
  #toolResultById: Map<string, ToolMessage> | undefined;

  /** Not for applications: the context's constructor passes its run's core and port. */
  protected constructor(
    /** The run this context reads (its input, signal, tools, results). */
    protected readonly core: RunCore<S>,
    port: RunPort<S>,
  ) {
    super(port);
  }

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
  /** The answers to the previous run's interrupts (docs/rules.md#I4); empty when this run is not a resume. */
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
   * A fresh id from the run's id source (`RunAgentOptions.ids`; random UUIDs by default), for an id an
   * agent needs before it opens what it names (a tool call's `parentMessageId`, say).
   *
   * @example
   * const messageId = ctx.newId();
   * ctx.toolCall("search", { parentMessageId: messageId });
   */
  newId(): string {
    return this.core.newId();
  }
}
