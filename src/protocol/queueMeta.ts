/**
 * The wire form of sending while the agent works (docs/queue.md): what a post asks for under this
 * library's own key in `forwardedProps["agui-rx"].whileRunning`, the queue a connect prelude's
 * MESSAGES_SNAPSHOT reports in `metadata["agui-rx"].queue`, and the notices of a queued message's
 * own stream (SSE frames named `agui-rx-queue`). A client that does not know the key never asks
 * for any of it, and a plain post keeps meaning "refuse while a run is live".
 */
import * as t from "io-ts";
import { struct } from "./codec";
import type { NamedStructCodec } from "./namedCodec";
import { ownKeyOf, ownListOf, withOwnEntries, withoutOwnEntry } from "./ownKey";
import { UserMessage } from "./messages";

const WhileRunningCodec = /* @__PURE__ */ t.keyof({ refuse: null, queue: null, steer: null, interrupt: null }, "WhileRunning");
/**
 * What a post asks for when the thread has a live run (docs/queue.md#policies): `refuse` (409
 * `run-active`, the default and a plain post's meaning), `queue` (stored; it starts the next run
 * when the live one ends), `steer` (handed to the live run's agent through `ctx.incoming$`; one
 * the agent has not taken when its run ends becomes a queued run), `interrupt` (the live run is
 * stopped, then this message runs, ahead of anything queued).
 *
 * @example
 * const policy: WhileRunning = "queue";
 */
export type WhileRunning = t.TypeOf<typeof WhileRunningCodec>;
export const WhileRunning: t.Type<WhileRunning> = WhileRunningCodec;

const QueuedPolicyCodec = /* @__PURE__ */ t.keyof({ queue: null, steer: null, interrupt: null }, "QueuedPolicy");
/**
 * The policy a waiting message was sent with (every `WhileRunning` but `refuse`).
 *
 * @example
 * const policy: QueuedPolicy = "steer";
 */
export type QueuedPolicy = t.TypeOf<typeof QueuedPolicyCodec>;
export const QueuedPolicy: t.Type<QueuedPolicy> = QueuedPolicyCodec;

const QueuedStatusCodec = /* @__PURE__ */ t.keyof({ queued: null, waiting: null, steering: null }, "QueuedStatus");
/**
 * Where a waiting message stands: `queued` (it starts the next run once the live one ends),
 * `waiting` (no run is live, but the thread waits on interrupts or client tool results: it starts
 * once they are answered), `steering` (offered to the live run `target`; recorded there when its
 * agent takes it).
 *
 * @example
 * const status: QueuedStatus = "waiting";
 */
export type QueuedStatus = t.TypeOf<typeof QueuedStatusCodec>;
export const QueuedStatus: t.Type<QueuedStatus> = QueuedStatusCodec;

const QueuedMessageCodec = /* @__PURE__ */ struct(
  "QueuedMessage",
  { id: t.string, policy: QueuedPolicy, status: QueuedStatus, message: UserMessage, at: t.number },
  { target: t.string },
);
/**
 * A message waiting on a thread, as every tab sees it (docs/queue.md#on-the-wire): `id` is the run
 * id it starts as (the posted input's `runId`), `message` the user message it carries, `at` when it
 * was sent (ms since the epoch, the server's clock), `target` the live run a steer was sent into.
 * Listed in the order the messages will run.
 *
 * @example
 * const queued: QueuedMessage = { id: "r3", policy: "queue", status: "queued", message: { id: "u3", role: "user", content: "And then?" }, at: 1764680000000 };
 */
export interface QueuedMessage extends t.TypeOf<typeof QueuedMessageCodec> {}
export const QueuedMessage: NamedStructCodec<QueuedMessage> = QueuedMessageCodec;

const QueueNoticeStatusCodec = /* @__PURE__ */ t.keyof(
  { queued: null, waiting: null, steering: null, taken: null, started: null, cancelled: null },
  "QueueNoticeStatus",
);
/**
 * What a queued message's stream tells its sender: the `QueuedStatus` it now has, or how its wait
 * ended: `taken` (a steer the live run's agent took: its events are in that run's log, and the
 * stream ends), `started` (its own run started: the run's frames follow on the same stream),
 * `cancelled` (a user cancelled it, or it was refused when its turn came: `reason` says which;
 * the stream ends).
 *
 * @example
 * const status: QueueNoticeStatus = "started";
 */
