/**
 * The compacted thread (docs/durability.md#stores-and-routes): what a client would hold after every event
 * of the thread, plus what an in-flight run has open. A plain JSON value with a codec, so a store
 * that persists it (Redis, beside the stream) decodes what it reads back.
 */
import * as t from "io-ts";
import { Present, struct } from "../protocol/codec";
import type { NamedStructCodec } from "../protocol/namedCodec";
import { Event } from "../protocol/events";
import { Message } from "../protocol/messages";
import { Interrupt } from "../protocol/outcomes";
import { BranchTree } from "./branches/BranchTree";

/**
 * Where the thread's last run stands: `running` (no terminal logged yet), or how it ended —
 * `finished` (RUN_FINISHED success), `interrupted` (RUN_FINISHED with interrupts), `cancelled`
 * (RUN_FINISHED outcome cancelled: a stop), `failed` (RUN_ERROR, `ABANDONED` included).
 *
 * @example
 * RunSummaryStatus.is("interrupted"); // true
 */
export const RunSummaryStatus = /* @__PURE__ */ t.keyof(
  { running: null, finished: null, interrupted: null, cancelled: null, failed: null },
  "RunSummaryStatus",
);
export type RunSummaryStatus = t.TypeOf<typeof RunSummaryStatus>;

/** A run's trace as its RUN_STARTED logged it (`runTraceOf`, docs/observability.md#store-work): its span's trace and span ids. */
const RunTraceCodec = /* @__PURE__ */ t.type({ traceId: t.string, spanId: t.string }, "RunTrace");

const RunSummaryCodec = /* @__PURE__ */ struct(
  "RunSummary",
  { runId: t.string, status: RunSummaryStatus, reopen: t.readonlyArray(Event) },
  { parentRunId: t.string, errorMessage: t.string, errorCode: t.string, trace: RunTraceCodec },
);
/**
 * The thread's last run: its ids, its status, the RUN_ERROR's message and code when it failed, the
 * trace its RUN_STARTED named under our key when it was traced (so that a connect on any instance
 * links to it and the prelude's RUN_STARTED names it again, docs/observability.md#store-work), and
 * — while it runs — `reopen`: the events that re-open what it has open right now (the openers of
 * open text messages, tool calls, reasoning blocks and messages and steps, with their metadata
 * left out because the messages already carry it) and every subagent lifecycle event of the run,
 * in the order they happened. Sent after the snapshots, they make the rest of the run valid for a
 * client that never saw its beginning.
 *
 * @example
 * const summary: RunSummary = { runId: "r2", status: "running", reopen: [ev.textMessageStart("m3")] };
 */
export interface RunSummary extends t.TypeOf<typeof RunSummaryCodec> {}
export const RunSummary: NamedStructCodec<RunSummary> = RunSummaryCodec;

const ThreadSnapshotCodec = /* @__PURE__ */ struct(
  "ThreadSnapshot",
  {
    threadId: t.string,
    cursor: t.string,
    messages: t.readonlyArray(Message),
    state: Present,
    interrupts: t.readonlyArray(Interrupt),
    run: RunSummary,
  },
  { pendingToolCallIds: t.readonlyArray(t.string), branches: BranchTree, subagents: t.readonlyArray(Event) },
);
/**
 * A thread compacted: `messages`, `state` and pending `interrupts` exactly as the client's own
 * reducer (`applyEvent` over `ClientState`) builds them from every event logged through `cursor`
 * (each run's RUN_STARTED folded with its input, docs/rules.md#A15), and the last run's summary. Treat it as
 * read-only: stores may share its arrays with their own state. `pendingToolCallIds`, present only
 * when non-empty, are the client tool calls the last run (ended with success) left to the client;
 * the next run's start ends their wait (docs/threads.md#pending-client-tools). `branches`, present
 * once the thread has a fork or a state checkpoint, is the tree beside the selected path that
 * `messages` is (docs/threads.md#the-tree).
 *
 * `subagents`, present once a subagent ended outside the live run, is the lifecycle of those that
 * ended (finished or failed): each one's SUBAGENT_STARTED and its end, which a connect replays so a
 * joining client's registry names them (`endedSubagentEvents`); the live run's subagents come
 * through `run.reopen`.
 *
 * @example
 * const read = await store.read("thread-1");
 * if (read?.kind === "snapshot") console.log(read.snapshot.messages.length, read.snapshot.run.status);
 */
export interface ThreadSnapshot extends t.TypeOf<typeof ThreadSnapshotCodec> {}
export const ThreadSnapshot: NamedStructCodec<ThreadSnapshot> = ThreadSnapshotCodec;
