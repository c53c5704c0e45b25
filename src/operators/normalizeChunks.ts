/** The chunk normalizer as an RxJS operator (docs/rules.md#chunks, docs/wire.md#5.3 and §7). */
import type { Observable, OperatorFunction, Subscriber } from "rxjs";
import type { Event } from "../protocol/events";
import { operate, SourceObserver, type SourceHandlers } from "../rx/operate";
import { Diagnostic, isInBandReport, type InBandReport, type VerificationMode } from "./ProtocolError";
import { initialNormalizerState, normalizeInto, passesThrough, type Emit, type NormalizerState } from "./normalize/normalizeStep";

/** Options of `normalizeChunks()`. */
export interface NormalizeChunksOptions {
  /** `strict` (the default) errors the stream at the first rejected chunk; `report` emits a Diagnostic instead and goes on. */
  readonly mode?: VerificationMode | undefined;
  /**
   * Mints the ids that THINKING_* events imply. Called only while a subscription is active, for
   * that subscription. Defaults to `globalThis.crypto.randomUUID()`.
   */
  readonly newId?: (() => string) | undefined;
}

/**
 * Expands `TEXT_MESSAGE_CHUNK`, `TOOL_CALL_CHUNK` and `REASONING_MESSAGE_CHUNK` into explicit
 * START / CONTENT (ARGS) / END events and maps the deprecated `THINKING_*` events to
 * `REASONING_*`, so that what comes out contains no chunk and no thinking event. Every other event
 * passes through unchanged and in order, preceded by the ENDs it closes. The rules are docs/rules.md#chunks:
 *
 * - one lane per owner (the `subagentRunId`; untagged = the parent), so concurrent subagents
 *   never mix; a chunk without an id continues the parent first, then the only open stream of its
 *   kind; two candidates make it ambiguous (docs/rules.md#C3);
 * - an END is synthesized, with the id and the opener's tag and never metadata, when another id or
 *   kind arrives in the lane, when an explicit event of the same lane arrives, when
 *   SUBAGENT_FINISHED/ERROR names the lane, and for all lanes (in the order their streams opened)
 *   at RUN_STARTED, RUN_FINISHED, RUN_ERROR and MESSAGES_SNAPSHOT; never when the source simply
 *   ends (docs/rules.md#C11);
 * - a chunk with no delta that carries metadata (continuing) or a rawEvent becomes an empty-delta
 *   CONTENT/ARGS (docs/rules.md#C8); a continuation that contradicts its opener's role, name, toolCallName or
 *   parentMessageId is rejected (docs/rules.md#C6);
 * - a reasoning message opened while its owner has no reasoning block open gets one of its own,
 *   named after it, opened before its START and ended right after its END (docs/rules.md#R22: a reasoning
 *   message opens only inside a block of its owner; `@ag-ui/client`'s transformChunks does not
 *   bracket).
 *
 * Each subscription normalizes with its own fresh state (nothing runs before it, nothing is
 * shared between two); completion, errors and unsubscription pass straight through to the source.
 * Work per event is O(1) plus the ENDs it emits.
 *
 * - **strict** (the default): a rejected chunk errors the stream with its `ProtocolError`
 *   (`code: "chunk"`, `rule: "C2" | "C3" | "C5" | "C6"`) and the source is unsubscribed.
 * - **report**: a `Diagnostic` carrying the `ProtocolError` is emitted in place of the rejected
 *   chunk, every lane stays as it was, and the stream goes on. In-band reports arriving from
 *   upstream (`Diagnostic`s, the decoder's `DecodeWarning`s) pass through untouched.
 *
 * A throw while an event is normalized (e.g. from a `newId` that throws while a THINKING_* event
 * is mapped) errors the output, as RxJS's own operators do, instead of escaping to the producer.
 *
 * @example
 * // a = TEXT_MESSAGE_CHUNK(m1, "Hi"), b = TEXT_MESSAGE_CHUNK(" there"), c = RUN_FINISHED
 * // source  -a---b---c---|
 * // output  -(xy)z---(wc)|   x = TEXT_MESSAGE_START(m1), y = TEXT_MESSAGE_CONTENT(m1, "Hi"),
 * //                          z = TEXT_MESSAGE_CONTENT(m1, " there"), w = TEXT_MESSAGE_END(m1)
 * events$.pipe(normalizeChunks(), verifyEvents());
 *
 * // report: d = TEXT_MESSAGE_CHUNK("?") with nothing open
 * // source  -d-c-|
 * // output  -e-c-|   e = Diagnostic(ProtocolError { code: "chunk", rule: "C5" })
 * events$.pipe(normalizeChunks({ mode: "report" }), verifyEvents({ mode: "report" }));
 */
