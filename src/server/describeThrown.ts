/**
 * What the driver says about anything an agent produced that is not a good outcome: a thrown or
 * rejected value of any kind, or a resolved value that is not a `RunOutcome` (docs/rules.md#S1, docs/rules.md#S3). Both
 * functions never throw, whatever they are handed (a BigInt, a cycle, a throwing getter, a revoked
 * proxy, an object without a prototype), so formatting a message can never keep a run from its one
 * terminal event.
 */
import { excerpt } from "../protocol/describeFailure";
import { ProtocolError } from "../operators/ProtocolError";
import { AgentError, DEFAULT_ERROR_CODE, PROTOCOL_ERROR_CODE } from "./AgentError";

/**
 * The RUN_ERROR members for a thrown value.
 *
 * @example
 * const { message, code } = describeThrown(new AgentError("down", "UPSTREAM"), false); // "down", "UPSTREAM"
 */
export interface ThrownDescription {
  readonly message: string;
  readonly code: string;
  /** The error's stack, only when asked for and the value has a string one. */
  readonly stack?: string;
}

/**
 * Describes a thrown or rejected value: an `Error`'s message (or a thrown string as it is; any other
 * value as "a non-Error value: <excerpt>"), the code (`AgentError.code`, `"PROTOCOL"` for a
 * `ProtocolError`, `"AGENT_ERROR"` otherwise) and, with `exposeStack`, the stack.
 *
 * @example
 * describeThrown(Object.create(null), false).message; // "the agent failed with a non-Error value: {}"
 */
export function describeThrown(error: unknown, exposeStack: boolean): ThrownDescription {
  const code = attempt(() => codeOf(error), DEFAULT_ERROR_CODE);
  const parts = attempt(() => errorParts(error), undefined);
  let message: string;
  if (parts !== undefined) message = stringOr(parts.message, "");
  else if (typeof error === "string") message = error;
  else message = `the agent failed with a non-Error value: ${show(error)}`;
  const stack = exposeStack ? stringOr(parts?.stack, undefined) : undefined;
  return { message: message === "" ? "the agent failed without a message" : message, code, stack };
}

/**
 * Why a value an agent resolved with is not a `RunOutcome` (plain JavaScript callers can resolve
 * with anything), or `undefined` when it has the shape of one: `undefined`, `{ type: "success" }`
 * or `{ type: "interrupt", interrupts: [at least one] }`. What is inside (the interrupts, the
 * result) is checked later by the egress check, with the codecs.
 *
 * @example
 * describeMalformedOutcome(10n); // "expected the agent to resolve with undefined, …, but it resolved with 10n"
 */
export function describeMalformedOutcome(outcome: unknown): string | undefined {
  if (outcome === undefined) return undefined;
  const fits = attempt(() => {
    if (typeof outcome !== "object" || outcome === null || !("type" in outcome)) return false;
    if (outcome.type === "success") return true;
    return outcome.type === "interrupt" && "interrupts" in outcome && Array.isArray(outcome.interrupts) && outcome.interrupts.length > 0;
  }, false);
  if (fits) return undefined;
  return `expected the agent to resolve with undefined, a success outcome or an interrupt outcome with at least one interrupt, but it resolved with ${show(outcome)}`;
}

/** An `Error`'s message and stack, each read on its own (either getter may throw), or `undefined` for a non-Error. */
function errorParts(error: unknown): { readonly message: unknown; readonly stack: unknown } | undefined {
  if (!(error instanceof Error)) return undefined;
  return { message: attempt(() => error.message, undefined), stack: attempt(() => error.stack, undefined) };
}

/**
 * A value as error text: `undefined` and BigInts in their JavaScript spelling (JSON has neither),
 * anything JSON can render as an excerpt of that, and the rest by what keeps JSON from it.
 */
function show(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  const renderable = attempt(() => JSON.stringify(value) !== undefined, false);
  if (renderable) return excerpt(value, 117);
  return `${typeof value === "object" ? "an object" : `a ${typeof value}`} JSON cannot render (a cycle, a BigInt inside, or a member that throws when read)`;
}

function codeOf(error: unknown): string {
  if (error instanceof AgentError) return stringOr(error.code, DEFAULT_ERROR_CODE);
  return ProtocolError.isInstance(error) ? PROTOCOL_ERROR_CODE : DEFAULT_ERROR_CODE;
}

function stringOr<F>(value: unknown, fallback: F): string | F {
  return typeof value === "string" ? value : fallback;
}

/** `read()`, or `fallback` when it throws: every read of a foreign value goes through here. */
function attempt<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}
