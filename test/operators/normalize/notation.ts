/**
 * Compact builders for the normalizer's tests (docs/rules.md#notation notation): chunk inputs (`txc`, `tlc`,
 * `rxc`), the explicit events expected out of them (`TMS`, `TMC`, `TME`, …, tag as `@` argument),
 * a rejection marker `X(rule)`, and `runSteps`, which threads `normalizeStep` over a sequence the
 * way report mode does and checks on every rejection that the state did not change.
 */
import * as E from "fp-ts/Either";
import { ev, type EventOptions } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { initialNormalizerState, normalizeStep, type NormalizerState } from "../../../src/operators/normalize/normalizeStep";

type Meta = Record<string, unknown>;
const at = (tag: string | undefined): { subagentRunId?: string } => (tag === undefined ? {} : { subagentRunId: tag });
const meta = (metadata: Meta | undefined): { metadata?: Meta } => (metadata === undefined ? {} : { metadata });

// ─── Inputs ───
export const txc = (options: EventOptions<"TEXT_MESSAGE_CHUNK"> = {}) => ev.textMessageChunk(options);
export const tlc = (options: EventOptions<"TOOL_CALL_CHUNK"> = {}) => ev.toolCallChunk(options);
export const rxc = (options: EventOptions<"REASONING_MESSAGE_CHUNK"> = {}) => ev.reasoningMessageChunk(options);

export const RS = () => ev.runStarted("t1", "r1");
export const RF = () => ev.runFinished("t1", "r1");
export const RE = () => ev.runError("boom");
export const MS = (messages: Parameters<typeof ev.messagesSnapshot>[0] = []) => ev.messagesSnapshot(messages);
export const SS = (tag?: string) => ev.stateSnapshot({ n: 1 }, at(tag));
export const SD = (tag?: string) => ev.stateDelta([{ op: "replace", path: "/n", value: 2 }], at(tag));
export const CUS = (tag?: string) => ev.custom("note", 1, at(tag));
export const STS = (name: string, tag?: string) => ev.stepStarted(name, at(tag));
export const STF = (name: string, tag?: string) => ev.stepFinished(name, at(tag));
export const RAW = (tag?: string) => ev.raw({ foreign: true }, at(tag));
export const AS = (id: string, tag?: string) => ev.activitySnapshot(id, "PLAN", { steps: [] }, at(tag));
export const AD = (id: string, tag?: string) => ev.activityDelta(id, "PLAN", [{ op: "add", path: "/steps/-", value: "a" }], at(tag));
export const REV = (entityId: string, tag?: string) => ev.reasoningEncryptedValue("message", entityId, "opaque", at(tag));
export const SAS = (id: string) => ev.subagentStarted(id, "worker");
export const SAF = (id: string) => ev.subagentFinished(id);
export const SAE = (id: string) => ev.subagentError(id, "failed");
export const TCR = (messageId: string, toolCallId: string, tag?: string) => ev.toolCallResult(messageId, toolCallId, "ok", at(tag));

// ─── Expected explicit events (also usable as inputs) ───
export const TMS = (id: string, tag?: string, extra: { role?: "assistant" | "user" | "system" | "developer"; name?: string; metadata?: Meta } = {}) =>
  ev.textMessageStart(id, { ...at(tag), ...extra });
export const TMC = (id: string, delta: string, tag?: string, metadata?: Meta) => ev.textMessageContent(id, delta, { ...at(tag), ...meta(metadata) });
export const TME = (id: string, tag?: string) => ev.textMessageEnd(id, at(tag));
export const TCS = (id: string, name: string, tag?: string, extra: { parentMessageId?: string; metadata?: Meta } = {}) =>
  ev.toolCallStart(id, name, { ...at(tag), ...extra });
