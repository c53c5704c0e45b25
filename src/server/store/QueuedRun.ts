/** A message waiting on a thread as a store keeps it (docs/queue.md#in-the-store): the whole run it starts, and whose it is. */
import * as t from "io-ts";
import { struct } from "../../protocol/codec";
import { RunAgentInput } from "../../protocol/input";
import type { UserMessage } from "../../protocol/messages";
import type { NamedStructCodec } from "../../protocol/namedCodec";
import { QueuedPolicy, type QueuedMessage, type QueuedStatus } from "../../protocol/queueMeta";

const QueuedRunCodec = struct(
  "QueuedRun",
  { id: t.string, policy: QueuedPolicy, input: RunAgentInput, at: t.number },
  { owner: t.string, target: t.string, url: t.string },
);
/**
 * A queued, steered or interrupting message as stored: `id` is the run id it starts as
 * (`input.runId`); `input` the full run input it starts with, so that no request is needed then
 * (the new user message only, the sender's tools, context and forwarded props, without our
 * `whileRunning` request); `owner` the principal `identify` returned when it was sent (the
 * decision made then stands); `target` the live run a steer was sent into; `at` when it was sent
 * (the store's clock); `url` the URL it was posted to (the handler's `route` is asked again with
 * it when the run starts, without the request's headers). Its user message is the last message of `input.messages`.
 *
 * @example
 * const entry: QueuedRun = { id: "r3", policy: "queue", input, at: Date.now(), owner: "user-42" };
 */
export interface QueuedRun extends t.TypeOf<typeof QueuedRunCodec> {}
export const QueuedRun: NamedStructCodec<QueuedRun> = QueuedRunCodec;

/**
 * The user message a queued run carries: the last message of its input (the handler stores no
 * entry without one).
 *
 * @example
 * queuedMessageOf(entry).content; // "And then?"
 */
export function queuedMessageOf(entry: QueuedRun): UserMessage {
  const last = entry.input.messages[entry.input.messages.length - 1];
  if (last === undefined || last.role !== "user") throw new TypeError(`queued run ${JSON.stringify(entry.id)} carries no user message`);
  return last;
}

/**
 * The entry as every tab sees it (`QueuedMessage`), with the status the thread gives it now.
 *
 * @example
 * const listed = listedQueued(entry, "queued");
 */
export function listedQueued(entry: QueuedRun, status: QueuedStatus): QueuedMessage {
  const base = { id: entry.id, policy: entry.policy, status, message: queuedMessageOf(entry), at: entry.at };
  return entry.target === undefined ? base : { ...base, target: entry.target };
}
