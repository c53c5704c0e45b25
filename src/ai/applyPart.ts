/**
 * The stateless step of `streamToRun`: one part of `streamText`'s full stream in, calls on the
 * run's handles out (docs/ai.md has the table). It holds nothing itself; what stays open between
 * parts lives in the `OpenSpans` the wrapper passes in. The two parts that end a stream early
 * (`error`, `abort`) are returned as an `Ending` for the wrapper to act on.
 */
import type { TextStreamPart, ToolSet } from "ai";
import { ev } from "../protocol/build";
import type { RunContext } from "../server/RunContext";
import type { ErrorDescriber } from "./describeError";
import { closeStep, currentStep, endReasoning, mergeMetadata, stepMessageId, type OpenSpans } from "./OpenSpans";
import { toTokenUsage } from "./toTokenUsage";

/**
 * What `applyPart` needs besides the part: how errors are described, whether model steps become
 * STEP_STARTED/STEP_FINISHED, and the provider name for usage entries and RAW events.
 *
 * @example
 * const mapping: PartMapping = { onError: describeError, steps: true, provider: "openai" };
 */
export interface PartMapping {
  readonly onError: ErrorDescriber;
  readonly steps: boolean;
  readonly provider: string | undefined;
  /** For a `steering-message` part: `true` when the run recorded it itself (an offer of `ctx.offers$` it took); otherwise this step records it. */
  readonly steered?: (id: string) => boolean;
}

/**
 * A part that ends the stream early: the model failed (`error`), or its call was aborted.
 *
 * @example
 * const ending: Ending = { kind: "abort", reason: "stopped by the user" };
 */
export type Ending = { readonly kind: "error"; readonly error: unknown } | { readonly kind: "abort"; readonly reason: string | undefined };

/** The full stream's part type, over any tool set. */
export type StreamPart = TextStreamPart<ToolSet>;

/**
 * Applies one stream part to the run: writes through `ctx` and updates `spans`. Returns an
 * `Ending` for `error` and `abort`, `undefined` otherwise. A write the ordering rules refuse throws
 * the `ProtocolError` from the handle, as any agent write would.
 *
 * @example
 * const ending = applyPart(part, spans, ctx, { onError: describeError, steps: true, provider: undefined });
 * if (ending !== undefined) …
 */
export function applyPart<S>(part: StreamPart, spans: OpenSpans<S>, ctx: RunContext<S>, mapping: PartMapping): Ending | undefined {
  switch (part.type) {
    case "start":
    case "finish": // usage was reported per step, at each finish-step
    case "ping":
      return undefined;
    case "start-step":
      closeStep(spans);
      spans.stepsStarted += 1;
      spans.step = { guard: mapping.steps ? ctx.step(`step-${spans.stepsStarted}`) : undefined, messageId: undefined, text: undefined, textIds: new Set() };
      return undefined;
    case "finish-step":
      ctx.reportUsage(toTokenUsage(part.usage, { provider: mapping.provider, model: part.response.modelId }));
      closeStep(spans);
      return undefined;
    case "text-start":
      openText(part.id, spans, ctx);
      return undefined;
    case "text-delta":
      openText(part.id, spans, ctx).delta(part.text);
      return undefined;
    case "text-end":
      endText(part.id, spans);
      return undefined;
    case "reasoning-start": {
      const open = openReasoning(part.id, spans, ctx);
      open.metadata = mergeMetadata(open.metadata, part.providerMetadata);
      return undefined;
    }
    case "reasoning-delta": {
      const open = openReasoning(part.id, spans, ctx);
      open.metadata = mergeMetadata(open.metadata, part.providerMetadata);
      open.handle.delta(part.text);
      return undefined;
    }
    case "reasoning-end": {
      const open = spans.reasoning.get(part.id);
      if (open === undefined) return undefined;
      open.metadata = mergeMetadata(open.metadata, part.providerMetadata);
      endReasoning(open);
      spans.reasoning.delete(part.id);
      return undefined;
    }
    case "tool-input-start":
      if (spans.toolInputs.has(part.id)) return undefined;
      spans.toolInputs.set(part.id, {
        handle: ctx.toolCall(part.toolName, { id: part.id, parentMessageId: stepMessageId(spans, ctx) }),
        streamsJson: part.inputEncoding !== "text",
        argsSent: false,
      });
      return undefined;
    case "tool-input-delta": {
      const open = spans.toolInputs.get(part.id);
      // Raw-text deltas are not the JSON arguments AG-UI carries: the tool-call part sends those whole.
      if (open === undefined || !open.streamsJson || part.delta === "") return undefined;
      open.handle.args(part.delta);
      open.argsSent = true;
      return undefined;
    }
    case "tool-input-end": // TOOL_CALL_END waits for the tool-call part, when the input is final
      return undefined;
    case "tool-call":
      finishToolCall(part, spans, ctx);
      return undefined;
    case "tool-result":
      if (part.preliminary === true) return undefined; // AG-UI results are final; the last one follows
      spans.awaitingResult.delete(part.toolCallId);
      ctx.toolResult(part.toolCallId, resultContent(part.output, part.toolName));
      return undefined;
    case "tool-error": {
      spans.awaitingResult.delete(part.toolCallId);
      const report = mapping.onError(part.error, { kind: "tool", toolName: part.toolName, toolCallId: part.toolCallId });
      ctx.toolResult(part.toolCallId, JSON.stringify({ error: report.message }));
      return undefined;
    }
    case "tool-output-denied":
      spans.awaitingResult.delete(part.toolCallId);
      ctx.toolResult(part.toolCallId, JSON.stringify({ error: `the call of "${part.toolName}" was denied` }));
      return undefined;
    case "tool-approval-request":
      spans.awaitingResult.delete(part.toolCall.toolCallId); // it waits for an approval, not for the client to run it
      ctx.emit(
        ev.custom("ai.tool-approval-request", {
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          toolName: part.toolCall.toolName,
          ...(part.reason === undefined ? {} : { reason: part.reason }),
        }),
      );
      return undefined;
    case "tool-approval-response":
      ctx.emit(
        ev.custom("ai.tool-approval-response", {
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          approved: part.approved,
          ...(part.reason === undefined ? {} : { reason: part.reason }),
        }),
      );
      return undefined;
    case "source": {
      const { type: _source, ...source } = part;
      ctx.emit(ev.custom("ai.source", source));
      return undefined;
    }
    case "file":
    case "reasoning-file":
      // A GeneratedFile's bytes are getters (base64, uint8Array); only the base64 string is JSON.
      ctx.emit(ev.custom(`ai.${part.type}`, { mediaType: part.file.mediaType, base64: part.file.base64 }));
      return undefined;
    case "custom":
      ctx.emit(ev.custom("ai.custom", { kind: part.kind, ...(part.providerMetadata === undefined ? {} : { providerMetadata: part.providerMetadata }) }));
      return undefined;
    case "steering-message":
      if (mapping.steered?.(part.id) !== true) userMessage(part.id, part.message.content, ctx);
      return undefined;
    case "raw":
      ctx.emit(ev.raw(part.rawValue, { source: mapping.provider }));
      return undefined;
    case "abort":
      return { kind: "abort", reason: part.reason };
    case "error":
      return { kind: "error", error: part.error };
    default: {
      // Exhaustive at compile time; at run time a part type added by a later `ai` release is
      // skipped (as AG-UI skips unknown union members) until this mapping learns it.
      const unknown: never = part;
      return ignore(unknown);
    }
  }
}

