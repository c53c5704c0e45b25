/** A run context without a driver, for unit tests of agent code (the seed's `RunContext::new`). */
import * as E from "../protocol/either";
import type { Observable } from "rxjs";
import { ev } from "../protocol/build";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import type { UserMessage } from "../protocol/messages";
import type { StateSpec } from "../protocol/stateSpec";
import { decodeState } from "./decodeState";
import { randomIds, type IdSource } from "./ids";
import type { RunContext } from "./RunContext";
import { RunCore } from "./RunCore";
import { rootContext } from "./SubagentRunContext";

/**
 * What `createRunContext` returns.
 *
 * @example
 * const { ctx, events, abort } = createRunContext(undefined, runAgentInput("t", "r"));
 */
export interface RunContextHarness<S> {
  /** The context, as an agent's `run` would receive it. */
  readonly ctx: RunContext<S>;
  /** Every event sent so far, appended synchronously by each write (clear it with `events.length = 0`). */
  readonly events: Event[];
  /** Aborts `ctx.signal`, as an unsubscribing consumer would; later writes throw the abort reason. */
  abort(reason?: unknown): void;
}

/**
 * Makes a context for `input` with no driver: no RUN_STARTED is emitted (the verifier starts as if
 * one had been), nothing closes on its own, and events land in `events` as they are written,
 * through the same normalizer, strict verifier and state encoding as a real run. A state that
 * does not decode throws an `AgentError` with code `"SERIALIZATION"` (what `run` would turn into
 * RUN_ERROR).
 *
 * @example
 * const { ctx, events } = createRunContext(docSpec, runAgentInput("t", "r"));
 * ctx.updateState((doc) => { doc.step = 1; });
 * events.map((e) => e.type); // ["STATE_SNAPSHOT"]
 * // options.setThreadTitle receives what ctx.setThreadTitle sets (none: it does nothing);
 * // options.incoming is what ctx.incoming$ takes from (none: it completes at once), options.withdrawn
 * // the ids of those cancelled before they are taken, and abort() ends taking
 */
export function createRunContext<S>(
  spec: StateSpec<S> | undefined,
  input: RunAgentInput,
  options: {
    readonly ids?: IdSource | undefined;
    readonly setThreadTitle?: ((title: string) => Promise<void>) | undefined;
    readonly incoming?: Observable<UserMessage> | undefined;
    readonly withdrawn?: Observable<string> | undefined;
  } = {},
): RunContextHarness<S> {
  const decoded = decodeState(spec, input.state);
  if (E.isLeft(decoded)) throw decoded.left;
  const events: Event[] = [];
  const core = new RunCore<S>(spec, input, (event) => events.push(event), decoded.right, {
    newId: options.ids ?? randomIds,
    setThreadTitle: options.setThreadTitle,
    incoming: options.incoming,
    withdrawn: options.withdrawn,
  });
  core.prime(ev.runStarted(input.threadId, input.runId));
  core.incoming.start();
  return {
    ctx: rootContext(core),
    events,
    abort: (reason?: unknown) => core.controller.abort(reason),
  };
}
