/** A post on a handler with a store (docs/queue.md#policies): it runs now, or — sent with a policy while the thread is busy — it waits in the thread's queue. */
import type { RunAgentInput } from "../../protocol/input";
import type { Message, UserMessage } from "../../protocol/messages";
import { CAPABILITIES_KEY } from "../../protocol/historyCapability";
import { forkRequestOf } from "../../protocol/branchMeta";
import { withoutWhileRunning, type WhileRunning } from "../../protocol/queueMeta";
import { steerText } from "../../protocol/steerText";
import type { QueuedRun } from "../store/QueuedRun";
import { awaitsAnswers } from "../store/queueStatus";
import type { SnapshotRead, ThreadRead, ThreadStore } from "../store/ThreadStore";
import type { ThreadSnapshot } from "../../thread/ThreadSnapshot";
import type { Caller } from "./admit";
import { drainQueue } from "./drainQueue";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import type { RunFunction } from "./HandlerOptions";
import { queuedResponse } from "./queuedStream";
import { serveStoredRun } from "./serveStoredRun";
import { storeFailure } from "./streamResponse";

/**
 * Serves a post on a store-backed handler whose caller is admitted and routed. With `history:
 * "client"` it runs as it always did. Otherwise the thread is read once: a thread with no live run,
 * nothing it waits on and an empty queue runs the post now, whatever its `policy`. Else:
 *
 * - `refuse`: with a non-empty queue 409 `queue-pending`, unless the post answers what the thread
 *   waits on (a `resume`, or results of its pending client tool calls): that one runs ahead of the
 *   queue (`passQueue`); otherwise it is begun as today (409 `run-active` while a run is live);
 * - `queue`, `steer`, `interrupt`: the post must be exactly one new user message (400
 *   `invalid-input` otherwise), without `resume` or a fork; a steer's content text only (422
 *   `steer-not-text`). It is stored (`enqueue`, at the front for `steer` and `interrupt`) as a
 *   `QueuedRun` owned by the caller (429 `queue-full`, 409 `history-conflict` for a duplicate id,
 *   a thread the store no longer knows runs now); an interrupt then stops the live run. The queue
 *   is offered the turn (`drainQueue`), and the answer is the message's own stream
 *   (`queuedResponse`).
 *
 * @example
 * return serveStoredPost(request, input, chosen, context, store, caller, whileRunning);
 */
export async function serveStoredPost(
  request: Request,
  posted: RunAgentInput,
  chosen: RunFunction | undefined,
  context: HandlerContext,
  store: ThreadStore,
  caller: Caller,
  policy: WhileRunning,
): Promise<Response> {
  if (context.history === "client") return serveStoredRun(request, posted, chosen, context, store, caller);
  const { headers } = context;
  let read: ThreadRead | undefined;
  try {
    read = await store.read(posted.threadId, undefined, caller.scope);
  } catch (error) {
    return storeFailure(error, headers);
  }
  const runNow = (passQueue = false): Promise<Response> => serveStoredRun(request, posted, chosen, context, store, caller, { read: { read }, passQueue });
  if (read === undefined || read.kind !== "snapshot") return runNow(); // a new thread (beginReconciledRun answers an unexpected read)
  const { snapshot } = read;
  const queue = read.queue ?? [];
  const live = snapshot.run.status === "running";
  if (!live && !awaitsAnswers(snapshot) && queue.length === 0) return runNow();

  if (policy === "refuse") {
    const answers = answersWait(snapshot, posted);
    if (queue.length > 0 && !answers) {
      const message = `expected no waiting messages on thread ${JSON.stringify(posted.threadId)}, but ${queue.length} wait to run first (docs/queue.md#policies): send with a policy, or once they ran`;
      return errorResponse(409, { error: "queue-pending", message }, headers);
    }
    return runNow(answers);
  }
  return enqueuePost(request, posted, context, store, caller, policy, read);
}

