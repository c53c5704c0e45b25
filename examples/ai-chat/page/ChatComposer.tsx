/** The AI chat's input: a growing text box, Send and Stop, and the status line (rules from examples/shared/composerState.ts). */
import { useState, type FormEvent, type KeyboardEvent } from "react";
import type { ClientError } from "../../../src/thread/ClientError";
import type { RunStatus } from "../../../src/react";
import { composerState, DEFAULT_PLACEHOLDER, KEYBOARD_HINT, statusLine } from "../../shared/composerState";

/** The chat's own hint for an empty composer (the shared default names the task board's commands). */
const PLACEHOLDER = 'Ask something, e.g. "what\'s the weather in Seoul?"';

/** What the composer needs. */
export interface ChatComposerProps {
  readonly status: RunStatus;
  /** Cards waiting for the user's answer (client tool calls). */
  readonly pendingAnswers: number;
  readonly error: ClientError | undefined;
  readonly onSend: (text: string) => void;
  readonly onStop: () => void;
}

/**
 * Enter sends, Shift+Enter breaks the line; Send is off while a run is active, Stop on.
 *
 * @example
 * <ChatComposer status={status} pendingAnswers={cards.length} error={error} onSend={send} onStop={stop} />
 */
export function ChatComposer({ status, pendingAnswers, error, onSend, onStop }: ChatComposerProps) {
  const [draft, setDraft] = useState("");
  const state = composerState({ status, pendingApprovals: 0, draft, pendingAnswers });
  const line = statusLine({ status, pendingApprovals: 0, error, pendingAnswers });
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (!state.canSend) return;
    onSend(draft.trim());
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
          placeholder={state.placeholder === DEFAULT_PLACEHOLDER ? PLACEHOLDER : state.placeholder}
          aria-label="Message"
        />
        <button className="stop" data-testid="stop" type="button" onClick={onStop} disabled={!state.canStop}>
          Stop
        </button>
        <button className="send" data-testid="send" type="submit" disabled={!state.canSend}>
          Send
        </button>
      </form>
      <p className={`status ${line.tone}`} data-testid="status" data-status={status} aria-live="polite">
        <span>{line.label}</span>
        {line.detail ? <span className="error" data-testid="error" title={line.detail}>· {line.detail}</span> : null}
        <span className="hint">{KEYBOARD_HINT}</span>
      </p>
    </>
  );
}
