/**
 * A transport that serves recordings (docs/testing.md#record-and-replay): the frames an endpoint
 * answered with, decoded by the same decoder `HttpTransport` uses, at once or at a pace on a
 * scheduler (virtual time in a test).
 */
import { asyncScheduler, concatMap, from, map, Observable, of, throwError, timer, type SchedulerLike } from "rxjs";
import type { Event } from "../protocol/events";
import type { RunAgentInput } from "../protocol/input";
import type { DecodeWarning } from "../wire/DecodeWarning";
import { decodeEvents } from "../client/transports/decodeEvents";
import type { Transport, TransportRunOptions } from "../client/transports/Transport";
import { readRecording, type RecordedFrame, type Recording } from "./Recording";

/**
 * How a replay paces its frames: `"instant"` (the default) emits a run's frames synchronously,
 * `"recorded"` each at its recorded `atMs`, a number that many milliseconds after the one before.
 *
 * @example
 * const pace: ReplayPace = "recorded";
 */
export type ReplayPace = "instant" | "recorded" | number;

/**
 * Options of `replayRecording`.
 *
 * @example
 * replayRecording(recording, { pace: 10, scheduler: testScheduler });
 */
export interface ReplayOptions {
  /** How frames are spaced in time (see `ReplayPace`). */
  readonly pace?: ReplayPace | undefined;
  /** Where the waits are timed (default `asyncScheduler`; a `TestScheduler` in a marble test). */
  readonly scheduler?: SchedulerLike | undefined;
}

/**
 * What `replayRecording` returns: a `Transport` whose `run` narrows as the library's transports do
 * (without options, events only; with `{ warnings: true }`, the decoder's `DecodeWarning`s in-band).
 *
 * @example
 * const events$: Observable<Event> = replayRecording(recording).run(recording.input);
 */
export interface RecordingReplay extends Transport {
  run(input: RunAgentInput): Observable<Event>;
  run(input: RunAgentInput, options: TransportRunOptions): Observable<Event | DecodeWarning>;
  /** How many runs were served so far (the next run gets recording number `runs`). */
  readonly runs: number;
}

/**
 * A transport that answers the n-th run with the n-th recording (one recording: the first run),
 * decoding its frames as `HttpTransport` decodes a body, so a Session sees what it saw live. Each
 * recording is checked (`readRecording`) when the transport is made, so a bad file fails there.
 * A run on another thread than its recording's, or a run past the last recording, fails with an
 * `Error` saying so (the Session reports it as `done` failed). Cold: nothing is counted or emitted
 * before subscription.
 *
 * @example
 * const session = new Session(replayRecording(recording), { threadId: recording.input.threadId });
 * const updates = await collectUpdates(session.send("Ada"));
 */
export function replayRecording(recordings: Recording | readonly Recording[], options: ReplayOptions = {}): RecordingReplay {
  const checked = (Array.isArray(recordings) ? recordings : [recordings]).map((recording: unknown) => readRecording(recording));
  const scheduler = options.scheduler ?? asyncScheduler;
  const pace = checkPace(options.pace ?? "instant");
  let runs = 0;
  function run(input: RunAgentInput): Observable<Event>;
  function run(input: RunAgentInput, runOptions: TransportRunOptions): Observable<Event | DecodeWarning>;
  function run(input: RunAgentInput, runOptions: TransportRunOptions = {}): Observable<Event | DecodeWarning> {
    return new Observable<Event | DecodeWarning>((subscriber) => {
      const index = runs++;
      const recording = checked[index];
      const refusal =
        recording === undefined
          ? `expected run ${index + 1} to have a recording, but the replay holds ${checked.length}`
          : recording.input.threadId !== input.threadId
            ? `expected run ${index + 1} on thread "${recording.input.threadId}" (its recording's), but it is on thread "${input.threadId}"`
            : undefined;
      const events$ =
        recording === undefined || refusal !== undefined
          ? throwError(() => new Error(`replayRecording: ${refusal ?? ""}`))
          : decodeEvents(paced(recording.frames, pace, scheduler), { warnings: runOptions.warnings === true });
      return events$.subscribe(subscriber);
    });
  }
  return {
    run,
    get runs() {
      return runs;
    },
  };
}

/** The frames as SSE text, spaced as `pace` says. */
function paced(frames: readonly RecordedFrame[], pace: ReplayPace, scheduler: SchedulerLike): Observable<string> {
  if (pace === "instant") return of(frames.map(encodeFrame).join(""));
  return from(frames).pipe(
    concatMap((frame, index) => {
      const gap = typeof pace === "number" ? pace : Math.max(0, frame.atMs - (index === 0 ? 0 : frames[index - 1].atMs));
      return timer(gap, scheduler).pipe(map(() => encodeFrame(frame)));
    }),
  );
}

/** One recorded frame back as SSE text: its `event:` and `id:` lines, its data a `data:` line per line. */
function encodeFrame(frame: RecordedFrame): string {
  const event = frame.event === undefined ? "" : `event: ${frame.event}\n`;
  const id = frame.id === undefined ? "" : `id: ${frame.id}\n`;
  return `${event}${id}${frame.data
    .split("\n")
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;
}

/** The pace, refused with a `TypeError` naming it when it is no pace. */
function checkPace(pace: ReplayPace): ReplayPace {
  if (pace === "instant" || pace === "recorded" || (typeof pace === "number" && Number.isFinite(pace) && pace >= 0)) return pace;
  throw new TypeError(`replayRecording: expected pace "instant", "recorded" or a number of milliseconds (0 or more), but got ${JSON.stringify(pace)}`);
}