/** Stores a post sent with a policy, stops the live run for an interrupt, and answers the message's stream. */
async function enqueuePost(
  request: Request,
  posted: RunAgentInput,
  context: HandlerContext,
  store: ThreadStore,
  caller: Caller,
  policy: Exclude<WhileRunning, "refuse">,
  read: SnapshotRead,
): Promise<Response> {
  const { headers } = context;
  const { snapshot } = read;
  const message = oneNewUserMessage(snapshot, posted, headers);
  if (message instanceof Response) return message;
  if (policy === "steer" && steerText(message) === undefined) {
    return errorResponse(
      422,
      {
        error: "steer-not-text",
        message: `expected a steer's message ${JSON.stringify(message.id)} to be text (a string or text parts only), but it carries other content: send it with "queue"`,
      },
      headers,
    );
  }
  const { threadId, runId } = posted;
  const live = snapshot.run.status === "running" ? snapshot.run.runId : undefined;
  const entry: QueuedRun = {
    id: runId,
    policy,
    input: { ...posted, messages: [message], forwardedProps: withoutWhileRunning(posted.forwardedProps) },
    at: context.tails.clock.now(),
    url: request.url,
    ...(caller.principal === undefined ? {} : { owner: caller.principal }),
    ...(policy === "steer" && live !== undefined ? { target: live } : {}),
  };
  let answer: Awaited<ReturnType<ThreadStore["enqueue"]>>;
  try {
    answer = await store.enqueue(entry, { ...caller.scope, max: context.queue.maxMessages, front: policy !== "queue" });
  } catch (error) {
    return storeFailure(error, headers);
  }
  switch (answer) {
    case "queued":
    case "steering":
      break;
    case "full":
      return errorResponse(
        429,
        {
          error: "queue-full",
          message: `expected room in the queue of thread ${JSON.stringify(threadId)}, but it holds ${context.queue.maxMessages} waiting messages (maxQueuedMessages)`,
        },
        headers,
      );
    case "duplicate":
      return errorResponse(
        409,
        { error: "history-conflict", message: `expected a new run id, but thread ${JSON.stringify(threadId)} has ${JSON.stringify(runId)} already` },
        headers,
      );
    case "deleted":
      return errorResponse(409, { error: "thread-deleted", message: `expected thread ${JSON.stringify(threadId)} to exist, but it was just deleted` }, headers);
    case "unknown":
      return serveStoredRun(request, posted, undefined, context, store, caller);
    default: {
      const unexpected: never = answer;
      return errorResponse(500, { error: "internal", message: `the store answered ${String(unexpected)}` }, headers);
    }
  }
  if (policy === "interrupt" && live !== undefined) {
    // The live run ends cancelled; its end drains the queue, whose head this message now is. A run
    // that ended meanwhile needs no stop: the drain below starts the message.
    await store.stop(threadId, live, caller.scope).catch(() => undefined);
  }
  void drainQueue(store, threadId, caller.scope, context);
  return queuedResponse(request, context, store, { threadId, id: runId, scope: caller.scope, since: snapshot.cursor });
}

/**
 * Whether the post answers what the thread waits on: a `resume` while interrupts are pending, or a
 * result of one of its pending client tool calls.
 */
function answersWait(snapshot: ThreadSnapshot, posted: RunAgentInput): boolean {
  if (snapshot.run.status === "running") return false;
  if (snapshot.interrupts.length > 0 && (posted.resume?.length ?? 0) > 0) return true;
  const pending = new Set(snapshot.pendingToolCallIds ?? []);
  const stored = new Set(snapshot.messages.map((message) => message.id));
  return posted.messages.some((message) => message.role === "tool" && !stored.has(message.id) && pending.has(message.toolCallId));
}

/** The one new user message of a post sent with a policy (the messages the stored path lacks; stored ones, the anchor, may be repeated), or the 400 saying what is wrong. */
function oneNewUserMessage(snapshot: ThreadSnapshot, posted: RunAgentInput, headers: Readonly<Record<string, string>>): UserMessage | Response {
  const invalid = (path: string, message: string): Response => errorResponse(400, { error: "invalid-input", message, path }, headers);
  if ((posted.resume?.length ?? 0) > 0)
    return invalid("/resume", "expected no resume on a message sent while the agent works: answer interrupts with a plain post");
  if (forkRequested(posted.forwardedProps)) {
    return invalid(
      `/forwardedProps/${CAPABILITIES_KEY}/forkAfter`,
      "expected no fork on a message sent while the agent works: edits and regenerates wait for the live run",
    );
  }
  const stored = new Set(snapshot.messages.map((message) => message.id));
  const added: Message[] = posted.messages.filter((message) => message.role !== "activity" && !stored.has(message.id));
  const [only] = added;
  if (added.length !== 1 || only === undefined || only.role !== "user") {
    const what = added.length === 1 ? `one ${added[0].role} message` : `${added.length} new messages`;
    return invalid("/messages", `expected exactly one new user message on a message sent while the agent works, but the post adds ${what}`);
  }
  return only;
}

/** Whether the post asks for a fork under our key (`forwardedProps["agui-rx"].forkAfter`). */
function forkRequested(forwardedProps: unknown): boolean {
  return forkRequestOf(forwardedProps) !== undefined;
}
