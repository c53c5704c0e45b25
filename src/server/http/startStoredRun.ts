/** The recording half of a stored run (docs/durability.md#stores-and-routes): the run subscribed on its own, apart from any response, every event logged. */
import { filter, map, type Observable } from "rxjs";
import type { Event } from "../../protocol/events";
import { excerpt } from "../../protocol/describeFailure";
import type { RunAgentInput } from "../../protocol/input";
import { debugEvents } from "../../operators/logEvents";
import { normalizeChunks } from "../../operators/normalizeChunks";
import { verifyEvents } from "../../operators/verifyEvents";
import { queuedMessageOf } from "../store/QueuedRun";
import { recordRun } from "../store/recordRun";
import type { RunWriter, StoreScope, ThreadStore } from "../store/ThreadStore";
import type { RunAgentOptions } from "../RunAgentOptions";
import { endOnStop } from "./endOnStop";
import { sharedTurns } from "./fairTurns";
import type { HandlerContext } from "./HandlerContext";
import type { RunFunction } from "./HandlerOptions";
import { RecordingBacklog } from "./RecordingBacklog";
import { RunPace } from "./RunPace";
import { countAppends } from "../tracing/countAppends";
import type { RunSpans } from "../tracing/RunSpans";
import { tracedRun } from "../tracing/tracedRun";

/**
 * Runs a begun stored run: `input` through `chosen` (a routed run function) or the source's
 * driver, subscribed apart from any response through `recordRun` (so every event is logged, and
 * the run goes on whoever reads it). A stop (`RunWriter.stopRequested`, from `/stop` on any
 * instance) reaches the run as the driver's `stop` (an `Agent`: it closes what is open and ends
 * RUN_FINISHED cancelled), or for a run function as its `signal` plus `endOnStop`. A run
 * function's events are normalized and strictly verified before they are logged. An `Agent` gets
 * the steers sent into the run (`writer.steers`) as its `incoming` user messages, and the
 * cancellations of those it has not taken as `withdrawn` (docs/queue.md#steer); a run function has no way to take them, so they stay queued and run after
 * it. The producer's `ready` follows the `RunPace` returned (a response attaches to it), and waits
 * while the store is far behind (`RecordingBacklog`). A recording that fails aborts the agent as a
 * stop does (with a reason that says why) and is reported to `onRunError`. When the recording ends,
 * however it ends, the thread's queue is offered the turn (`onEnd`: the handler drains it,
 * docs/queue.md#who-starts-a-waiting-message). With `spans` (started before the run began, so
 * that its logged RUN_STARTED carries the trace) the run's events are traced (docs/observability.md#traces).
 *
 * @example
 * const pace = startStoredRun(writer, input, chosen, context, { request, spans, onEnd: () => drain() });
 * pace.attach(ready, gone); // while a response reads the run
 */
export function startStoredRun(
  writer: RunWriter,
  input: RunAgentInput,
  chosen: RunFunction | undefined,
  context: HandlerContext,
  how: { readonly request: Request; readonly onEnd: () => void; readonly spans: RunSpans | undefined; readonly scope: StoreScope },
): RunPace {
  const { threadId, runId } = input;
  const stop = new AbortController();
  const stopWatch = writer.stopRequested.subscribe(() =>
    stop.abort(new DOMException(`run ${JSON.stringify(runId)} was stopped (POST {url}/stop)`, "AbortError")),
  );
  const pace = new RunPace(context.stream.turns ?? sharedTurns);
  const backlog = new RecordingBacklog(input); // the producer waits while the store is far behind (RECORDING_BACKLOG)
  const ready = backlog.pace(pace.ready);
  const setThreadTitle = (title: string): Promise<void> => writer.setTitle(title); // docs/threads.md#the-thread-list
  const { spans } = how;
  const produced = (): Observable<Event> =>
    chosen === undefined && context.driver !== undefined
      ? context.driver(input, { ready, stop: stop.signal, setThreadTitle, ...steersOf(writer, context.store, threadId, how.scope) })
      : (chosen ?? context.runDefault)(input, { request: how.request, ready, signal: stop.signal, setThreadTitle }).pipe(
          normalizeChunks(),
          verifyEvents(),
          endOnStop(stop.signal, threadId, runId),
        );
  const events = spans === undefined ? produced() : tracedRun(produced, spans);
  const appends = countAppends(context.telemetry, spans); // docs/observability.md#store-work
  const over = (): void => {
    appends.report();
    stopWatch.unsubscribe();
    pace.end();
    how.onEnd();
  };
  events
    .pipe(debugEvents(context.debug, "server"), backlog.taken(), recordRun(writer, { tally: appends.tally }), context.metrics.measureRun(), backlog.logged())
    .subscribe({
      error: (error: unknown) => {
        // Nothing more of this run can be logged (its clients read the log): the agent stops rather
        // than generate into nothing. recordRun errors before it lets the source go, so the reason
        // (for RUN_TOO_LARGE, naming the limit) reaches `ctx.signal` and a run function's `signal`.
        stop.abort(
          new DOMException(
            `run ${JSON.stringify(runId)} was stopped: the store refused it: ${error instanceof Error ? error.message : excerpt(error)}`,
            "AbortError",
          ),
        );
        context.onRunError(error, { threadId, runId });
        over();
      },
      complete: over,
    });
  return pace;
}

/**
 * A run's steers as `incoming` user messages, and the thread's cancellations of them as
 * `withdrawn` message ids (the store announces a cancelled entry by its id, the run id it would
 * have started as; the agent knows the message by its own).
 */
function steersOf(writer: RunWriter, store: ThreadStore | undefined, threadId: string, scope: StoreScope): Pick<RunAgentOptions, "incoming" | "withdrawn"> {
  const messageOf = new Map<string, string>();
  const incoming = writer.steers.pipe(
    map((entry) => {
      const message = queuedMessageOf(entry);
      messageOf.set(entry.id, message.id);
      return message;
    }),
  );
  if (store === undefined) return { incoming };
  const withdrawn = store.queueChanges(threadId, scope).pipe(
    filter((change) => change.kind === "cancelled" && messageOf.has(change.id)),
    map((change) => messageOf.get(change.id) ?? change.id),
  );
  return { incoming, withdrawn };
}
