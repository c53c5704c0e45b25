/** The row under a question or an answer: Edit, or Copy and Regenerate, and the ‹ 2 / 3 › arrows of its versions (docs/threads.md#edit-and-regenerate). */
import { useEffect, useState } from "react";
import type { Session } from "../../../src/client/Session";
import { ClientError } from "../../../src/thread/ClientError";
import { useBranches } from "../../../src/react";
import { groupMessageId, versionLabel, type TurnControls } from "../../shared/turnControls";

/**
 * What the conversation's versions need from the page: the session whose versions are shown (the
 * arrows switch them with `session.selectBranch`), and what Edit and Regenerate start. MessageList
 * takes it to draw a TurnBar under every question and answer.
 *
 * @example
 * const turns: TurnHandlers = { session, disabled: running, onEdit: run.edit, onRegenerate: run.regenerate };
 */
export interface TurnHandlers {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any session's versions, whatever its state type
  readonly session: Session<any>;
  /** Edit, Regenerate and the arrows are off (a run is active; versions switch between runs). */
  readonly disabled: boolean;
  /** Saves an edited question: runs the agent on it, as a new version beside the old one. */
  readonly onEdit: (messageId: string, text: string) => void;
  /** Asks the question `questionId` again: another answer beside the one shown. */
  readonly onRegenerate: (questionId: string) => void;
}

/**
 * One question's or answer's controls. The arrows are off while their switch is on its way, and
 * a refused switch (a run started meanwhile in another tab) says why beside them. Copy writes the
 * answer's text to the clipboard and says "Copied" until the answer changes; a clipboard the
 * browser refuses says "Copy failed".
 *
 * @example
 * <TurnBar controls={controls} handlers={turns} onStartEdit={setEditing} />
 */
export function TurnBar({
  controls,
  handlers,
  onStartEdit,
}: {
  readonly controls: TurnControls;
  readonly handlers: TurnHandlers;
  /** Edit was pressed on a question: the list shows its editor in its place. */
  readonly onStartEdit: (messageId: string) => void;
}) {
  const { session, disabled } = handlers;
  const groupId = groupMessageId(controls);
  const branches = useBranches(session, groupId);
  const versions = versionLabel(branches);
  const [switching, setSwitching] = useState(false);
  const [refused, setRefused] = useState<string | undefined>(undefined);
  const [copied, setCopied] = useState<"copied" | "failed" | undefined>(undefined);
  const text = controls.text;
  useEffect(() => setCopied(undefined), [text]);
  const select = (index: number) => {
    setSwitching(true);
    setRefused(undefined);
    session.selectBranch(groupId, index).then(
      () => setSwitching(false),
      (error: unknown) => {
        setSwitching(false);
        setRefused(ClientError.from(error).message);
      },
    );
  };
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied("copied"),
      () => setCopied("failed"),
    );
  };
  const label = controls.kind === "question" ? "Question" : "Answer";
  return (
    <div className={`turn-bar ${controls.kind}`} data-testid={`${controls.kind}-bar`} role="group" aria-label={`${label} actions`}>
      {versions !== undefined ? (
        <span className="versions" data-testid="versions">
          <button
            type="button"
            className="version-step"
            aria-label="Previous version"
            disabled={disabled || switching || !versions.hasPrevious}
            onClick={() => select(branches.index - 1)}
          >
            ‹
          </button>
          <span className="version-count" data-testid="version-count">
            {versions.text}
          </span>
          <button
            type="button"
            className="version-step"
            aria-label="Next version"
            disabled={disabled || switching || !versions.hasNext}
            onClick={() => select(branches.index + 1)}
          >
            ›
          </button>
        </span>
      ) : null}
      {controls.kind === "question" ? (
        <button type="button" className="turn-action" disabled={disabled} onClick={() => onStartEdit(controls.messageId)}>
          Edit
        </button>
      ) : (
        <>
          <button type="button" className="turn-action" data-copied={copied ?? ""} disabled={text === ""} onClick={copy}>
            {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
          </button>
          <button type="button" className="turn-action" disabled={disabled} onClick={() => handlers.onRegenerate(controls.questionId)}>
            Regenerate
          </button>
        </>
      )}
      {refused !== undefined ? (
        <span className="turn-error" data-testid="turn-error" role="alert">
          {refused}
        </span>
      ) : null}
    </div>
  );
}
