/**
 * The client-tool loop of one exchange (docs/tools.md#frontend-tools, docs/tools.md § the loop): a run ends
 * `success` leaving calls to client tools, the loop executes them, appends their tool messages and
 * starts the follow-up run, until a run leaves none, as one Update stream with one `done`.
 */
import { catchError, concat, concatMap, defer, EMPTY, from, of, type Observable } from "rxjs";
import type { Message, ToolMessage } from "../protocol/messages";
import { ClientError } from "../thread/ClientError";
import { answeredElsewhere } from "./answeredElsewhere";
import { failedExchange } from "./failedExchange";
import type { ClientTool, ToolSession } from "./tools/clientTool";
import type { ClientToolError } from "./tools/ClientToolError";
import { executeToolCalls } from "./tools/executeToolCalls";
import { pendingClientToolCalls, type PendingToolCalls } from "./tools/pendingClientToolCalls";
import type { RunEnd, Update } from "../thread/Update";

/**
 * How many follow-up runs one exchange may start when neither the session nor the run says (`maxToolRoundtrips`).
 *
 * @example
 * const max = runOptions.maxToolRoundtrips ?? DEFAULT_MAX_TOOL_ROUNDTRIPS; // 5
 */
export const DEFAULT_MAX_TOOL_ROUNDTRIPS = 5;

/**
 * Why `max` cannot bound the loop (it must be a whole number of runs, 0 or more), or `undefined`
 * when it can (or is absent).
 *
 * @example
 * checkMaxToolRoundtrips(-1)?.message; // "expected maxToolRoundtrips to be a whole number of runs, 0 or more, but got -1"
 */
export function checkMaxToolRoundtrips(max: number | undefined): ClientError | undefined {
  if (max === undefined || (Number.isInteger(max) && max >= 0)) return undefined;
  return new ClientError("config", `expected maxToolRoundtrips to be a whole number of runs, 0 or more, but got ${String(max)}`);
}

/**
 * What the loop runs and where it writes.
 *
 * @example
 * const options: ToolLoopOptions<Board> = { first, followUp: (runId) => runOnce(runId), tools, maxToolRoundtrips: 5, session, append, newId };
 */
export interface ToolLoopOptions<S> {
  /** The exchange's first run (the `send`'s or `resume`'s): one run's Update stream, ending with its `done`. */
  readonly first: Observable<Update<S>>;
  /** A follow-up run with this id; cold, so the input it builds on subscription holds the appended tool messages. */
  readonly followUp: (runId: string) => Observable<Update<S>>;
  /** The client tools by name: the calls the loop executes. Calls to other tools are left for the application. */
  readonly tools: ReadonlyMap<string, ClientTool>;
  /** How many follow-up runs one exchange may start; a run that leaves client calls past it ends the exchange `failed` (`tool-roundtrips`). */
  readonly maxToolRoundtrips: number;
  /** What the tools read; its `messages` are read after each run to find the calls. */
  readonly session: ToolSession;
  /** Appends a tool message to the conversation and returns its index. */
  readonly append: (message: ToolMessage) => number;
  /** Mints the ids of tool messages and follow-up runs. */
  readonly newId: () => string;
  /**
   * `first` is a joined thread's stream (`Session.connect`), not a run this session started: its
   * calls are exactly those its end's `pendingToolCallIds` names (docs/threads.md#pending-client-tools), never
   * the fallback, for its MESSAGES_SNAPSHOT brings every earlier run's unanswered calls.
   */
  readonly firstJoined?: boolean;
  /**
   * How the loop yields when another session answered the calls first (a server that owns the
   * thread refuses this session's follow-up, `answeredElsewhere`): `withdraw` takes this round's
   * tool messages back out (the conversation after, or `undefined` when they are not last), and
   * `rejoin` joins the thread again, followed like `first` when `firstJoined`. Without it such a
   * refusal ends the exchange failed, as any refused run does.
   */
  readonly yieldTo?: {
    readonly withdraw: (answers: readonly ToolMessage[]) => readonly Message[] | undefined;
    readonly rejoin: () => Observable<Update<S>>;
  };
}

