/** Reads `RunAgentInput.state` into the agent's state type before the agent runs (docs/rules.md#S4, docs/seeds.md#seed-000). */
import * as E from "../protocol/either";
import * as t from "io-ts";
import { describeFailure, excerpt } from "../protocol/describeFailure";
import { DEFAULT_MAX_JSON_DEPTH, findTooDeep } from "../protocol/jsonDepth";
import { isEmptyState, type StateSpec } from "../protocol/stateSpec";
import { AgentError, SERIALIZATION_ERROR_CODE } from "./AgentError";

/**
 * Options of `decodeState`.
 *
 * @example
 * decodeState(spec, input.state, { maxJsonDepth: 64 });
 */
export interface DecodeStateOptions {
  /** Deepest nesting accepted, in levels of arrays and objects (default 512, `DEFAULT_MAX_JSON_DEPTH`). */
  readonly maxJsonDepth?: number;
}

/**
 * Decodes the wire state with the agent's spec: absent, `null` and `{}` are "no state yet" and
 * give the spec's default; anything else must match the codec. A mismatch is an `AgentError`
 * with code `"SERIALIZATION"` whose message names the first bad path (`state.clicks`), what was
 * expected and what arrived. Without a spec the raw value is kept (`{}` when there is none).
 *
 * A state nested deeper than `maxJsonDepth` (or circular) is refused the same way, naming the path
 * and the limit, before the codec sees it: every recursive consumer after this (the codec, the
 * state copies, the diff) would overflow the call stack on it. Never throws: a codec or a value
 * that throws while it is read gives a SERIALIZATION error too.
 *
 * @example
 * decodeState(stateSpec(t.type({ clicks: t.number }), { clicks: 0 }), { clicks: "three" });
 * // Left(AgentError: state does not match the agent's state type: at state.clicks expected number, got "three")
 */
export function decodeState<S>(spec: StateSpec<S> | undefined, raw: unknown, options: DecodeStateOptions = {}): E.Either<AgentError, S> {
  const effective = spec ?? rawState<S>();
  const limit = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  try {
    if (isEmptyState(raw)) return E.right(effective.defaultValue);
    const tooDeep = findTooDeep(raw, limit);
    if (tooDeep !== undefined) {
      const where = tooDeep.path === "" ? "state" : `state${tooDeep.path.replace(/\//g, ".")}`;
      return E.left(
        new AgentError(
          `state nests deeper than the limit of ${limit} levels (or is circular): at ${where.length > 200 ? `${where.slice(0, 200)}…` : where}`,
          SERIALIZATION_ERROR_CODE,
        ),
      );
    }
    const decoded = effective.codec.decode(raw);
    if (E.isRight(decoded)) return decoded;
    return E.left(new AgentError(describe(decoded.left), SERIALIZATION_ERROR_CODE));
  } catch (cause) {
    return E.left(new AgentError(`state could not be read: ${excerpt(cause instanceof Error ? cause.message : cause)}`, SERIALIZATION_ERROR_CODE, { cause }));
  }
}

/**
 * The value "no state yet" stands for: the spec's default, or `{}` for an agent without a spec.
 *
 * @example
 * defaultState(stateSpec(Counter, { clicks: 0 })); // { clicks: 0 }
 */
export function defaultState<S>(spec: StateSpec<S> | undefined): S {
  return (spec ?? rawState<S>()).defaultValue;
}

/** The first validation error in words: the path from `state`, the expected type and the value. */
function describe(errors: t.Errors): string {
  const { segments, expected, actual, count } = describeFailure(errors);
  const path = ["state", ...segments].join(".");
  const more = count > 1 ? ` (and ${count - 1} more error${count > 2 ? "s" : ""})` : "";
  return `state does not match the agent's state type: at ${path} ${expected}, got ${excerpt(actual)}${more}`;
}

/**
 * The spec of an agent that declares no state: every wire value is accepted as it is. The agent
 * chose not to type its state, so `S` is whatever it asked for (`unknown` by default); the
 * guard below is that declaration, not a check.
 */
function rawState<S>(): StateSpec<S> {
  const accept = (_u: unknown): _u is S => true;
  const empty = {};
  if (!accept(empty)) throw new Error("unreachable");
  return {
    codec: new t.Type<S, unknown, unknown>("raw state", accept, (u, c) => (accept(u) ? t.success(u) : t.failure(u, c)), t.identity),
    defaultValue: empty,
  };
}