export type QueueNoticeStatus = t.TypeOf<typeof QueueNoticeStatusCodec>;
export const QueueNoticeStatus: t.Type<QueueNoticeStatus> = QueueNoticeStatusCodec;

const QueueNoticeCodec = /* @__PURE__ */ struct(
  "QueueNotice",
  { id: t.string, status: QueueNoticeStatus },
  { queued: QueuedMessage, runId: t.string, reason: t.string },
);
/**
 * One `agui-rx-queue` frame of a queued message's stream (docs/queue.md#on-the-wire): the message
 * `id` and its `status`, with the entry as listed (`queued`) while it waits, the run that took a
 * steer (`runId`, with `taken`), and why it was cancelled (`reason`).
 *
 * @example
 * const notice: QueueNotice = { id: "r3", status: "taken", runId: "r2" };
 */
export interface QueueNotice extends t.TypeOf<typeof QueueNoticeCodec> {}
export const QueueNotice: NamedStructCodec<QueueNotice> = QueueNoticeCodec;

/**
 * The SSE event name of a queue notice frame (`event: agui-rx-queue`), beside the run's own
 * unnamed frames on a queued message's stream.
 */
export const QUEUE_NOTICE_EVENT = "agui-rx-queue";

/**
 * The response header that marks a post's answer as a queued message's stream (its value: the
 * message's id) rather than a run's stream.
 */
export const QUEUED_HEADER = "AGUI-Queued";

/**
 * The policy a run input asks for (`forwardedProps["agui-rx"].whileRunning`): `refuse` when it
 * asks for none; `"malformed"` for a value that is not a `WhileRunning`, which a server refuses.
 *
 * @example
 * whileRunningOf({ "agui-rx": { whileRunning: "queue" } }); // "queue"
 */
export function whileRunningOf(forwardedProps: unknown): WhileRunning | "malformed" {
  const own = ownKeyOf(forwardedProps);
  if (own === undefined || !("whileRunning" in own)) return "refuse";
  return WhileRunning.is(own.whileRunning) ? own.whileRunning : "malformed";
}

/**
 * `forwardedProps` for a run sent with `policy`, kept beside any others the caller passes (and any
 * other request under our key, such as a fork's `forkAfter`). `refuse` adds nothing.
 *
 * @example
 * whileRunningForwardedProps("steer", { model: "x" }); // { model: "x", "agui-rx": { whileRunning: "steer" } }
 */
export function whileRunningForwardedProps(policy: WhileRunning, forwardedProps?: unknown): unknown {
  return policy === "refuse" ? forwardedProps : withOwnEntries(forwardedProps, { whileRunning: policy });
}

/**
 * The forwarded props a waiting message keeps: the sender's, without our `whileRunning` request.
 *
 * @example
 * withoutWhileRunning({ model: "x", "agui-rx": { whileRunning: "queue" } }); // { model: "x" }
 */
export function withoutWhileRunning(forwardedProps: unknown): unknown {
  return withoutOwnEntry(forwardedProps, "whileRunning");
}

/**
 * The queue a MESSAGES_SNAPSHOT's `metadata` reports (`metadata["agui-rx"].queue`), or `undefined`
 * when it reports none; malformed entries are left out.
 *
 * @example
 * queueOf(event.metadata)?.length;
 */
export function queueOf(metadata: Readonly<Record<string, unknown>> | undefined): readonly QueuedMessage[] | undefined {
  return ownListOf(metadata, "queue", (entry): entry is QueuedMessage => QueuedMessage.is(entry));
}

/**
 * `metadata` entries for a connect prelude's MESSAGES_SNAPSHOT on a thread with waiting messages,
 * merged into what the metadata already holds under our key (a path's branch groups).
 *
 * @example
 * ev.messagesSnapshot(messages, { metadata: queueMetadata(queue, branchesMetadata(groups)) });
 */
export function queueMetadata(queue: readonly QueuedMessage[], metadata: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return withOwnEntries(metadata, { queue });
}
