/**
 * `POST {url}/connect`'s store work, traced (docs/observability.md#store-work): the read as a
 * short span, the live tail as another, and the request's span linked to the trace of the run it
 * joins or follows, which the run's RUN_STARTED logged (under our key), whichever instance ran it.
 */
import type { RunTrace } from "../../protocol/runTraceMeta";
import type { OtelContext, OtelSpan } from "../../telemetry/OtelApi";
import type { Telemetry } from "../../telemetry/Telemetry";
import type { ConnectStreamOptions } from "../store/connectStream";
import { openConnect, type ConnectStream } from "../store/openConnect";
import type { Cursor, ReadOptions, ThreadStore } from "../store/ThreadStore";
import { tracedTail } from "./tracedTail";

/** The short span of a connect's read: the events after the cursor, or the thread's prelude. */
export const STORE_READ_SPAN = "agui_rx.store.read";

/** The attributes of the read span, and of the link. */
const MODE = "agui_rx.connect.mode";
const FRAMES = "agui_rx.connect.frames";
const LINKED = "agui_rx.connect.linked_run";
const LINK_KIND = "agui_rx.link";

/**
 * `openConnect`, traced when `requestContext` holds a recording span (the connect request's): the
 * read in a span `agui_rx.store.read` (its mode and how many frames it read, its duration the
 * store's), the frames' live tail in `agui_rx.store.tail` (`tracedTail`), and a link from the
 * request's span to the run's span whose trace the read found: the snapshot's last run, or a
 * RUN_STARTED among the events after the cursor; a resume from inside a run (the usual reconnect:
 * its RUN_STARTED lies before the cursor) reads the thread's snapshot once more to find it, only
 * while tracing. The client's own request may carry another parent (its `traceparent`): the link
 * ties the two traces. Without a recording span: `openConnect` as it is, nothing more read.
 *
 * @example
 * const stream = await tracedConnect(context.telemetry, RequestTrace.of(request)?.context, store, threadId, lastEventId, options);
 */
export async function tracedConnect(
  telemetry: Telemetry,
  requestContext: OtelContext | undefined,
  store: ThreadStore,
  threadId: string,
  lastEventId: Cursor | undefined,
  options: ConnectStreamOptions & ReadOptions,
): Promise<ConnectStream | undefined> {
  const requestSpan = requestContext === undefined ? undefined : telemetry.spanOf(requestContext);
  if (requestContext === undefined || requestSpan === undefined || !requestSpan.isRecording()) return openConnect(store, threadId, lastEventId, options);
  const readSpan = quietly(() => telemetry.tracer()?.startSpan(STORE_READ_SPAN, { kind: 0 }, requestContext));
  let stream: ConnectStream | undefined;
  try {
    stream = await openConnect(store, threadId, lastEventId, options);
  } catch (error) {
    quietly(() => {
      readSpan?.setStatus({ code: 2 });
      readSpan?.end();
    });
    throw error;
  }
  const run = stream === undefined ? undefined : (stream.trace ?? (stream.mode === "resume" ? await followedRun(store, threadId, options) : undefined));
  quietly(() => {
    if (stream !== undefined) readSpan?.setAttributes({ [MODE]: stream.mode, [FRAMES]: stream.planned ?? 0, [LINKED]: run !== undefined });
    readSpan?.end();
    if (run !== undefined) linkRun(requestSpan, run);
  });
  return stream === undefined ? undefined : { ...stream, frames: tracedTail(stream.frames, telemetry, requestContext, stream.planned) };
}

/**
 * The trace of the run a resume follows: the thread's last run, as its snapshot keeps it (the
 * smallest read: one message). `undefined` when the store cannot say (a failed read does not
 * fail the connect: the link is only lost).
 */
async function followedRun(store: ThreadStore, threadId: string, options: ReadOptions): Promise<RunTrace | undefined> {
  try {
    const read = await store.read(threadId, undefined, { owner: options.owner, limit: 1 });
    return read?.kind === "snapshot" ? read.snapshot.run.trace : undefined;
  } catch {
    return undefined;
  }
}

/** Links `span` to the run's span (`Span.addLink`, API 1.9; an SDK without it gets no link). */
function linkRun(span: OtelSpan, run: RunTrace): void {
  span.addLink?.({ context: { traceId: run.traceId, spanId: run.spanId, traceFlags: 1, isRemote: true }, attributes: { [LINK_KIND]: "run" } });
}

/** Calls the tracer, swallowing what a broken one throws (a connect is never failed by its tracing). */
function quietly<R>(call: () => R): R | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}
