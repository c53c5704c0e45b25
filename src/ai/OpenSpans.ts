/**
 * The small map of handles one `streamToRun` keeps open between stream parts (text, reasoning,
 * tool input, the model step), with the helpers `applyPart` uses to find or open them. Owned by
 * the wrapper, one per call; `applyPart` itself keeps nothing.
 */
import type { ProviderMetadata } from "ai";
import type { MessageHandle } from "../server/handles/MessageHandle";
import type { ReasoningHandle } from "../server/handles/ReasoningHandle";
import type { StepGuard } from "../server/handles/StepGuard";
import type { ToolCallHandle } from "../server/handles/ToolCallHandle";
import type { RunContext } from "../server/RunContext";

/**
 * One model step (one call of the model inside `streamText`'s tool loop): its text and its tool
 * calls belong to one assistant message, whose id is minted when the step first needs it.
 *
 * @example
 * const step: OpenStep = { guard: undefined, messageId: undefined, text: undefined, textIds: new Set() };
 */
export interface OpenStep<S = unknown> {
  /** STEP_FINISHED to send when the step ends; absent with `steps: false`. */
  readonly guard: StepGuard | undefined;
  /** The step's assistant message id (text and `parentMessageId` of its tool calls). */
  messageId: string | undefined;
  /** The step's assistant message while a text block is open. */
  text: MessageHandle<S> | undefined;
  /** The SDK text ids currently open; they all write into `text`. */
  readonly textIds: Set<string>;
}

/**
 * An open reasoning block and the provider metadata seen on its parts so far.
 *
 * @example
 * const open: OpenReasoning = { handle: ctx.reasoning(), metadata: part.providerMetadata };
 */
export interface OpenReasoning<S = unknown> {
  readonly handle: ReasoningHandle<S>;
  metadata: ProviderMetadata | undefined;
}

/**
 * A tool call whose input is streaming: TOOL_CALL_START sent, TOOL_CALL_END waits for the
 * `tool-call` part (when the input is final).
 *
 * @example
 * const open: OpenToolInput = { handle: ctx.toolCall("search", { id }), streamsJson: true, argsSent: false };
 */
export interface OpenToolInput<S = unknown> {
  readonly handle: ToolCallHandle<S>;
  /** Whether the deltas are JSON text (sent as TOOL_CALL_ARGS) rather than raw text (withheld). */
  readonly streamsJson: boolean;
  /** Whether any TOOL_CALL_ARGS was sent; if not, the final input is sent whole. */
  argsSent: boolean;
}

/**
 * Everything `applyPart` reads and updates between parts.
 *
 * @example
 * const spans = openSpans<MyState>();
 * for await (const part of result.fullStream) applyPart(part, spans, ctx, options);
 */
export interface OpenSpans<S = unknown> {
  /** The model step in progress, if any. */
  step: OpenStep<S> | undefined;
  /** How many steps started so far (names the next one: `step-1`, `step-2`, …). */
  stepsStarted: number;
  /** Open reasoning blocks by the SDK's reasoning id. */
  readonly reasoning: Map<string, OpenReasoning<S>>;
  /** Tool calls whose input is still streaming, by tool call id. */
  readonly toolInputs: Map<string, OpenToolInput<S>>;
  /** Tool calls the model made that have no result yet: the client's to run when the stream ends. */
  readonly awaitingResult: Set<string>;
}

/**
 * A fresh, empty set of spans.
 *
 * @example
 * const spans = openSpans();
 */
export function openSpans<S = unknown>(): OpenSpans<S> {
  return { step: undefined, stepsStarted: 0, reasoning: new Map(), toolInputs: new Map(), awaitingResult: new Set() };
}

/**
 * The step in progress, or a new one without STEP events for parts that arrive outside any
 * `start-step` (a hand-made stream); it ends with the next `finish-step` or the stream.
 *
 * @example
 * currentStep(spans).textIds.add(part.id);
 */
export function currentStep<S>(spans: OpenSpans<S>): OpenStep<S> {
  spans.step ??= { guard: undefined, messageId: undefined, text: undefined, textIds: new Set() };
  return spans.step;
}

/**
 * The current step's assistant message id, minted from the run's id source on first use.
 *
 * @example
 * ctx.toolCall(part.toolName, { id: part.id, parentMessageId: stepMessageId(spans, ctx) });
 */
export function stepMessageId<S>(spans: OpenSpans<S>, ctx: RunContext<S>): string {
  const step = currentStep(spans);
  step.messageId ??= ctx.newId();
  return step.messageId;
}

/**
 * Ends what the current step left open (its text, tool inputs and reasoning), then the step
 * itself. Reasoning is ended with its encrypted value, as a `reasoning-end` would.
 *
 * @example
 * closeStep(spans); // at finish-step, and when the stream ends
 */
export function closeStep<S>(spans: OpenSpans<S>): void {
  const step = spans.step;
  for (const [id, open] of spans.reasoning) {
    endReasoning(open);
    spans.reasoning.delete(id);
  }
  for (const [id, open] of spans.toolInputs) {
    open.handle.close();
    spans.toolInputs.delete(id);
  }
  if (step === undefined) return;
  step.textIds.clear();
  step.text?.close();
  step.guard?.end();
  spans.step = undefined;
}

/**
 * Sends a reasoning block's provider metadata as its REASONING_ENCRYPTED_VALUE (when there is
 * any), then ends it.
 *
 * @example
 * endReasoning(open);
 */
export function endReasoning<S>(open: OpenReasoning<S>): void {
  if (!open.handle.isOpen) return;
  if (open.metadata !== undefined && Object.keys(open.metadata).length > 0) open.handle.encryptedValue(JSON.stringify(open.metadata));
  open.handle.end();
}

/**
 * Provider metadata merged per provider key, later members winning: a reasoning block's
 * signature usually arrives on its last part, its item id on the first.
 *
 * @example
 * mergeMetadata({ openai: { itemId: "rs_1" } }, { openai: { encryptedContent: "…" } });
 * // { openai: { itemId: "rs_1", encryptedContent: "…" } }
 */
export function mergeMetadata(kept: ProviderMetadata | undefined, next: ProviderMetadata | undefined): ProviderMetadata | undefined {
  if (next === undefined) return kept;
  if (kept === undefined) return next;
  const merged: ProviderMetadata = { ...kept };
  for (const [provider, values] of Object.entries(next)) {
    if (provider === "__proto__") continue; // a JSON-parsed key that assignment would turn into a prototype
    merged[provider] = { ...kept[provider], ...values };
  }
  return merged;
}
