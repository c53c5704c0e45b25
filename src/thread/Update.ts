/** What a run tells a view: the Update stream, the RunEnd and the subagent registry's entries (docs/seeds.md#seed-001, docs/rules.md#A23). */
import type { Interrupt } from "../protocol/outcomes";
import type { Message, ReasoningMessage, UserMessage } from "../protocol/messages";
import type { ClientError } from "./ClientError";
import type { QueueNotice } from "../protocol/queueMeta";

/** How a message changed (docs/rules.md#A23). One event, one change. */
export type MessageChange =
  | { readonly kind: "started" }
  | { readonly kind: "content"; readonly delta: string }
  | { readonly kind: "ended" }
  | { readonly kind: "toolCallStarted"; readonly toolCallId: string }
  | { readonly kind: "toolCallArgs"; readonly toolCallId: string; readonly delta: string }
  /** `args` is the call's arguments parsed as JSON; `{}` when they do not parse (docs/rules.md#A6). */
  | { readonly kind: "toolCallEnded"; readonly toolCallId: string; readonly args: unknown }
  | { readonly kind: "toolResult"; readonly toolCallId: string }
  | { readonly kind: "activity" }
  | { readonly kind: "encryptedValue"; readonly subtype: "tool-call" | "message"; readonly entityId: string };

/** A subagent invocation's lifecycle status in the registry. */
export type SubagentStatus =
  | { readonly kind: "running" }
  | { readonly kind: "finished"; readonly result?: unknown }
  | { readonly kind: "suspended"; readonly interruptIds?: readonly string[] }
  | { readonly kind: "failed"; readonly message: string; readonly code?: string };

/** One announced subagent invocation (SUBAGENT_STARTED), as the session's registry holds it. */
export interface Subagent {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly parentSubagentRunId?: string;
  readonly parentToolCallId?: string;
  readonly parentMessageId?: string;
  readonly status: SubagentStatus;
}

/** How a subagent's lifecycle moved (docs/rules.md#A18, docs/rules.md#I12, docs/rules.md#I13). */
export type SubagentChange = "started" | "resumed" | "finished" | "suspended" | "failed";

/**
 * How a run ended. Closed on purpose (docs/seeds.md#seed-001): a `switch` over it needs no `default`, and a new
 * way to end is a wire change. 1.0.0's cancelled outcome was one, and added the fourth kind (docs/rules.md#E2).
 *
 * - `success`: RUN_FINISHED with a success (or absent) outcome; `result` is RUN_FINISHED.result,
 *   `pendingToolCallIds` the outcome's list of tool calls left for the client (1.0.0, docs/wire.md#4.10),
 *   when it carried one;
 * - `interrupted`: RUN_FINISHED with an interrupt outcome; the interrupts wait on the session;
 * - `cancelled`: RUN_FINISHED with a cancelled outcome: the run was stopped, which is not a failure
 *   (no `error` precedes it; pending interrupts stay as they were);
 * - `failed`: RUN_ERROR, a truncated stream, bad bytes, a transport failure or a refused start.
 *
 * @example
 * // whether to re-enable the input box (docs/seeds.md#seed-001's prompt_again)
 * function promptAgain(end: RunEnd): boolean {
 *   switch (end.kind) {
 *     case "success": return true;
 *     case "interrupted": return false; // answer the interrupts instead
 *     case "cancelled": return true;
 *     case "failed": return true;
 *   }
 * }
 */
export type RunEnd =
  | { readonly kind: "success"; readonly result?: unknown; readonly pendingToolCallIds?: readonly string[] }
  | { readonly kind: "interrupted"; readonly interrupts: readonly Interrupt[] }
  | { readonly kind: "cancelled" }
  | {
      readonly kind: "failed";
      readonly message: string;
      readonly code?: string;
      /**
       * The user message this `send` added and took back out of the session because the answer
       * proved the server recorded nothing (a refusal before any event: 403, 409, 422, 429, or a
       * 503 from its store; docs/client.md § A refused send). A page gives its text back to the composer.
       */
      readonly unsent?: UserMessage;
    };

/** A message was created, extended or ended; `index` is its position in `session.messages`, `message` the whole message now. */
export interface MessageUpdate {
  readonly kind: "message";
  readonly index: number;
  readonly id: string;
  readonly change: MessageChange;
  readonly message: Message;
}

/** A MESSAGES_SNAPSHOT merged into the list (docs/rules.md#A10), or a refused send took its message back out (`RunEnd.unsent`): re-render everything. */
export interface MessagesUpdate {
  readonly kind: "messages";
  readonly messages: readonly Message[];
}

