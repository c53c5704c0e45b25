/**
 * A response body whose source a Node writer may pull itself, past the web stream's machinery
 * (docs/http.md#writing-to-node). Each `reader.read()` of a web `ReadableStream` makes about five
 * promises (the read request, the pull's, its reactions, the writer's await); an SSE answer of a
 * paced run is read a few events at a time, so that is one or two promises per event, on the path
 * every event takes. Each one costs again when the process runs promise hooks (an OpenTelemetry
 * context manager's `AsyncLocalStorage`). `toNodeHandler` pulls a `toEventStream` body's source
 * with one promise per read instead.
 */

/** Where one pull puts what it hands over: zero or more chunks, then possibly the end. A web stream's controller is one. */
export interface ChunkSink {
  enqueue(chunk: Uint8Array): void;
  close(): void;
}

/**
 * A body's source, pulled directly: each `pull` resolves once it put at least one chunk or the end
 * into `sink` (as the web stream's `pull` would). Failures still reach the body itself (its
 * reader's `closed` rejects), and cancelling the body's reader cancels the source.
 */
export interface DirectSource {
  pull(sink: ChunkSink): Promise<void>;
}

/** The sources of the bodies that may be pulled directly, by body (a `Response` made around a body keeps the same stream object). */
const sourceByBody = new WeakMap<ReadableStream<Uint8Array>, DirectSource>();

/**
 * Marks `body` as one whose source a writer may pull directly, once it holds the body's reader
 * (locked, so nothing else reads it) and reads nothing through it.
 *
 * @example
 * readsDirectly(body, pump);
 */
export function readsDirectly(body: ReadableStream<Uint8Array>, source: DirectSource): void {
  sourceByBody.set(body, source);
}

/**
 * The source a writer may pull instead of reading `body`, or `undefined` for a body that is read
 * as a web stream (any other body, or one already locked). Only for a body nothing has read from yet:
 * chunks a read left in the web stream's queue would be passed over.
 *
 * @example
 * const source = directSourceOf(response.body);
 * const reader = response.body.getReader(); // held, never read: it locks the body and cancels the source
 */
export function directSourceOf(body: ReadableStream<Uint8Array>): DirectSource | undefined {
  return body.locked ? undefined : sourceByBody.get(body);
}
