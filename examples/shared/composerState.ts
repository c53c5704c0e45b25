/** What the bottom of the chat (the composer and the status line under it) allows and says. */
import type { ClientError } from "../../src/thread/ClientError";
import type { RunEnd } from "../../src/thread/Update";
import type { RunStatus } from "../../src/client/view/RunController";

/** What the composer needs to know. */
export interface ComposerInput {
  readonly status: RunStatus;
  /** Interrupts waiting on an answer (`session.interrupts.length`). */
  readonly pendingApprovals: number;
  /** What the user has typed so far. */
  readonly draft: string;
  /** Stop was pressed and the server is ending the run (`useRun(session).stopping`). */
  readonly stopping?: boolean;
  /** Client tool calls waiting for the user's answer on a card (`confirm_delete`); the run is active meanwhile. */
  readonly pendingAnswers?: number;
  /**
   * The page sends with a policy (docs/queue.md#policies): while a run is live, Send queues and
   * Steer and Interrupt & send are offered. Without it (a page whose server keeps no queue), Send
   * waits for the run to end.
   */
  readonly queueing?: boolean;
}

/** What the composer allows. */
export interface ComposerState {
  /** Send is enabled (and Enter sends). */
  readonly canSend: boolean;
  /** Stop is enabled. */
  readonly canStop: boolean;
  /** Steer and Interrupt & send are shown (a run is live on a page that queues). */
  readonly offersPolicies: boolean;
  /** Steer and Interrupt & send are enabled (shown, and the draft is not blank). */
  readonly canSteer: boolean;
  /** The input's placeholder, saying why Send is off when it is. */
  readonly placeholder: string;
}

/** The hint shown in an empty composer when nothing stands in the way. */
export const DEFAULT_PLACEHOLDER = 'Message the agent, e.g. "add buy milk; add call mom"';

/** How the keyboard works in the composer, said under it. */
export const KEYBOARD_HINT = "Enter to send · Shift+Enter for a new line";

/** How the keyboard works while a run is live on a page that queues (Send then queues the message). */
export const QUEUEING_KEYBOARD_HINT = "Enter queues it for after this answer · Shift+Enter for a new line";

/**
 * The hint under the composer: a page that queues says that Enter queues while a run is live.
 *
 * @example
 * keyboardHint(composerState({ status: "running", pendingApprovals: 0, draft: "", queueing: true })); // QUEUEING_KEYBOARD_HINT
 */
export function keyboardHint(state: ComposerState): string {
  return state.offersPolicies ? QUEUEING_KEYBOARD_HINT : KEYBOARD_HINT;
}

/**
 * Send needs a non-blank draft and no approval waiting: while the agent waits on an interrupt, a
 * new message would be refused by the session (every pending interrupt must be answered first),
 * so the composer keeps what was typed and the approval card stays in view. While a run is live,
 * a page that queues (`queueing`) still sends (the message waits its turn) and offers Steer and
 * Interrupt & send (docs/queue.md#policies), except while a card waits for the user's answer;
 * any other page waits for the run to end. Stop is
 * there only while a run is active, and until it was pressed.
 *
 * @example
 * const { canSend } = composerState({ status: "interrupted", pendingApprovals: 1, draft: "add x" }); // false
 * composerState({ status: "running", pendingApprovals: 0, draft: "add x", queueing: true }); // canSend, canSteer: true
 */
export function composerState(input: ComposerInput): ComposerState {
  const waiting = input.pendingApprovals > 0;
  const running = input.status === "running";
  const queueing = input.queueing === true;
  const typed = input.draft.trim() !== "";
  const offersPolicies = queueing && running;
  // A card waiting for the user's answer (a client tool call) comes first, as an approval does: the run goes on only once it is answered.
  const answering = running && (input.pendingAnswers ?? 0) > 0;
  return {
    canSend: (queueing || !running) && !waiting && !answering && typed,
    canStop: running && input.stopping !== true,
    offersPolicies,
    canSteer: offersPolicies && !waiting && !answering && typed,
    placeholder: waiting
      ? "Answer the approval above to go on"
      : running && (input.pendingAnswers ?? 0) > 0
        ? "Answer the card above to go on"
        : offersPolicies
          ? "The agent is working: type to queue, steer or interrupt"
          : running
            ? "The agent is working…"
            : DEFAULT_PLACEHOLDER,
  };
}

/** The status line under the composer. */
export interface StatusLine {
  readonly label: string;
  /** For colour: `busy` (running), `attention` (waiting on the user), `error`, `quiet`. */
  readonly tone: "quiet" | "busy" | "attention" | "error";
  /** The error's message, when the last run reported one. */
  readonly detail: string | undefined;
}

/** What the status line needs to know. */
export interface StatusInput {
  readonly status: RunStatus;
  readonly pendingApprovals: number;
  /** Only its message is read: a structural type, so the Angular page's ClientError (from the packed library) fits as well as src's. */
  readonly error: Pick<ClientError, "message"> | undefined;
  /** How the last run ended (`useRun(session).end`): a cancelled one says so. */
  readonly end?: RunEnd;
  /** The reconnect attempt under way, if the run's connection was lost (`useRun(session).reconnecting`). */
  readonly reconnecting?: number;
  /** Stop was pressed and the server is ending the run. */
  readonly stopping?: boolean;
  /** Client tool calls waiting for the user's answer on a card (the run is active meanwhile). */
  readonly pendingAnswers?: number;
}

/**
 * The run status in words. Pending approvals win over the status: after a refused send the status
 * is `failed`, yet what the user has to do is still to answer the approval. A lost connection
 * being resumed reads "Reconnecting…"; a run that was stopped reads "Stopped" (it is not a
 * failure, and it is not silently "Ready" either).
 *
 * @example
 * statusLine({ status: "running", pendingApprovals: 0, error: undefined }).label // "Working…"
 */
export function statusLine(input: StatusInput): StatusLine {
  const detail = input.error?.message;
  if (input.status === "running" && input.reconnecting !== undefined)
    return { label: `Reconnecting… (attempt ${input.reconnecting})`, tone: "attention", detail };
  if (input.status === "running" && input.stopping === true) return { label: "Stopping…", tone: "busy", detail };
  if (input.status === "running" && (input.pendingAnswers ?? 0) > 0) return { label: "Waiting for your answer", tone: "attention", detail };
  if (input.status === "running") return { label: "Working…", tone: "busy", detail };
  if (input.pendingApprovals > 0) return { label: "Waiting for your approval", tone: "attention", detail };
  switch (input.status) {
    case "failed":
      return { label: "The last run failed", tone: "error", detail };
    case "interrupted":
    // interrupted with nothing pending: the interrupts were answered elsewhere, so it falls through to idle
    case "idle":
      if (input.end?.kind === "cancelled") return { label: "Stopped: the run was cancelled", tone: "quiet", detail };
      return { label: "Ready", tone: detail === undefined ? "quiet" : "error", detail };
    default:
      return unknownStatus(input.status);
  }
}

function unknownStatus(status: never): StatusLine {
  return { label: String(status), tone: "quiet", detail: undefined };
}