export function normalizeChunks(options?: {
  readonly mode?: "strict" | undefined;
  readonly newId?: (() => string) | undefined;
}): OperatorFunction<Event, Event>;
export function normalizeChunks(options: {
  readonly mode: "report";
  readonly newId?: (() => string) | undefined;
}): OperatorFunction<Event | InBandReport, Event | InBandReport>;
export function normalizeChunks(
  options?: NormalizeChunksOptions,
): OperatorFunction<Event, Event> | OperatorFunction<Event | InBandReport, Event | InBandReport>;
export function normalizeChunks(
  options: NormalizeChunksOptions = {},
): OperatorFunction<Event, Event> | OperatorFunction<Event | InBandReport, Event | InBandReport> {
  const report = options.mode === "report";
  const newId = options.newId;
  return operate<Event | InBandReport, Event | InBandReport>((source: Observable<Event | InBandReport>, subscriber) => {
    // Created here, per subscription: two subscribers never share lanes or thinking ids.
    const state = initialNormalizerState(newId === undefined ? {} : { newId });
    // The expansion goes out event by event as the normalizer makes it: a rejected chunk is
    // rejected before anything of it is handed over, so nothing needs collecting first.
    const pass: Emit = (event) => {
      subscriber.next(event);
      return true;
    };
    const normalizer = new ChunkNormalizer(subscriber, (event) => normalizeOne(state, event, report, subscriber, pass));
    // The SourceObserver closes with the output (an error, completion, unsubscription), so a synchronous source stops there.
    source.subscribe(new SourceObserver(subscriber, normalizer));
  });
}

/** One event through the normalizer: its expansion on to `destination`, or its rejection (a Diagnostic in report mode, else the error). */
function normalizeOne(state: NormalizerState, item: Event, report: boolean, destination: Subscriber<Event | InBandReport>, pass: Emit): void {
  // Most events (with no chunk stream open) come out as they went in: skip the step's work.
  if (passesThrough(state, item)) {
    destination.next(item);
    return;
  }
  const rejected = normalizeInto(state, item, pass); // calls the user's newId for THINKING_* events
  if (rejected === undefined) return;
  if (report) destination.next(new Diagnostic(rejected));
  else destination.error(rejected);
}

/**
 * The per-subscription `next` handler of the operator's `SourceObserver` (src/rx/operate.ts), which
 * passes the source's error and completion straight on and turns a throw while an item is handled
 * (the user's `newId` for a THINKING_* event) into an error of the output, as RxJS's own operators
 * do. In-band reports go on to `destination` untouched; each event goes to `step` (the
 * normalizer's, or the Session's `normalizeAndVerify`'s checked step). Internal to the operators
 * (not re-exported from the package root).
 *
 * @example
 * source.subscribe(new SourceObserver(subscriber, new ChunkNormalizer(subscriber, (event) => subscriber.next(event))));
 */
export class ChunkNormalizer implements SourceHandlers<Event | InBandReport> {
  constructor(
    private readonly destination: Subscriber<Event | InBandReport>,
    private readonly step: (event: Event) => void,
  ) {}

  next(item: Event | InBandReport): void {
    if (isInBandReport(item)) {
      this.destination.next(item);
      return;
    }
    this.step(item);
  }
}
