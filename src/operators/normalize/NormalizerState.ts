/**
 * What the chunk normalizer remembers between events (docs/rules.md#chunks): the lanes and the streams open in
 * them, the reasoning blocks it knows, the legacy THINKING_* ids. Everything here is bounded by
 * what is open right now plus the reasoning owners of the current run.
 */
import type { Event } from "../../protocol/events";
import type { ThinkingIds } from "../../protocol/thinking";
import { emptyBlocks, type ReasoningBlocks } from "./blocks";

/** A lane's key: the owner's subagent id, or `undefined` for the parent agent (docs/rules.md#C1). */
export type LaneKey = string | undefined;

/** The three kinds of stream a chunk can assemble. Ids are unique only within a kind. */
export type StreamKind = "text" | "tool" | "reasoning";

/**
 * A stream being assembled in a lane. `owner` is the lane's key and also the opener's tag: a
 * stream opens only in the lane its opening chunk's tag names (`undefined` = the parent agent).
 */
export interface OpenStream {
  readonly kind: StreamKind;
  readonly id: string;
  readonly owner: string | undefined;
  /** What the opener established that a continuation may repeat but not contradict (docs/rules.md#C6); none for reasoning. */
  readonly fields?: OpenerFields;
  /**
   * Reasoning only: the block the normalizer opened for this message because its owner had none
   * open (docs/rules.md#R22: a reasoning message opens only inside one). Closing the stream sends its
   * REASONING_END right after the message's END. Absent: the message opened inside a block of its
   * owner that the producer opened.
   */
  readonly block?: OwnBlock;
}

/**
 * A reasoning block the normalizer opened around a chunk message (docs/rules.md#R22).
 *
 * @example
 * const block: OwnBlock = { id: "r1", alone: false };
 */
export interface OwnBlock {
  /**
   * The block's messageId: the message's own (a span and a message are separate namespaces, and
   * the shared id keeps the two under one owner, docs/rules.md#R38), or one minted with `newId` when an explicit
   * block of that id, another owner's, is open.
   */
  readonly id: string;
  /**
   * Only the block is open, not the message: the server's verifier refused the message's START
   * after the block's was sent (`checkedStep`, strict mode), or the message's END (it was ended on
   * the wire already). Closing then sends the REASONING_END only.
   */
  readonly alone: boolean;
}

/**
 * The opener fields of a stream (docs/rules.md#C6): a text message's role (as opened, so an absent role is the
 * `assistant` it defaulted to) and name; a tool call's name and parentMessageId. An absent field
 * is `undefined`: a continuation that names one contradicts the opener's silence (as in 1.0.0).
 */
export interface OpenerFields {
  readonly role?: string;
  readonly name?: string;
  readonly toolCallName?: string;
  readonly parentMessageId?: string;
}

/**
 * What the normalizer remembers between events. Bounded by what is open: one entry per lane that
 * holds an open stream, the explicit reasoning blocks open in the run, plus the ids of the open
 * legacy thinking span and message.
 */
export interface NormalizerState {
  /**
   * The lanes that hold an open stream, keyed by owner. A lane without an open stream has no
   * entry, so the Map's insertion order is the order in which the current streams opened, and a
   * lane that closes and reopens moves to the end (docs/rules.md#C1). "Close all lanes in lane order" walks it.
   */
  readonly lanes: Map<LaneKey, OpenStream>;
  /** The same open streams indexed by kind and id, so resolving a chunk by id is one lookup (docs/rules.md#C2). */
  readonly open: { readonly [K in StreamKind]: Map<string, OpenStream> };
  /**
   * The explicit reasoning blocks open (REASONING_START … END that passed through, THINKING_START
   * mapped included) per owner, and the owner recorded for each reasoning id: whether a chunk's
   * reasoning message needs a block of its own (docs/rules.md#R22). Reset by RUN_STARTED.
   */
  readonly blocks: ReasoningBlocks;
  /** Ids implied by nesting for the deprecated THINKING_* events (docs/wire.md#7). Reset by RUN_STARTED. */
  thinking: ThinkingIds;
  /** Mints the ids the THINKING_* mapping needs. */
  readonly newId: () => string;
}

/** The result of one accepted step: the state after it and the events to emit, in order. */
export interface NormalizerStep {
  readonly state: NormalizerState;
  readonly events: Event[];
}

/** Options of `initialNormalizerState()`. */
export interface NormalizerOptions {
  /**
   * Mints the ids THINKING_* events imply (a span id, a message id). Defaults to
   * `globalThis.crypto.randomUUID()`; inject a counter for deterministic tests.
   */
  readonly newId?: (() => string) | undefined;
}

/**
 * A fresh normalizer state: no open lane, no legacy thinking span.
 *
 * @example
 * let n = 0;
 * const state = initialNormalizerState({ newId: () => `id-${++n}` });
 */
export function initialNormalizerState(options: NormalizerOptions = {}): NormalizerState {
  return {
    lanes: new Map(),
    open: { text: new Map(), tool: new Map(), reasoning: new Map() },
    blocks: emptyBlocks(),
    thinking: {},
    newId: options.newId ?? (() => globalThis.crypto.randomUUID()),
  };
}
