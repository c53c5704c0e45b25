/** The client tool calls a session is executing, each answerable from a view: how human-in-the-loop tools work (docs/tools.md § human in the loop). */
import type { Tool } from "../../protocol/input";
import type { ClientTool, ToolCallContext } from "./clientTool";
import { resolveTools, type ResolvedTools } from "./resolveTools";

/**
 * One client tool call whose `execute` is running. `args` are decoded (a call whose arguments do
 * not decode never runs, so it never shows here). `respond(result)` answers the call with
 * `result`, whatever `execute` is doing: the call settles as if `execute` had returned it (the
 * value goes through the tool's `result` encoder), and the signal `execute` received is aborted.
 * Only the first answer counts; `respond` after the call settled (or the exchange was stopped)
 * does nothing.
 *
 * @example
 * const [call] = session.runningToolCalls;
 * call?.respond({ confirmed: true });
 */
export interface RunningToolCall<A = unknown, R = unknown> {
  readonly toolCallId: string;
  readonly toolName: string;
  /** The arguments, decoded by the tool's `parameters`. */
  readonly args: A;
  /** The tool executing the call: the object the session was given. */
  readonly tool: ClientTool<A, R>;
  respond(result: R): void;
}

const NONE: readonly RunningToolCall[] = Object.freeze([]);

/** How many executed calls a session remembers (`RunningToolCalls`): far more than a run leaves pending at once. */
const REMEMBERED_CALLS = 256;

/**
 * The registry of running calls of one session. `track(tool)` gives the tool the session
 * executes in its place: the same tool, whose `execute` enters the call here while it runs and
 * races it against `respond`. `list` is a frozen array, the same object until a call enters or
 * leaves; `onChange` is called after each change.
 *
 * @example
 * const running = new RunningToolCalls(() => render());
 * const executed = running.track(confirmDelete); // what the loop runs
 * running.list; // [{ toolCallId, toolName: "confirm_delete", args, tool: confirmDelete, respond }]
 */
export class RunningToolCalls {
  private calls: readonly RunningToolCall[] = NONE;
  /**
   * Each call this session executed, by id, oldest first (at most `REMEMBERED_CALLS`): a call the
   * session meets again (a run replayed after a cut, a join that still shows it pending while its
   * follow-up was in flight) gets the same answer without a second `execute`, so that a tool's
   * side effects happen once per session. A call stopped before it settled (its exchange's signal
   * aborted) is forgotten: nothing answered it, and it may run again.
   */
  private readonly executed = new Map<string, Promise<unknown>>();

  constructor(private readonly onChange: () => void) {}

  /** The calls running now, in the order they started. */
  get list(): readonly RunningToolCall[] {
    return this.calls;
  }

  /**
   * `resolveTools(list)`, with every client tool tracked: what a session executes is the tracked
   * tool, so its calls show here. Throws as `resolveTools` does (two tools with one name).
   */
  resolve(list: readonly (Tool | ClientTool)[]): ResolvedTools {
    const { wire, client } = resolveTools(list);
    const tracked = new Map<string, ClientTool>();
    for (const [name, tool] of client) tracked.set(name, this.track(tool));
    return { wire, client: tracked };
  }

  /** `tool` with an `execute` that registers each call here while it runs and lets `respond` answer it. */
  track<A, R>(tool: ClientTool<A, R>): ClientTool<A, R> {
    return Object.freeze({ ...tool, execute: (args: A, context: ToolCallContext): Promise<R> => this.execute(tool, args, context) });
  }

  private execute<A, R>(tool: ClientTool<A, R>, args: A, context: ToolCallContext): Promise<R> {
    const id = context.toolCallId;
    const earlier = this.executed.get(id);
    // The same call again: the answer `execute` gave (or will give) it, waited for until this exchange's own signal aborts.
    if (earlier !== undefined) return untilAborted(earlier as Promise<R>, context.signal);
    const running = this.run(tool, args, context);
    this.executed.set(id, running);
    if (this.executed.size > REMEMBERED_CALLS) this.executed.delete(this.executed.keys().next().value!);
    running.catch(() => {
      if (context.signal.aborted && this.executed.get(id) === running) this.executed.delete(id);
    });
    return running;
  }

  private run<A, R>(tool: ClientTool<A, R>, args: A, context: ToolCallContext): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (context.signal.aborted) {
        reject(context.signal.reason);
        return;
      }
      // The signal `execute` sees: aborted when the exchange is (the outer signal) and when a view answers.
      const own = new AbortController();
      let settled = false;
      const settle = (then: () => void): void => {
        if (settled) return;
        settled = true;
        context.signal.removeEventListener("abort", onAbort);
        this.remove(entry);
        then();
      };
      const onAbort = (): void => {
        own.abort(context.signal.reason);
        settle(() => reject(context.signal.reason));
      };
      const entry: RunningToolCall<A, R> = {
        toolCallId: context.toolCallId,
        toolName: tool.name,
        args,
        tool,
        respond: (result: R): void => {
          if (settled) return;
          settle(() => resolve(result));
          own.abort(new AnsweredError(tool.name, context.toolCallId));
        },
      };
      context.signal.addEventListener("abort", onAbort, { once: true });
      this.add(entry);
      // `new Promise` adopts a returned promise and catches a synchronous throw, in one place.
      new Promise<R>((adopt) => adopt(tool.execute(args, { ...context, signal: own.signal }))).then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error)),
      );
    });
  }

  private add(call: RunningToolCall): void {
    this.calls = Object.freeze([...this.calls, call]);
    this.onChange();
  }

  private remove(call: RunningToolCall): void {
    const index = this.calls.indexOf(call);
    if (index < 0) return;
    const rest = this.calls.filter((other) => other !== call);
    this.calls = rest.length === 0 ? NONE : Object.freeze(rest);
    this.onChange();
  }
}

/** `answer`, or a rejection with `signal`'s reason once it aborts first. */
function untilAborted<R>(answer: Promise<R>, signal: AbortSignal): Promise<R> {
  if (signal.aborted) return Promise.reject(signal.reason as unknown);
  return new Promise<R>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener("abort", onAbort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** The reason a call's `execute` signal is aborted with once `respond` answered the call. */
class AnsweredError extends Error {
  override readonly name = "AbortError";
  constructor(toolName: string, toolCallId: string) {
    super(`the call ${toolCallId} of "${toolName}" was answered by respond()`);
  }
}

/**
 * The running calls of one tool, typed by it: `tool` is matched by identity (pass the object the
 * session was given), a name by name (the arguments and result then stay `unknown`). A new array;
 * memoize it on `calls`.
 *
 * @example
 * const confirmations = callsOf(session.runningToolCalls, confirmDelete);
 * confirmations[0]?.args.title; // typed by confirmDelete's parameters
 */
export function callsOf<A, R>(calls: readonly RunningToolCall[], tool: ClientTool<A, R>): readonly RunningToolCall<A, R>[];
export function callsOf(calls: readonly RunningToolCall[], name: string): readonly RunningToolCall[];
export function callsOf<A, R>(
  calls: readonly RunningToolCall[],
  tool: ClientTool<A, R> | string,
): readonly RunningToolCall<A, R>[] | readonly RunningToolCall[] {
  if (typeof tool === "string") return calls.filter((call) => call.toolName === tool);
  return calls.filter((call): call is RunningToolCall<A, R> => isCallOf(call, tool));
}

/** A call entered by `track(tool)` holds that very tool, with its own A and R: the identity check is what makes the narrowing true. */
function isCallOf<A, R>(call: RunningToolCall, tool: ClientTool<A, R>): call is RunningToolCall<A, R> {
  return call.tool === tool;
}