/** The step's assistant message, (re)opened for the SDK text block `id`: every block of a step writes into one message. */
function openText<S>(id: string, spans: OpenSpans<S>, ctx: RunContext<S>) {
  const step = currentStep(spans);
  step.textIds.add(id);
  if (step.text === undefined || !step.text.isOpen) step.text = ctx.assistantMessage({ id: stepMessageId(spans, ctx) });
  return step.text;
}

function endText<S>(id: string, spans: OpenSpans<S>): void {
  const step = spans.step;
  if (step === undefined || !step.textIds.delete(id)) return;
  if (step.textIds.size === 0) step.text?.close();
}

/** The open reasoning block `id`, opened when its start was missed. */
function openReasoning<S>(id: string, spans: OpenSpans<S>, ctx: RunContext<S>) {
  let open = spans.reasoning.get(id);
  if (open === undefined) {
    open = { handle: ctx.reasoning(), metadata: undefined };
    spans.reasoning.set(id, open);
  }
  return open;
}

/**
 * The final tool call: opens it if its input was not streamed, sends the arguments whole if no
 * JSON delta was sent, ends it, and keeps it as awaiting a result unless the provider ran it.
 */
function finishToolCall<S>(part: Extract<StreamPart, { type: "tool-call" }>, spans: OpenSpans<S>, ctx: RunContext<S>): void {
  const open = spans.toolInputs.get(part.toolCallId);
  spans.toolInputs.delete(part.toolCallId);
  const handle = open?.handle ?? ctx.toolCall(part.toolName, { id: part.toolCallId, parentMessageId: stepMessageId(spans, ctx) });
  if (open?.argsSent !== true) {
    // An invalid call keeps the model's raw text as its input; a valid one holds the parsed value.
    handle.args(part.invalid === true && typeof part.input === "string" ? part.input : (JSON.stringify(part.input) ?? "{}"));
  }
  handle.close();
  if (part.providerMetadata !== undefined && Object.keys(part.providerMetadata).length > 0) {
    ctx.emit(ev.reasoningEncryptedValue("tool-call", part.toolCallId, JSON.stringify(part.providerMetadata)));
  }
  if (part.providerExecuted !== true) spans.awaitingResult.add(part.toolCallId);
}

/** A tool's output as TOOL_CALL_RESULT content: a string as it is, anything else as JSON, nothing as "". */
function resultContent(output: unknown, toolName: string): string {
  if (typeof output === "string") return output;
  if (output === undefined) return "";
  let text: string | undefined;
  try {
    text = JSON.stringify(output);
  } catch (cause) {
    throw new TypeError(
      `expected the tool "${toolName}" to return a JSON value, but serializing it failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
  }
  if (text === undefined) throw new TypeError(`expected the tool "${toolName}" to return a JSON value, but it returned a ${typeof output}`);
  return text;
}

/** A steering message (a user message added mid-run) as a user text message; its non-text parts have no AG-UI form here. */
function userMessage<S>(id: string, content: Extract<StreamPart, { type: "steering-message" }>["message"]["content"], ctx: RunContext<S>): void {
  const text = typeof content === "string" ? content : content.flatMap((piece) => (piece.type === "text" ? [piece.text] : [])).join("");
  ctx.emit(ev.textMessageStart(id, { role: "user" }));
  if (text !== "") ctx.emit(ev.textMessageContent(id, text));
  ctx.emit(ev.textMessageEnd(id));
}

function ignore(_part: unknown): undefined {
  return undefined;
}