/**
 * One exchange over as many runs as its client tool calls need. Cold; each subscription runs the
 * whole exchange, with its own round-trip count.
 *
 * - Every update of every run passes through, except a run's `done` while the exchange goes on.
 * - A run that ends `success` leaving calls to client tools without a result
 *   (`pendingClientToolCalls`: the outcome's `pendingToolCallIds` when it has them, else the
 *   run's own messages) has them executed (`executeToolCalls`: one assistant message's calls
 *   concurrently, results in the calls' order). Each result is appended and emitted as a `message`
 *   update (change `toolResult`) as soon as it and the calls before it have settled; a call whose
 *   `execute` threw (or returned what has no JSON form) is answered with an error result and also
 *   heard: an `error` update (kind `tool`, code `execute-failed` / `invalid-result`, the
 *   `ClientToolError` as `cause`) right after its `toolResult`, which does not end the exchange.
 *   Then a `run` update announces the follow-up run, whose updates follow.
 * - No follow-up when a run ends any other way (an interrupted run executes nothing), leaves no
 *   client calls, or leaves calls to tools the session does not know (those are the
 *   application's; the known ones are still executed and answered). Its `done` ends the exchange.
 * - A run past `maxToolRoundtrips` follow-ups that leaves client calls ends the exchange with an
 *   `error` (kind `tool`, code `tool-roundtrips`) and `done` failed, executing nothing.
 * - `pendingToolCallIds` entries that name no call are `warning` errors (code `unknown-tool-call`).
 * - With `firstJoined` (a joined thread, `Session.connect`), the first run's calls are exactly those
 *   its end names; the prelude of a thread that waits on client calls ends that way.
 * - With `yieldTo`, a follow-up refused because another session answered the calls first
 *   (`answeredElsewhere`) is no failure: its tool messages are taken back (a `messages` update)
 *   and the thread is joined again, its end handled as the first run's (docs/threads.md#pending-client-tools).
 * - Exactly one `done`, last; the output never errors: a throw in a callback (`newId`, `append`)
 *   ends it with an `error` (kind `tool`, code `tool-loop`) and `done` failed.
 * - Unsubscribing unsubscribes the current run or aborts the signal of every running `execute`.
 *
 * @example
 * toolLoop({ first: runOnce(input), followUp: (runId) => runOnce({ ...next(), runId }), tools, maxToolRoundtrips: 5, session, append, newId })
 *   .subscribe((update) => update.kind === "run" && console.log("follow-up run", update.runId));
 */
