/** How the memory store measures a run (docs/durability.md §6): JSON text lengths, and the sentences that refuse a run too large. */
import type { Event } from "../../../protocol/events";
import type { Message } from "../../../protocol/messages";
import { StoreError } from "../StoreError";

/**
 * The RUN_ERROR code `memoryStore` ends a run with when it would pass `maxRunBytes` (or the store
 * has no room it may free for it); the producer's append is refused with `StoreError`
 * `run-too-large`, and the handler aborts the agent.
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === RUN_TOO_LARGE_ERROR_CODE) showTooLong(event.message);
 */
export const RUN_TOO_LARGE_ERROR_CODE = "RUN_TOO_LARGE";

/**
 * The JSON text of each event (`JSON.stringify`): its length is the unit of the store's byte
 * bounds, and the text is what a live tail's frame writes, so the event is serialized once. An
 * event that is not JSON refuses its batch (`invalid-append`, naming it) before anything is logged.
 *
 * @example
 * eventTexts("t1", [ev.custom("n", 1)]); // ['{"type":"CUSTOM","name":"n","value":1}']
 */
export function eventTexts(threadId: string, events: readonly Event[]): string[] {
  return events.map((event, index) => jsonText(event, () => `JSON events, but the ${event.type} at index ${index}`, threadId));
}

/**
 * The JSON text length of the messages of `messages` that `known` lacks, in the order a
 * RUN_STARTED's fold appends them (docs/rules.md#A15: a message id already there, or seen earlier in the
 * input, adds nothing): what the run's input adds to the thread's compacted state.
 *
 * @example
 * newMessageBytes(new Set(["u1"]), [u1, u2]); // the JSON length of u2
 */
export function newMessageBytes(known: Set<string>, messages: readonly Message[], threadId: string): number {
  let bytes = 0;
  for (const [index, message] of messages.entries()) {
    if (known.has(message.id)) continue;
    known.add(message.id);
    bytes += jsonText(message, () => `JSON messages, but the input's message at index ${index}`, threadId).length;
  }
  return bytes;
}

/** Where a run's byte limit comes from, for the sentence that names it. */
export type RunLimit =
  { readonly kind: "run"; readonly maxRunBytes: number } | { readonly kind: "thread"; readonly maxBytes: number; readonly snapshotBytes: number };

/**
 * A run refused for its size: `run-too-large`, naming the run, the limit and what it would have reached.
 *
 * @example
 * tooLarge({ threadId: "t1", runId: "r1" }, { kind: "run", maxRunBytes: 1024 }, 900, 300);
 */
export function tooLarge(run: { readonly threadId: string; readonly runId: string }, limit: RunLimit, held: number, incoming: number): StoreError {
  const within =
    limit.kind === "run"
      ? `maxRunBytes (${limit.maxRunBytes} bytes)`
      : `the ${Math.max(0, limit.maxBytes - limit.snapshotBytes)} bytes its thread's compacted history (${limit.snapshotBytes} bytes) leaves under maxBytes (${limit.maxBytes})`;
  const message =
    `expected run "${run.runId}" of thread "${run.threadId}" to stay within ${within}, counting its events' JSON text and as much again ` +
    `for what they add to the thread's compacted state, but ${held === 0 ? "it" : `it holds ${held} and its next batch`} would take ${incoming} bytes more`;
  return new StoreError("run-too-large", message, run);
}

/**
 * Why a run's bytes cannot be stored although within its limit: what is left is held by live runs
 * and their threads' compacted state, which are never evicted.
 *
 * @example
 * new StoreError("capacity", storeFull({ threadId: "t1", runId: "r1" }, { bytes: 1000, freeable: 0, maxBytes: 1024 }, 300), { threadId: "t1" });
 */
export function storeFull(
  run: { readonly threadId: string; readonly runId: string },
  room: { readonly bytes: number; readonly freeable: number; readonly maxBytes: number },
  incoming: number,
): string {
  return (
    `expected room for ${incoming} more bytes of run "${run.runId}" of thread "${run.threadId}", but the store holds ${room.bytes} of its maxBytes ` +
    `(${room.maxBytes}) and may free only ${room.freeable}: the rest is live runs and their threads' compacted state, which are never evicted`
  );
}

function jsonText(value: Event | Message, what: () => string, threadId: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new StoreError("invalid-append", `expected ${what()} does not serialize: ${why}`, { threadId, cause: error });
  }
  // An object always serializes; `undefined` (a value that is not one) would have no text at all.
  if (text === undefined) throw new StoreError("invalid-append", `expected ${what()} does not serialize: it has no JSON text`, { threadId });
  return text;
}