export const TCA = (id: string, delta: string, tag?: string, metadata?: Meta) => ev.toolCallArgs(id, delta, { ...at(tag), ...meta(metadata) });
export const TCE = (id: string, tag?: string) => ev.toolCallEnd(id, at(tag));
export const RST = (id: string, tag?: string) => ev.reasoningStart(id, at(tag));
export const RMS = (id: string, tag?: string, metadata?: Meta) => ev.reasoningMessageStart(id, { ...at(tag), ...meta(metadata) });
export const RMC = (id: string, delta: string, tag?: string, metadata?: Meta) => ev.reasoningMessageContent(id, delta, { ...at(tag), ...meta(metadata) });
export const RME = (id: string, tag?: string) => ev.reasoningMessageEnd(id, at(tag));
export const REND = (id: string, tag?: string) => ev.reasoningEnd(id, at(tag));

/** The block the normalizer opens around a chunk's reasoning message (R22): RST, RMS of the same id and tag. */
export const bracketOpen = (id: string, tag?: string, metadata?: Meta) => [RST(id, tag), RMS(id, tag, metadata)];
/** And its close: RME, REND of the same id and tag. */
export const bracketClose = (id: string, tag?: string) => [RME(id, tag), REND(id, tag)];

/**
 * The output without the blocks the normalizer opened around chunk messages: an RST right before
 * an RMS of the same id and tag, and an REND right after an RME of the same id and tag. What
 * `@ag-ui/client`'s transformChunks, which does not bracket, emits for the same input (given no
 * explicit events of that shape in the input).
 */
export function withoutBrackets(events: readonly unknown[]): unknown[] {
  const same = (a: unknown, b: unknown, type: string): boolean =>
    typeof a === "object" &&
    a !== null &&
    typeof b === "object" &&
    b !== null &&
    Reflect.get(b, "type") === type &&
    Reflect.get(a, "messageId") === Reflect.get(b, "messageId") &&
    Reflect.get(a, "subagentRunId") === Reflect.get(b, "subagentRunId");
  return events.filter((event, i) => {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- read as `unknown`-typed and checked before use
    const type = typeof event === "object" && event !== null ? Reflect.get(event, "type") : undefined;
    if (type === "REASONING_START") return !same(event, events[i + 1], "REASONING_MESSAGE_START");
    if (type === "REASONING_END") return !same(event, events[i - 1], "REASONING_MESSAGE_END");
    return true;
  });
}

/** A rejection in place of the event that caused it (report semantics). Every chunk rejection has code "chunk". */
export interface Rejection {
  readonly rejected: string;
}
export const X = (rule: string): Rejection => ({ rejected: rule });
export const isRejection = (value: Event | Rejection): value is Rejection => "rejected" in value;

/** A comparable picture of the state: lanes in lane order, the id index, the explicit reasoning blocks, the thinking ids. */
export function snapshotState(state: NormalizerState): unknown {
  return {
    lanes: [...state.lanes.entries()],
    text: [...state.open.text.entries()],
    tool: [...state.open.tool.entries()],
    reasoning: [...state.open.reasoning.entries()],
    blocks: [...state.blocks.byId.entries()],
    blocksPerOwner: [...state.blocks.perOwner.entries()],
    reasoningOwners: [...state.blocks.owners.entries()],
    thinking: { ...state.thinking },
  };
}

/** A deterministic id source: `id-1`, `id-2`, … */
export function counter(prefix = "id-"): () => string {
  let n = 0;
  return () => `${prefix}${++n}`;
}

/**
 * Threads `normalizeStep` over `input` as report mode does: accepted steps contribute their
 * events, a rejected one contributes `X(rule)` (after asserting code "chunk" and that the state
 * is exactly as before). Returns the output and the final state.
 */
export function runSteps(input: readonly Event[], newId: () => string = counter()): { output: (Event | Rejection)[]; state: NormalizerState } {
  let state = initialNormalizerState({ newId });
  const output: (Event | Rejection)[] = [];
  for (const event of input) {
    const before = snapshotState(state);
    const result = normalizeStep(state, event);
    if (E.isLeft(result)) {
      if (result.left.code !== "chunk") throw new Error(`expected code "chunk", got ${result.left.code}`);
      if (result.left.event !== event) throw new Error("the ProtocolError must carry the rejected event");
      expect(snapshotState(state)).toEqual(before);
      output.push(X(result.left.rule));
    } else {
      state = result.right.state;
      output.push(...result.right.events);
    }
  }
  return { output, state };
}
