/** A stream that breaks an AG-UI ordering or chunk rule (docs/rules.md#order, docs/rules.md#chunks). */
import { Brand } from "../protocol/Brand";
import { isDecodeWarning, type DecodeWarning } from "../wire/DecodeWarning";

/** One code per rule family; the exact rule is in `ProtocolError.rule`. */
export type ProtocolErrorCode =
  | "run-lifecycle" // docs/rules.md#R1 to docs/rules.md#R7, docs/rules.md#R7a (run identity), docs/rules.md#A16 (interrupt ids unique within an outcome)
  | "field-sanity" // docs/rules.md#R8 to docs/rules.md#R13
  | "text-message" // docs/rules.md#R14 to docs/rules.md#R17
  | "tool-call" // docs/rules.md#R18 to docs/rules.md#R21
  | "reasoning" // docs/rules.md#R22, REASONING_MESSAGE_START.role included
  | "thinking" // docs/rules.md#R23
  | "step" // docs/rules.md#R25 to docs/rules.md#R29
  | "subagent" // docs/rules.md#R30 to docs/rules.md#R36
  | "ownership" // docs/rules.md#R37 to docs/rules.md#R45
  | "chunk"; // docs/rules.md#C1 to docs/rules.md#C13

/** The cross-copy brands (docs/packaging.md): every copy of the package marks its errors and diagnostics with the same keys. */
const PROTOCOL_ERROR = new Brand<ProtocolError>("agui-rx/ProtocolError");
const DIAGNOSTIC = new Brand<Diagnostic>("agui-rx/Diagnostic");

/**
 * A protocol violation: `code` names the rule family, `rule` the id of its anchor in docs/rules.md (`"R15"`, `"C3"`),
 * `event` the offending event, and the message says what was expected and what arrived.
 */
export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  static {
    PROTOCOL_ERROR.mark(this);
  }

  /**
   * Whether `value` is a ProtocolError from any copy of this package (ESM and CJS builds are two
   * copies; `instanceof` sees only its own): it checks a `Symbol.for` brand, not the prototype.
   *
   * @example
   * if (ProtocolError.isInstance(error)) console.log(error.rule);
   */
  static isInstance(value: unknown): value is ProtocolError {
    return PROTOCOL_ERROR.is(value);
  }

  constructor(
    readonly code: ProtocolErrorCode,
    readonly rule: string,
    readonly event: unknown,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An in-band report of a rejected event, emitted in its place by the operators in report mode:
 * the stream goes on, and the consumer sees the problem exactly where it happened.
 */
export class Diagnostic {
  readonly kind = "diagnostic" as const;
  constructor(readonly error: ProtocolError) {}

  static {
    DIAGNOSTIC.mark(this);
  }

  /**
   * Whether `value` is a Diagnostic from any copy of this package (ESM and CJS builds are two
   * copies; `instanceof` sees only its own): it checks a `Symbol.for` brand, not the prototype.
   *
   * @example
   * if (Diagnostic.isInstance(item)) console.log(item.error.rule);
   */
  static isInstance(value: unknown): value is Diagnostic {
    return DIAGNOSTIC.is(value);
  }
}

/**
 * Whether a stream element is an in-band diagnostic rather than an event, from any copy of the package.
 *
 * @example
 * if (isDiagnostic(item)) console.log(item.error.rule);
 */
export function isDiagnostic(value: unknown): value is Diagnostic {
  return DIAGNOSTIC.is(value);
}

/**
 * What travels in-band besides events, at the position where it happened: a `Diagnostic` (an event
 * rejected by a report-mode operator, in its place) or a `DecodeWarning` (material the decoder
 * stripped, right before the stripped event). The middle operators pass both on untouched.
 *
 * @example
 * const item: Event | InBandReport = new Diagnostic(error);
 */
export type InBandReport = Diagnostic | DecodeWarning;

/**
 * Whether a stream element is an in-band report rather than an event.
 *
 * @example
 * if (isInBandReport(item)) subscriber.next(item); // passed on untouched
 */
export function isInBandReport(value: unknown): value is InBandReport {
  // Asked of every event streaming through the middle: events are plain objects, and one prototype
  // read answers for all of them before either brand is looked up.
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) === Object.prototype) return false;
  return DIAGNOSTIC.is(value) || isDecodeWarning(value);
}

/** How the middle operators treat a violation: `strict` errors the stream, `report` emits a Diagnostic and drops the event. */
export type VerificationMode = "strict" | "report";
