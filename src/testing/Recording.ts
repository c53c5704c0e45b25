/**
 * A recorded run as plain data (docs/testing.md#record-and-replay): the SSE frames one endpoint
 * answered one run with, each with its `id:` and the time it arrived, so that a test can keep it
 * as a JSON file and replay it later without the endpoint (`replayRecording`).
 */
import * as t from "io-ts";
import { isLeft } from "../protocol/either";
import { NonNegativeInteger, struct } from "../protocol/codec";
import { describeFailure, excerpt } from "../protocol/describeFailure";
import { RunAgentInput } from "../protocol/input";
import type { NamedStructCodec } from "../protocol/namedCodec";

/** The `format` member of every recording: what a file holding one says it is. */
export const RECORDING_FORMAT = "agui-rx/recording";

const RecordedFrameCodec = struct("RecordedFrame", { data: t.string, atMs: NonNegativeInteger }, { id: t.string, event: t.string });
/**
 * One SSE frame of a recording: its `data:` lines joined with `\n` (for the runs of this library,
 * one event's JSON), its own `id:` and `event:` when it had them, and `atMs`, when it arrived,
 * counted in whole milliseconds from the moment the request was sent.
 *
 * @example
 * const frame: RecordedFrame = { id: "c1", data: '{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}', atMs: 3 };
 */
export interface RecordedFrame extends t.TypeOf<typeof RecordedFrameCodec> {}
export const RecordedFrame: NamedStructCodec<RecordedFrame> = RecordedFrameCodec;

const RecordingCodec = struct(
  "Recording",
  {
    format: t.literal(RECORDING_FORMAT),
    version: t.literal(1),
    url: t.string,
    input: RunAgentInput,
    status: t.number,
    frames: t.array(RecordedFrame),
  },
  {},
);
/**
 * One run as an endpoint answered it: where it was posted (`url`), the `input` posted, the answer's
 * HTTP `status` and its SSE `frames` in order. JSON-serialisable as it stands: `JSON.stringify` it
 * to keep it, `readRecording(JSON.parse(text))` to read it back.
 *
 * @example
 * const recording: Recording = { format: "agui-rx/recording", version: 1, url: "http://127.0.0.1:8000/", input, status: 200, frames: [] };
 */
export interface Recording extends t.TypeOf<typeof RecordingCodec> {}
export const Recording: NamedStructCodec<Recording> = RecordingCodec;

/**
 * Checks that `value` (typically `JSON.parse` of a file a test kept) is a recording and returns it.
 * Throws a `TypeError` that names the first member that is wrong, its JSON Pointer and what arrived.
 *
 * @example
 * const recording = readRecording(JSON.parse(readFileSync("test/fixtures/greeting.json", "utf8")));
 */
export function readRecording(value: unknown): Recording {
  const decoded = Recording.decode(value);
  if (!isLeft(decoded)) return decoded.right;
  const failure = describeFailure(decoded.left);
  throw new TypeError(`expected a recording (${RECORDING_FORMAT}, version 1): at "${failure.path}" ${failure.expected}, but got ${excerpt(failure.actual)}`);
}
