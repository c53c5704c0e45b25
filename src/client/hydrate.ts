/** A Session's starting point (docs/durability.md#stores-and-routes): stored messages, state and interrupts, checked before they are used. */
import * as E from "../protocol/either";
import type * as t from "io-ts";
import { list } from "../protocol/codec";
import { describeFailure, excerpt } from "../protocol/describeFailure";
import { Message } from "../protocol/messages";
import { Interrupt } from "../protocol/outcomes";
import type { StateSpec } from "../protocol/stateSpec";
import { ClientError } from "../thread/ClientError";
import { ClientState } from "../thread/reducers/ClientState";

/**
 * What a session may be hydrated from: what an earlier session's `messages`, `rawState` and
 * `interrupts` held (from local storage, a database, a server's thread).
 *
 * @example
 * const stored: Hydration = { messages: session.messages, rawState: session.rawState, interrupts: session.interrupts };
 */
export interface Hydration {
  /**
   * The conversation to start from, e.g. what an earlier `session.messages` held (the official
   * client's `initialMessages`). Checked with the Message codec: an invalid one throws a `config`
   * ClientError naming it.
   */
  readonly messages?: readonly Message[] | undefined;
  /**
   * The state JSON to start from, e.g. an earlier `session.rawState` (the official client's
   * `initialState`; named after the getter it comes from, since a Session's `state` option is the
   * StateSpec). Decoded with the StateSpec like any state; one that does not decode leaves `state` undefined.
   */
  readonly rawState?: unknown;
  /** The interrupts the thread waits on (an earlier `session.interrupts`); checked like `messages`. */
  readonly interrupts?: readonly Interrupt[] | undefined;
}

/**
 * A reducer state starting from `from`: the raw state as given (decoded with `spec` like any state;
 * one that does not decode leaves the typed state undefined), the messages and interrupts decoded
 * with their codecs (so they are copies, with what the protocol does not describe stripped). An
 * invalid message or interrupt throws a `config` ClientError naming where it is.
 *
 * @example
 * const store = hydrate(boardSpec, { messages, rawState });
 */
export function hydrate<S>(spec: StateSpec<S> | undefined, from: Hydration): ClientState<S> {
  // Type boundary: without a StateSpec nothing decodes the JSON, so S is the caller's claim about it (default `unknown`).
  const store = spec === undefined ? (ClientState.untyped(from.rawState) as ClientState<S>) : ClientState.typed(spec, from.rawState);
  if (from.messages !== undefined) store.messages.reset(checked(list(Message), from.messages, "messages"));
  if (from.interrupts !== undefined) store.interrupts = checked(list(Interrupt), from.interrupts, "interrupts");
  return store;
}

/** `value` decoded with `codec`, or a `config` ClientError naming the bad member. */
function checked<A>(codec: t.Decoder<unknown, A>, value: unknown, what: string): A {
  const decoded = codec.decode(value);
  if (E.isRight(decoded)) return decoded.right;
  const { path, expected, actual } = describeFailure(decoded.left);
  throw new ClientError("config", `the Session's ${what} to hydrate from are invalid at ${path || "/"}: ${expected}, got ${excerpt(actual)}`, {
    cause: decoded.left,
  });
}
