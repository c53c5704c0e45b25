/** The input at the bottom of the chat: a growing text box, Send and Stop (and, while a run is live on a page that queues, Steer and Interrupt & send), and the status line under them. */
import { useEffect, useState, type FormEvent, type KeyboardEvent } from "react";
import type { ClientError } from "../../../src/thread/ClientError";
import type { RunEnd } from "../../../src/thread/Update";
import type { RunStatus } from "../../../src/react";
import { composerState, DEFAULT_PLACEHOLDER, keyboardHint, statusLine } from "../../shared/composerState";
import type { ComposerPolicy } from "../../shared/queuedMessages";

/** What the composer needs. */
export interface ComposerProps {
  readonly status: RunStatus;
  readonly pendingApprovals: number;
  /** Confirmation cards waiting for the user (client tool calls). */
  readonly pendingAnswers?: number;
  readonly error: ClientError | undefined;
  /** How the last run ended (a stopped one says so). */
  readonly end?: RunEnd;
  /** Stop was pressed; the server is ending the run. */
  readonly stopping?: boolean;
  /** The reconnect attempt under way, while the connection is lost. */
  readonly reconnecting?: number;
  /** The hint in an empty box that can send, instead of the shared one (which names the task board's commands). */
  readonly placeholder?: string;
  readonly onSend: (text: string) => void;
  /**
   * Given, the page queues (docs/queue.md#policies): every send goes through it instead of
   * `onSend`, Send and Enter with `queue` (it runs now when nothing is live), Steer with `steer`
   * and Interrupt & send with `interrupt` (those two are shown only while a run is live).
   */
  readonly onSendWith?: (text: string, policy: ComposerPolicy) => void;
  readonly onStop: () => void;
}

/**
 * Enter sends, Shift+Enter breaks the line. Send is off while a run is active or an approval
 * waits (the draft stays, to be sent once the approval is answered); Stop is on while a run is
 * active. A send the server refused before recording it (`end.unsent`) puts its text back in an
 * empty box. With `onSendWith` the box stays usable while a run is live: Enter and Send queue the
 * message, Steer hands it to the live answer, Interrupt & send stops that answer and runs it. The
 * rules are examples/shared/composerState.ts, shared with the Angular page. The AI chat page uses
 * it too, with its own `placeholder` and without `onSendWith`.
 *
 * @example
 * <Composer status={status} pendingApprovals={interrupts.length} error={error} onSend={send} onStop={stop} />
 */
export function Composer({
  status,
  pendingApprovals,
  pendingAnswers = 0,
  error,
  end,
  stopping,
  reconnecting,
  placeholder,
  onSend,
  onSendWith,
  onStop,
}: ComposerProps) {
  const [draft, setDraft] = useState("");
  const state = composerState({ status, pendingApprovals, draft, stopping, pendingAnswers, queueing: onSendWith !== undefined });
  const line = statusLine({ status, pendingApprovals, error, end, stopping, reconnecting, pendingAnswers });
  // The session took the refused message back out (issue #20 A5): its text returns to the box, unless something new was typed.
  useEffect(() => {
    const text = end?.kind === "failed" ? end.unsent?.content : undefined;
    if (typeof text === "string") setDraft((current) => (current === "" ? text : current));
  }, [end]);
  const submit = (event?: FormEvent, policy: ComposerPolicy = "queue") => {
    event?.preventDefault();
    if (policy === "queue" ? !state.canSend : !state.canSteer) return;
    if (onSendWith !== undefined) onSendWith(draft.trim(), policy);
    else onSend(draft.trim());
    setDraft("");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <>
      <form className="composer" onSubmit={submit}>
        <textarea
          data-testid="chat-input"
          rows={1}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={placeholder !== undefined && state.placeholder === DEFAULT_PLACEHOLDER ? placeholder : state.placeholder}
          aria-label="Message"
        />
        <button className="stop" data-testid="stop" type="button" onClick={onStop} disabled={!state.canStop}>
          Stop
        </button>
        {state.offersPolicies ? (
          <>
            <button
              className="interrupt"
              data-testid="interrupt-send"
              type="button"
              title="Stop the current answer and run this message now"
              onClick={() => submit(undefined, "interrupt")}
              disabled={!state.canSteer}
            >
              Interrupt &amp; send
            </button>
            <button
              className="steer"
              data-testid="steer"
              type="button"
              title="Hand this message to the current answer"
              onClick={() => submit(undefined, "steer")}
              disabled={!state.canSteer}
            >
              Steer
            </button>
          </>
        ) : null}
        <button
          className="send"
          data-testid="send"
          type="submit"
          title={state.offersPolicies ? "Queue this message: it runs after the current answer" : undefined}
          disabled={!state.canSend}
        >
          Send
        </button>
      </form>
      <p className={`status ${line.tone}`} data-testid="status" data-status={status} data-end={end?.kind ?? ""} aria-live="polite">
        <span>{line.label}</span>
        {line.detail ? (
          <span className="error" data-testid="error" title={line.detail}>
            · {line.detail}
          </span>
        ) : null}
        <span className="hint">{keyboardHint(state)}</span>
      </p>
    </>
  );
}