/** The state changed (snapshot or delta alike). `state` is typed by the session's StateSpec; `rawState` is the JSON value. */
export interface StateUpdate<S> {
  readonly kind: "state";
  readonly state: S;
  readonly rawState: unknown;
}

/** Reasoning text, kept apart from answers (docs/rules.md#A13); the reasoning message is in the list too. */
export interface ReasoningUpdate {
  readonly kind: "reasoning";
  readonly index: number;
  readonly id: string;
  /** `started`, `content` (with the delta) or `ended`. */
  readonly change: Extract<MessageChange, { kind: "started" | "content" | "ended" }>;
  /** The delta for `content`, `""` otherwise. */
  readonly text: string;
  readonly message: ReasoningMessage;
}

/** The agent waits on this interrupt; one update per interrupt, before `done`. */
export interface InterruptUpdate {
  readonly kind: "interrupt";
  readonly interrupt: Interrupt;
}

/** A subagent was announced, resumed, finished, suspended or failed; `subagent` is its registry entry now. */
export interface SubagentUpdate {
  readonly kind: "subagent";
  readonly change: SubagentChange;
  readonly subagent: Subagent;
}

/** A problem, at the position where it happened. Fatal ones are followed by `done` with `failed`. */
export interface ErrorUpdate {
  readonly kind: "error";
  readonly error: ClientError;
}

/**
 * The run's connection was lost and is being resumed (`reconnecting`: attempt `attempt` is about to
 * be made) or is back (`connected`: attempt `attempt` answered, the run's events go on). Nothing is
 * lost or applied twice in between (docs/durability.md#stores-and-routes): a view may show "reconnecting…" and nothing else.
 */
export interface ConnectionUpdate {
  readonly kind: "connection";
  readonly status: "reconnecting" | "connected";
  readonly attempt: number;
}

/**
 * The exchange goes on with a follow-up run (docs/tools.md § the loop). The run before it ended
 * `success` leaving calls to client tools; the session executed them, appended their tool
 * messages (each a `message` update with change `toolResult`, just before this one) and now
 * starts run `runId`, whose updates follow. Only between two runs of one `send`/`resume`
 * subscription: the first run has no `run` update, and no `done` separates the runs (the
 * subscription has one `done`, last).
 */
export interface RunUpdate {
  readonly kind: "run";
  /** The follow-up run's id (its `RunAgentInput.runId`). */
  readonly runId: string;
  /** Which follow-up run of the exchange this is: 1 for the first (bounded by `maxToolRoundtrips`). */
  readonly roundtrip: number;
  /** How the run before it ended (always `success`; its `done` is not emitted). */
  readonly previousEnd: Extract<RunEnd, { kind: "success" }>;
  /** The tool calls the session answered between the two runs, in the calls' order. */
  readonly toolCallIds: readonly string[];
}

/**
 * A message sent while the agent works (docs/queue.md#in-the-client) changed status: it waits
 * (`queued`, `waiting`, `steering`: it is listed in `session.queued`, not in `messages`), or its
 * wait ended: `started` (its run's updates follow in the same subscription, once the session's
 * run before it is done), `taken` (the live run's agent took the steer: the message arrives with
 * that run's events; `done` success follows), `cancelled` (`done` cancelled follows).
 */
export interface QueuedUpdate {
  readonly kind: "queued";
  readonly notice: QueueNotice;
}

/** The run is over: always the last update, exactly once per `send`/`resume` subscription (which may span several runs, see RunUpdate). */
export interface DoneUpdate {
  readonly kind: "done";
  readonly end: RunEnd;
}

/**
 * What a view reacts to, one per applied event (docs/rules.md#A23). Open for extension (seed: a view
 * model, not a wire type): give a `switch (update.kind)` a `default` branch.
 *
 * @example
 * session.send("hi").subscribe((update) => {
 *   switch (update.kind) {
 *     case "message": console.log(update.index, update.change.kind); break;
 *     case "done": console.log(update.end.kind); break;
 *     default: break;
 *   }
 * });
 */
export type Update<S = unknown> =
  | MessageUpdate
  | MessagesUpdate
  | StateUpdate<S>
  | ReasoningUpdate
  | InterruptUpdate
  | SubagentUpdate
  | ErrorUpdate
  | ConnectionUpdate
  | RunUpdate
  | QueuedUpdate
  | DoneUpdate;
