/** Everything a client accumulates from events: messages, state, pending interrupts, the subagent registry. */
import * as E from "../../protocol/either";
import * as t from "io-ts";
import type { Interrupt } from "../../protocol/outcomes";
import { describeFailure, excerpt } from "../../protocol/describeFailure";
import { isEmptyState, type StateSpec } from "../../protocol/stateSpec";
import { ClientError } from "../ClientError";
import type { Subagent } from "../Update";
import { MessageList } from "./MessageList";

/** How the raw JSON state becomes the caller's type: a decoder plus the value "no state yet" means. */
interface StateReader<S> {
  readonly decode: (raw: unknown) => E.Either<ClientError, S>;
}

/**
 * The reducer's state. It lives as long as a session (runs share it: messages, state, interrupts
 * and the registry carry over) and is owned by the reducer: `applyEvent` edits it in place, at a
 * cost proportional to the event, and hands out immutable snapshots (`messages.snapshot()`,
 * `subagentList()`), so readers never see an object change under them.
 *
 * @example
 * const state = ClientState.untyped();
 * applyEvent(state, ev.stateSnapshot({ count: 1 }));
 * state.rawState; // { count: 1 }
 */
export class ClientState<S = unknown> {
  readonly messages = new MessageList();
  /** The state as JSON, exactly as the events built it. */
  rawState: unknown;
  /** `rawState` decoded into S; `undefined` while it does not decode. */
  state: S | undefined;
  /**
   * While STATE_DELTAs of one batch are applied and not yet published (`applyEvents`, docs/client.md#state-batches):
   * the containers of `rawState` the batch created, which later deltas of the batch edit in place
   * (`applyPatchInBatch`). `undefined` otherwise: every delta copies what it changes.
   */
  unpublished: Set<object> | undefined;
  /** Interrupts of the last interrupted run, until a later RUN_FINISHED replaces them (docs/rules.md#I3). */
  interrupts: readonly Interrupt[] = [];
  /** Subagent invocations by id, across runs (docs/rules.md#A18). */
  readonly subagents = new Map<string, Subagent>();
  private subagentCache: readonly Subagent[] | undefined;

  private constructor(
    private readonly reader: StateReader<S>,
    initialRaw: unknown,
  ) {
    this.rawState = initialRaw;
    const decoded = reader.decode(initialRaw);
    this.state = E.isRight(decoded) ? decoded.right : undefined;
  }

  /** A state whose typed view is the raw JSON itself. The initial state is `{}` (what the official client starts from). */
  static untyped(initialRaw: unknown = {}): ClientState<unknown> {
    return new ClientState<unknown>({ decode: E.right }, initialRaw);
  }

  /**
   * A state typed by `spec`: the raw state starts as the encoded default, and "no state yet" on
   * the wire (`null`, `{}`) reads as the default (docs/seeds.md#seed-000).
   */
  static typed<S>(spec: StateSpec<S>, initialRaw?: unknown): ClientState<S> {
    const decode = (raw: unknown): E.Either<ClientError, S> => {
      if (isEmptyState(raw)) return E.right(spec.defaultValue);
      const result = spec.codec.decode(raw);
      if (E.isRight(result)) return E.right(result.right);
      return E.left(new ClientError("state", `the state does not decode: ${describeErrors(result.left)}`, { cause: result.left }));
    };
    return new ClientState<S>({ decode }, initialRaw === undefined ? spec.codec.encode(spec.defaultValue) : initialRaw);
  }

  /** Sets the raw state and decodes it; Left when it does not decode (then `state` is `undefined`). */
  setRawState(raw: unknown): E.Either<ClientError, S> {
    this.rawState = raw;
    const decoded = this.reader.decode(raw);
    this.state = E.isRight(decoded) ? decoded.right : undefined;
    return decoded;
  }

  /** Records a registry entry. */
  putSubagent(entry: Subagent): void {
    this.subagents.set(entry.id, entry);
    this.subagentCache = undefined;
  }

  /** The registry in announcement order, the same frozen array until it changes. */
  subagentList(): readonly Subagent[] {
    this.subagentCache ??= Object.freeze([...this.subagents.values()]);
    return this.subagentCache;
  }
}

/** The first io-ts failure as "at /path: expected X, got Y". */
function describeErrors(errors: t.Errors): string {
  const { path, expected, actual } = describeFailure(errors);
  return `at ${path || "/"}: ${expected}, got ${excerpt(actual, 60)}`;
}
