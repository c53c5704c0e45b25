/** The shape a batch must have to be logged for a run (docs/durability.md): checked whole, before anything is written. */
import type { Event, EventType } from "../../protocol/events";
import { THINKING_EVENT_TYPES } from "../../protocol/events";
import { isTerminal } from "../../thread/isTerminal";
import { StoreError } from "./StoreError";

/** Types a log never holds: `normalizeChunks()` expands chunks and maps THINKING_* before anything is logged. */
const UNNORMALIZED: ReadonlySet<EventType> = new Set<EventType>(["TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK", "REASONING_MESSAGE_CHUNK", ...THINKING_EVENT_TYPES]);

/**
 * The refusal for a batch of run `runId` on `threadId`, or `undefined` when it may be logged:
 * no RUN_STARTED (`beginRun` logged it), no chunk or THINKING_* event, nothing after a terminal
 * event, and a RUN_FINISHED that names this thread and run. A store runs this over the whole
 * batch before it writes anything, so a refused batch leaves the log as it was.
 *
 * @example
 * checkBatch("t1", "r1", [ev.textMessageChunk({ messageId: "m1", delta: "x" })]);
 * // StoreError invalid-append: expected normalized events …, but got TEXT_MESSAGE_CHUNK at index 0
 */
export function checkBatch(threadId: string, runId: string, events: readonly Event[]): StoreError | undefined {
  const refuse = (message: string): StoreError => new StoreError("invalid-append", message, { threadId, runId });
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    if (i > 0 && isTerminal(events[i - 1])) {
      return refuse(`expected nothing after the run's ${events[i - 1].type} (index ${i - 1}), but got ${event.type} at index ${i}`);
    }
    if (event.type === "RUN_STARTED") {
      return refuse(`expected the run's events after its RUN_STARTED (beginRun logged it), but got a RUN_STARTED at index ${i}`);
    }
    if (UNNORMALIZED.has(event.type)) {
      return refuse(`expected normalized events (normalizeChunks() expands *_CHUNK and maps THINKING_*), but got ${event.type} at index ${i}`);
    }
    if (event.type === "RUN_FINISHED" && (event.threadId !== threadId || event.runId !== runId)) {
      return refuse(
        `expected RUN_FINISHED of run "${runId}" on thread "${threadId}", but got one of run "${event.runId}" on thread "${event.threadId}" at index ${i}`,
      );
    }
  }
  return undefined;
}
