/**
 * One checked step: the chunk normalizer (docs/rules.md#chunks) and the ordering verifier
 * (docs/rules.md#order) run as one, over one state that holds both. The server runs it for every
 * event it sends (`RunCore.write`), in strict mode; the client `Session` runs it for every event it
 * receives (`normalizeAndVerify`), in report mode. The public operators `normalizeChunks` and
 * `verifyEvents` stay what they are: each runs its own half.
 */
import type { Event } from "../protocol/events";
import type { ProtocolError, VerificationMode } from "./ProtocolError";
import { initialNormalizerState, normalizeInto, passesThrough, type Emit, type NormalizerState } from "./normalize/normalizeStep";
import { initialVerifierState, verifyEvent, type VerifierState } from "./verify/verifyStep";

/**
 * What `initialCheckedState` is told.
 *
 * @example
 * const options: CheckedOptions = { mode: "report", threadId: input.threadId };
 */
export interface CheckedOptions {
  readonly mode: VerificationMode;
  /** Mints the ids THINKING_* events imply (`NormalizerOptions.newId`). */
  readonly newId?: () => string;
  /** The thread every run of the stream must carry (`VerifierExpectations.threadId`, docs/rules.md#R7a). */
  readonly threadId?: string;
}

/**
 * Where a step's outcome goes, in order.
 *
 * @example
 * const sink: CheckedSink = { sent: (event) => out.push(event), refused: (error) => out.push(new Diagnostic(error)) };
 */
export interface CheckedSink {
  /** An event the verifier accepted: send it. */
  sent(event: Event): void;
  /** The ProtocolError that refused the input (the normalizer's, docs/rules.md#C2 to docs/rules.md#C6) or one event of its expansion (the verifier's). */
  refused(error: ProtocolError): void;
}

/**
 * Both halves' state, and what a refusal does. Owned by `checkedStep`: read it, never write it.
 *
 * @example
 * const state = initialCheckedState({ mode: "strict", newId: () => crypto.randomUUID() });
 * state.verifier.phase; // "before"
 */
export class CheckedState {
  readonly normalizer: NormalizerState;
  readonly verifier: VerifierState;
  /**
   * `strict` (the server's): the first refused event ends the step, and both halves keep exactly what
   * was sent before it. `report` (the client's): every event of the expansion is verified, a refused
   * one is reported and the rest go on, and the normalizer keeps its whole expansion, as
   * `normalizeChunks` followed by `verifyEvents` in report mode do.
   */
  readonly mode: VerificationMode;
  /** The sink of the strict step running now, and the refusal that stopped it, for `gate`: one gate per state, no closure per step. */
  private sink: CheckedSink | undefined;
  private stopped: ProtocolError | undefined;

  constructor(options: CheckedOptions) {
    const { mode, newId, threadId } = options;
    this.normalizer = initialNormalizerState(newId === undefined ? {} : { newId });
    this.verifier = initialVerifierState(threadId === undefined ? {} : { threadId });
    this.mode = mode;
  }

  /** Strict mode's half of `checkedStep`: the expansion verified as the normalizer emits it, stopping at the first refusal. */
  strictStep(event: Event, sink: CheckedSink): void {
    this.sink = sink;
    this.stopped = undefined;
    let refusal: ProtocolError | undefined;
    try {
      refusal = normalizeInto(this.normalizer, event, this.gate) ?? this.stopped;
    } finally {
      // Also when the user's newId throws: the next step starts with no sink and no refusal of this one.
      this.sink = undefined;
      this.stopped = undefined;
    }
    if (refusal !== undefined) sink.refused(refusal);
  }

  /** Verifies the next event of an expansion: sent (the normalizer records it) or not (the expansion stops). */
  private readonly gate: Emit = (next) => {
    const error = verifyEvent(this.verifier, next); // records `next` in the verifier when it accepts it
    if (error !== undefined) {
      this.stopped = error;
      return false;
    }
    this.sink?.sent(next);
    return true;
  };

  /**
   * Report mode: every event of the expansion is verified as the normalizer hands it over, a
   * refused one reported in its place, and the expansion always goes on (as `normalizeChunks` then
   * `verifyEvents` in report mode: the verifier never reads the normalizer's state, so verifying
   * each event as it is made is the same as verifying the finished expansion). A rejected chunk is
   * rejected before anything of it is handed over.
   */
  reportStep(event: Event, sink: CheckedSink): void {
    this.sink = sink;
    try {
      const rejected = normalizeInto(this.normalizer, event, this.reportGate);
      if (rejected !== undefined) sink.refused(rejected);
    } finally {
      this.sink = undefined;
    }
  }

  private readonly reportGate: Emit = (next) => {
    if (this.sink !== undefined) verified(this.verifier, next, this.sink);
    return true;
  };
}

/**
 * A fresh state: no lane open, no run yet.
 *
 * @example
 * const state = initialCheckedState({ mode: "report", newId: () => `id-${++n}` });
 */
export function initialCheckedState(options: CheckedOptions): CheckedState {
  return new CheckedState(options);
}

/**
 * Normalizes `event`, verifies each event it expands to, and hands the outcome to `sink` in order.
 *
 * - Most events expand to themselves and change nothing in the normalizer (`passesThrough`): they
 *   are only verified.
 * - **strict**: the events are verified as the normalizer emits them, and the first refusal ends
 *   the step (`refused` is called once, last). The normalizer records what an event opens or
 *   closes only once it was sent (`normalizeInto`), and the verifier only what it accepted, so both
 *   hold exactly the accepted prefix: a chunk whose START is refused after the END of the stream it
 *   replaced went out leaves that lane empty, and no later event synthesizes an END for a stream
 *   nobody opened. A refused END the normalizer synthesized still counts as closing its stream (it
 *   is refused only when that stream is no longer open on the wire). `sink` is called while the
 *   step runs: collect, and send after it returns.
 * - **report**: the whole expansion is committed to the normalizer first, then each event is
 *   verified and handed to `sink`, a refused one as `refused` in its place: exactly what
 *   `normalizeChunks` then `verifyEvents` (report mode) emit.
 *
 * A throw (from `newId` while a THINKING_* event is mapped) leaves the events already handed over
 * where they went, and propagates.
 *
 * @example
 * const state = initialCheckedState({ mode: "strict" });
 * const sent: Event[] = [];
 * let refused: ProtocolError | undefined;
 * checkedStep(state, ev.textMessageChunk({ messageId: "m1", delta: "Hi" }), { sent: (e) => sent.push(e), refused: (e) => (refused = e) });
 * // refused: R1 (no RUN_STARTED yet); sent: []
 */
export function checkedStep(state: CheckedState, event: Event, sink: CheckedSink): void {
  const { normalizer, verifier } = state;
  if (passesThrough(normalizer, event)) {
    verified(verifier, event, sink);
    return;
  }
  if (state.mode === "report") state.reportStep(event, sink);
  else state.strictStep(event, sink);
}

/** Verifies one event and hands it on, or the error that refused it. */
function verified(verifier: VerifierState, event: Event, sink: CheckedSink): void {
  const error = verifyEvent(verifier, event); // updates the verifier state in place when it accepts
  if (error === undefined) sink.sent(event);
  else sink.refused(error);
}
