/** Material decoding stripped under AG-UI 1.1's processing model: reported in-band, never fatal. */
import { Brand } from "../protocol/Brand";
import type { Stripped } from "../protocol/unrecognised";

/**
 * What was stripped:
 * - `unknown-property`: a member the event (or an object inside it) does not declare; it is removed;
 * - `unknown-member`: an unrecognised union member or enum value (an outcome type, a content part
 *   type, a role, a patch op); it is removed where it stands, or takes its container with it, up to
 *   the whole event when it sat in one of the event's required members (then `path` is `""`).
 *
 * @example
 * if (warning.code === "unknown-member" && warning.path === "") console.log("event dropped:", warning.message);
 */
export type DecodeWarningCode = Stripped["code"];

/** Where a warning happened. */
export interface DecodeWarningContext {
  /** The event's `type`. */
  readonly eventType: string;
  /** JSON Pointer of what was removed, inside the event (`""`: the whole event was dropped). */
  readonly path: string;
  /** The event's position in its stream (0-based, counting every frame or object decoded), when known. */
  readonly index?: number;
}

/** The cross-copy brand (docs/packaging.md): every copy of the package marks its warnings with the same key. */
const DECODE_WARNING = new Brand<DecodeWarning>("agui-rx/DecodeWarning");

/**
 * An in-band warning: decoding removed material the protocol does not describe (AG-UI 1.1
 * `/spec/1.1/basic/processing`), at this position of the stream. The event (if anything is left of
 * it) follows right after, stripped. `decodeSse({ warnings: true })`, the transports and the
 * `Session` carry these; the Session turns each into an `error` update of kind `warning`. Plain
 * `decodeSse()` and `decodeEvent()` strip silently unless asked.
 *
 * @example
 * // event 3 was RUN_FINISHED with outcome { type: "paused" }
 * new DecodeWarning("unknown-member", 'event 3 (RUN_FINISHED): removed /outcome: /outcome/type holds unknown type "paused" …',
 *   { eventType: "RUN_FINISHED", path: "/outcome", index: 3 });
 */
export class DecodeWarning {
  readonly kind = "warning" as const;
  static {
    DECODE_WARNING.mark(this);
  }
  readonly eventType: string;
  readonly path: string;
  readonly index?: number;

  constructor(
    readonly code: DecodeWarningCode,
    readonly message: string,
    context: DecodeWarningContext,
  ) {
    this.eventType = context.eventType;
    this.path = context.path;
    if (context.index !== undefined) this.index = context.index;
  }

  /**
   * The warning for one stripped piece of `eventType` (at stream position `index`, when known).
   *
   * @example
   * DecodeWarning.of({ code: "unknown-property", path: "/x", reason: 'TEXT_MESSAGE_END has no member "x"' }, "TEXT_MESSAGE_END", 4).message
   * // 'event 4 (TEXT_MESSAGE_END): removed unknown property /x (TEXT_MESSAGE_END has no member "x")'
   */
  static of(stripped: Stripped, eventType: string, index?: number): DecodeWarning {
    const where = index === undefined ? eventType : `event ${index} (${eventType})`;
    const message =
      stripped.path === ""
        ? `${where} dropped: ${stripped.reason}; the event was removed, since what it needs cannot be recognised`
        : stripped.code === "unknown-property"
          ? `${where}: removed unknown property ${stripped.path} (${stripped.reason})`
          : `${where}: removed ${stripped.path}: ${stripped.reason}`;
    return new DecodeWarning(stripped.code, message, index === undefined ? { eventType, path: stripped.path } : { eventType, path: stripped.path, index });
  }
}

/**
 * Whether a stream element is an in-band decode warning rather than an event, from any copy of the package.
 *
 * @example
 * events$.pipe(filter((item) => !isDecodeWarning(item)));
 */
export function isDecodeWarning(value: unknown): value is DecodeWarning {
  return DECODE_WARNING.is(value);
}
