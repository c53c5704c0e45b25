/**
 * Recording a real endpoint (docs/testing.md#record-and-replay): one POST of a run's input, its SSE
 * answer kept frame by frame as plain data. Nothing is written anywhere: the caller keeps the
 * returned `Recording` (a JSON file, a snapshot) as it sees fit, so the kit needs no Node API.
 */
import { asyncScheduler, lastValueFrom, tap, type SchedulerLike } from "rxjs";
import type { RunAgentInput } from "../protocol/input";
import { excerpt } from "../protocol/describeFailure";
import { decodeSseFrames } from "../wire/decodeSseFrames";
import { responseBytes } from "../wire/responseBytes";
import { RECORDING_FORMAT, type RecordedFrame, type Recording } from "./Recording";

/**
 * What to record: the endpoint's `url`, the run's `input`, and how to reach it.
 *
 * @example
 * const options: RecordSseOptions = { url: "http://127.0.0.1:8000/", input: runAgentInput("t1", "r1") };
 */
export interface RecordSseOptions {
  /** The endpoint a run is POSTed to (an `HttpTransport`'s url). */
  readonly url: string;
  /** The run's input, posted as JSON as `HttpTransport` posts it. */
  readonly input: RunAgentInput;
  /** The fetch to send with (default `globalThis.fetch`): a recording proxy, an in-process handler's. */
  readonly fetch?: typeof fetch | undefined;
  /** Extra request headers (an `Authorization`, say); `Content-Type` and `Accept` are always set. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Aborts the request: the returned promise rejects (with the abort's reason before the answer, with a read failure naming it after). */
  readonly signal?: AbortSignal | undefined;
  /** Where each frame's `atMs` is read from (`scheduler.now()`; default `asyncScheduler`, the wall clock). */
  readonly scheduler?: SchedulerLike | undefined;
}

/**
 * POSTs `input` to `url` and resolves, once the answer's body has ended, with its frames as a
 * `Recording`: each frame's data, its own `id:` and `event:`, and its arrival time from the send.
 * Comments (heartbeats) and a last frame cut before its blank line are not frames and are left out.
 * Rejects with an `Error` that says what arrived when the answer is not a 2xx `text/event-stream`,
 * and with the read's failure when the body breaks off (what was read is then lost: record again).
 *
 * @example
 * const recording = await recordSse({ url: "http://127.0.0.1:8000/", input: runAgentInput("t1", "r1", { messages: [user] }) });
 * writeFileSync("greeting.json", JSON.stringify(recording, null, 2)); // the caller's own choice
 */
export async function recordSse(options: RecordSseOptions): Promise<Recording> {
  const clock = options.scheduler ?? asyncScheduler;
  const send = options.fetch ?? globalThis.fetch;
  const started = clock.now();
  const response = await send(options.url, {
    method: "POST",
    headers: { ...options.headers, "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(options.input),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const where = `POST ${options.url}`;
  if (!response.ok) throw new Error(`expected a 2xx answer to ${where}, but got ${response.status}: ${excerpt(await response.text())}`);
  const type = response.headers.get("content-type") ?? "";
  if (!type.startsWith("text/event-stream")) {
    await response.body?.cancel();
    throw new Error(`expected a text/event-stream answer to ${where}, but got ${type === "" ? "no Content-Type" : type}`);
  }
  const frames: RecordedFrame[] = [];
  const reading = responseBytes(response, (cause) => new Error(`reading the answer to ${where} failed after ${frames.length} frame(s)`, { cause }));
  await lastValueFrom(
    reading.pipe(
      decodeSseFrames(),
      tap((frame) => frames.push({ data: frame.data, atMs: Math.max(0, Math.round(clock.now() - started)), ...withOwn(frame) })),
    ),
    { defaultValue: undefined },
  );
  return { format: RECORDING_FORMAT, version: 1, url: options.url, input: options.input, status: response.status, frames };
}

/** A frame's own `id` and `event`, only those it had (a recording holds no `undefined`: it is JSON). */
function withOwn(frame: { readonly id?: string; readonly event?: string }): { id?: string; event?: string } {
  return { ...(frame.id === undefined ? {} : { id: frame.id }), ...(frame.event === undefined ? {} : { event: frame.event }) };
}