export function toolLoop<S>(options: ToolLoopOptions<S>): Observable<Update<S>> {
  if (options.tools.size === 0) return options.first; // nothing to execute: the run is the exchange
  return defer(() => {
    let roundtrip = 0; // per subscription: each one runs its own exchange

    /**
     * One run, then what its end calls for: the exchange's `done`, or the calls executed and the
     * next run. `joined`: the run is a joined thread's stream (only the named calls are taken up).
     * `answers`: the tool messages this run carries as a follow-up; while nothing but errors has
     * come, those are held, for a refusal that says another session answered first is no error.
     */
    const runThenFollow = (run$: Observable<Update<S>>, joined: boolean, answers: readonly ToolMessage[]): Observable<Update<S>> =>
      defer(() => {
        // For the fallback without pendingToolCallIds: the messages this run created or extended.
        const before = new Set(options.session.messages.map((message) => message.id));
        const touched = new Set<string>();
        let end: RunEnd | undefined;
        let holding = options.yieldTo !== undefined && answers.length > 0;
        const held: Extract<Update<S>, { kind: "error" }>[] = [];
        const updates = run$.pipe(
          // A Session run reports failures as updates; a run stream that errors anyway ends like a failed run.
          catchError((error: unknown) => failedExchange<S>(ClientError.from(error))),
          concatMap((update): readonly Update<S>[] => {
            if (update.kind === "done") {
              end = update.end; // held back: the exchange may go on
              return [];
            }
            noteMessages(update, before, touched);
            if (holding && update.kind === "error") {
              held.push(update);
              return [];
            }
            holding = false;
            return held.length === 0 ? [update] : [...held.splice(0), update];
          }),
        );
        return concat(
          updates,
          defer(() => {
            const yieldTo = options.yieldTo;
            if (yieldTo !== undefined && end?.kind === "failed" && held.some((update) => answeredElsewhere(update.error))) {
              // docs/threads.md#pending-client-tools: the first answer recorded wins; this session's is taken back and it follows the thread as it is now
              const messages = yieldTo.withdraw(answers);
              const restored: Observable<Update<S>> = messages === undefined ? EMPTY : of({ kind: "messages", messages });
              return concat(restored, runThenFollow(yieldTo.rejoin(), true, []));
            }
            const rest =
              end === undefined
                ? failedExchange<S>(new ClientError("decode", "the run's update stream completed without its done update", { code: "truncated" }))
                : afterRun(end, touched, joined);
            return concat(from(held), rest);
          }),
        );
      });

    const afterRun = (end: RunEnd, touched: ReadonlySet<string>, joined: boolean): Observable<Update<S>> => {
      if (end.kind !== "success") return of(done<S>(end));
      const pending = pendingClientToolCalls({
        messages: options.session.messages,
        tools: options.tools,
        pendingToolCallIds: joined ? (end.pendingToolCallIds ?? []) : end.pendingToolCallIds,
        runMessageIds: touched,
      });
      const warnings = pending.unknownIds.map((id): Update<S> => ({ kind: "error", error: unknownCall(id) }));
      if (pending.execute.length === 0) return of(...warnings, done<S>(end));
      if (roundtrip >= options.maxToolRoundtrips) return concat(of(...warnings), failedExchange<S>(tooManyRoundtrips(options.maxToolRoundtrips, pending)));
      return concat(of(...warnings), execute(pending, end));
    };

    const execute = (pending: PendingToolCalls, previousEnd: Extract<RunEnd, { kind: "success" }>): Observable<Update<S>> => {
      const answered: string[] = [];
      const answers: ToolMessage[] = [];
      const results = executeToolCalls(pending.execute, { session: options.session, newId: options.newId }).pipe(
        concatMap((result): readonly Update<S>[] => {
          const index = options.append(result.message);
          answered.push(result.toolCallId);
          answers.push(result.message);
          const message = options.session.messages[index] ?? result.message;
          const answeredCall: Update<S> = { kind: "message", index, id: message.id, change: { kind: "toolResult", toolCallId: result.toolCallId }, message };
          const heard = result.kind === "failed" ? failedTool(result.error) : undefined;
          return heard === undefined ? [answeredCall] : [answeredCall, { kind: "error", error: heard }];
        }),
      );
      const next = defer(() => {
        // Calls of tools the session does not know wait for the application: a follow-up now would send them unanswered.
        if (pending.leftForApplication.length > 0) return of(done<S>(previousEnd));
        roundtrip++;
        const runId = options.newId();
        const boundary: Update<S> = { kind: "run", runId, roundtrip, previousEnd, toolCallIds: answered };
        return concat(of(boundary), runThenFollow(options.followUp(runId), false, answers));
      });
      return concat(results, next);
    };

    // A throw in any callback above (`newId`, `append`, reading the messages) ends the exchange by the contract instead of erroring.
    return runThenFollow(options.first, options.firstJoined === true, []).pipe(
      catchError((thrown: unknown) => {
        const why = thrown instanceof Error ? thrown.message : String(thrown);
        return failedExchange<S>(new ClientError("tool", `the client-tool loop failed: ${why}`, { code: "tool-loop", cause: thrown }));
      }),
    );
  });
}

function done<S>(end: RunEnd): Update<S> {
  return { kind: "done", end };
}

/** Collects the ids of the messages a run created or extended: its message updates, and what a snapshot brought that was not there before. */
function noteMessages<S>(update: Update<S>, before: ReadonlySet<string>, touched: Set<string>): void {
  if (update.kind === "message") touched.add(update.id);
  else if (update.kind === "messages") for (const message of update.messages) if (!before.has(message.id)) touched.add(message.id);
}

/**
 * What the application hears of a client tool that failed on its own side (docs/tools.md § the
 * loop): `execute` threw or rejected (`execute-failed`), or returned what has no JSON form
 * (`invalid-result`). The model still gets its error result and the exchange goes on, so the error
 * is not fatal. Arguments that do not decode are the model's mistake, which its error result lets
 * it correct: nothing to hear.
 */
function failedTool(error: ClientToolError): ClientError | undefined {
  if (error.code !== "execute-failed" && error.code !== "invalid-result") return undefined;
  return new ClientError("tool", error.message, { code: error.code, cause: error });
}

function unknownCall(id: string): ClientError {
  return new ClientError("warning", `the run's pendingToolCallIds names "${id}", but no tool call of the conversation has that id: nothing can answer it`, {
    code: "unknown-tool-call",
  });
}

function tooManyRoundtrips(max: number, pending: PendingToolCalls): ClientError {
  const names = [...new Set(pending.execute.map((item) => item.call.function.name))].join(", ");
  const calls = pending.execute.length === 1 ? "1 more client tool call" : `${pending.execute.length} more client tool calls`;
  return new ClientError(
    "tool",
    `expected at most ${max} follow-up run${max === 1 ? "" : "s"} per exchange (maxToolRoundtrips), but run ${max + 1} of the exchange left ${calls} (${names}); they were not executed`,
    { code: "tool-roundtrips" },
  );
}
