/**
 * A live run that appends back to back on one instance while another instance tails it, for the
 * tests that move something under it (a slot, key by key or with `redis-cli --cluster reshard`).
 */
import { lastValueFrom, tap, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../../src/protocol/build";
import type { Event } from "../../../../src/protocol/events";
import type { RunWriter, StoredEvent, ThreadStore } from "../../../../src/server/store/ThreadStore";

/** The run, what its tail has seen so far and will end with, and the deltas acknowledged so far. */
export interface AppendingRun {
  readonly writer: RunWriter;
  readonly seen: StoredEvent[];
  readonly tail: Promise<StoredEvent[]>;
  readonly appended: string[];
  /** Stops appending once at least three deltas went, and resolves when the last is acknowledged. */
  stop(): Promise<void>;
  /** What the tail must end with, once the run appended `after` and ended. */
  expected(after: readonly string[]): Event[];
}

/**
 * Begins run `r1` of `threadId` on `producer`, tails it on `tailer` from its start, starts a text
 * message, then appends one delta after another (each awaited) until `stop()`.
 *
 * @example
 * const run = await appendingRun(a, b, "moving");
 * await moveSomething();
 * await run.stop();
 */
export async function appendingRun(producer: ThreadStore, tailer: ThreadStore, threadId: string): Promise<AppendingRun> {
  const writer = await producer.beginRun(runAgentInput(threadId, "r1"));
  const seen: StoredEvent[] = [];
  const tail = lastValueFrom(
    tailer.tail(threadId, writer.started.cursor).pipe(
      tap((stored) => seen.push(stored)),
      toArray(),
    ),
  );
  await writer.append([ev.textMessageStart("m1")]);
  const appended: string[] = [];
  let moving = true;
  const appending = (async () => {
    for (let i = 0; moving || i < 3; i++) {
      await writer.append([ev.textMessageContent("m1", `${i},`)]);
      appended.push(`${i},`);
    }
  })();
  return {
    writer,
    seen,
    tail,
    appended,
    stop: () => {
      moving = false;
      return appending;
    },
    expected: (after) => [
      ev.textMessageStart("m1"),
      ...[...appended, ...after].map((delta) => ev.textMessageContent("m1", delta)),
      ev.textMessageEnd("m1"),
      ev.runFinished(threadId, "r1"),
    ],
  };
}
