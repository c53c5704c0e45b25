/** `POST {url}` (docs/server.md#run-and-context, docs/durability.md#stores-and-routes): one run, streamed as SSE; with a store, recorded and outliving its response. */
import { concat, of } from "rxjs";
import { RESUMABLE_HEADER } from "../../protocol/connectMode";
import { excerpt } from "../../protocol/describeFailure";
import { RunAgentInput } from "../../protocol/input";
import { debugEvents } from "../../operators/logEvents";
import { normalizeChunks } from "../../operators/normalizeChunks";
import { verifyEvents } from "../../operators/verifyEvents";
import { recordRun } from "../store/recordRun";
import type { RunWriter, ThreadStore } from "../store/ThreadStore";
import { refuseMethodOrMedia } from "./refuseMethodOrMedia";
import { cutOnStoreFailure } from "./cutOnStoreFailure";
import { endOnStop } from "./endOnStop";
import { errorResponse } from "./errorResponse";
import { admit, type Caller } from "./admit";
import type { HandlerContext } from "./HandlerContext";
import type { RunFunction, Routed } from "./HandlerOptions";
import { readJsonRequest } from "./readJsonRequest";
import { RecordingBacklog } from "./RecordingBacklog";
import { RunPace } from "./RunPace";
import { sharedTurns } from "./fairTurns";
import { eventStreamResponse, storeFailure } from "./streamResponse";
import { tailStreamOptions } from "./tailLimits";
import { toEventStream } from "./toEventStream";

/**
 * Serves one run. Refusals come first, in request order: 405, 406, the body's (415, 413, 408,
 * 400), `identify` (401), `authorize` (`run`: 403), `route` (its own answer, or 500 when it throws), and with a
 * store `beginRun` (409 `run-active`, 503 `capacity`/`unavailable`). Then the stream:
 *
 * - without a store, the run is the response: the client going away (or reading too slowly for
 *   the send-buffer cap) stops it, as it always did;
 * - with a store, see `serveStoredRun`.
 *
 * @example
 * if (route.name === "run") return serveRun(request, context);
 */
export async function serveRun(request: Request, context: HandlerContext): Promise<Response> {
  const { headers } = context;
  const shape = refuseMethodOrMedia(request, headers, { body: "a RunAgentInput body", answersEventStream: true });
  if (shape) return shape;
  const input = await readJsonRequest(request, RunAgentInput, "RunAgentInput", context.limits, headers);
  if (input instanceof Response) return input;
  const caller = await admit(context, request, { action: "run", threadId: input.threadId, runId: input.runId });
  if (caller instanceof Response) return caller;

  let chosen: Routed;
  try {
    chosen = context.route ? await context.route(request, input) : undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : excerpt(error);
    return errorResponse(500, { error: "internal", message: `route failed before the run started: ${message}` }, headers);
  }
  if (chosen instanceof Response) return chosen;
  if (context.store !== undefined) return serveStoredRun(request, input, chosen, context, context.store, caller);

  const runSource = chosen ?? context.runDefault;
  const body = toEventStream(
    (ready, signal) => runSource(input, { request, ready, signal, setThreadTitle: noThreadTitle }).pipe(debugEvents(context.debug, "server")),
    {
      ...context.stream,
      signal: request.signal,
    },
  );
  return eventStreamResponse(body, headers);
}

/**
 * A run kept in `store` (docs/durability.md#stores-and-routes): `beginRun` as the caller (docs/threads.md#owners), then the run is subscribed on its own, apart
 * from the response, through `recordRun` (so every event is logged, and the run goes on when its
 * client goes away: a disconnect only detaches); the response is the run as logged, its
 * RUN_STARTED then `store.tail` from there, every frame with `id: <cursor>`, under the header
 * `AGUI-Resumable: true` (a client cut even before the first frame may reconnect). A stop
 * (`RunWriter.stopRequested`, from `/stop` on any instance) reaches the run as the driver's `stop`
 * (an `Agent`: it closes what is open and ends RUN_FINISHED cancelled), or for a run function as
 * its `signal` plus `endOnStop`. A run function's events are normalized and strictly verified
 * before they are logged. The producer's `ready` follows the response while one reads it
 * (`RunPace`), and waits while the store is far behind (`RecordingBacklog`: Redis restarting). A
 * recording that fails after the response started aborts the agent as a stop does (`ctx.signal` /
 * `signal`, with a reason that says why) and is reported to `onRunError`; its clients see the
 * log's end (a RUN_ERROR `ABANDONED` or `RUN_TOO_LARGE`) or a body cut short (a store down).
 */
async function serveStoredRun(
  request: Request,
  input: RunAgentInput,
  chosen: RunFunction | undefined,
  context: HandlerContext,
  store: ThreadStore,
  caller: Caller,
): Promise<Response> {
  const { threadId, runId } = input;
  let writer: RunWriter;
  try {
    writer = await store.beginRun(input, caller.scope);
  } catch (error) {
    return storeFailure(error, context.headers);
  }
  const stop = new AbortController();
  const stopWatch = writer.stopRequested.subscribe(() =>
    stop.abort(new DOMException(`run ${JSON.stringify(runId)} was stopped (POST {url}/stop)`, "AbortError")),
  );
  const pace = new RunPace(context.stream.turns ?? sharedTurns);
  const backlog = new RecordingBacklog(input); // the producer waits while the store is far behind (RECORDING_BACKLOG)
  const ready = backlog.pace(pace.ready);
  const setThreadTitle = (title: string): Promise<void> => writer.setTitle(title); // docs/threads.md#the-thread-list
  const events =
    chosen === undefined && context.driver !== undefined
      ? context.driver(input, { ready, stop: stop.signal, setThreadTitle })
      : (chosen ?? context.runDefault)(input, { request, ready, signal: stop.signal, setThreadTitle }).pipe(
          normalizeChunks(),
          verifyEvents(),
          endOnStop(stop.signal, threadId, runId),
        );
  const over = (): void => {
    stopWatch.unsubscribe();
    pace.end();
  };
  events.pipe(debugEvents(context.debug, "server"), backlog.taken(), recordRun(writer), backlog.logged()).subscribe({
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
      over();
      context.onRunError(error, { threadId, runId });
    },
    complete: over,
  });
  const body = toEventStream(
    (ready, gone) => {
      pace.attach(ready, gone);
      return concat(of(writer.started), store.tail(threadId, writer.started.cursor, caller.scope)).pipe(cutOnStoreFailure());
    },
    { ...context.stream, ...tailStreamOptions(context.tails), gatherWrites: false, signal: request.signal, slowConsumer: "end" },
  );
  return eventStreamResponse(body, context.headers, { [RESUMABLE_HEADER]: "true" });
}

/** A run without a store has no thread list: its title goes nowhere (docs/threads.md#the-thread-list). */
function noThreadTitle(): Promise<void> {
  return Promise.resolve();
}
