/** The row under a question or an answer: Edit, or Copy and Regenerate, and the ‹ 2 / 3 › arrows of its versions (docs/threads.md#edit-and-regenerate). */
import { useEffect, useState } from "react";
import type { Session } from "../../../src/client/Session";
import { useBranches } from "../../../src/react";
import { groupMessageId, versionLabel, type TurnControls } from "../../shared/turnControls";

/**
 * What the conversation's versions need from the page: the session whose versions are shown, and
 * what the buttons do. MessageList takes it to draw a TurnBar under every question and answer.
 *
 * @example
 * const turns: TurnHandlers = { session, disabled: running, onEdit: edit, onRegenerate: regenerate, onSelect: select };
 */
export interface TurnHandlers {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any session's versions: the board's or another page's state type
  readonly session: Session<any>;
  /** Edit, Regenerate and the arrows are off (a run is active; versions switch between runs). */
  readonly disabled: boolean;
  /** Saves an edited question: runs the agent on it, as a new version beside the old one. */
  readonly onEdit: (messageId: string, text: string) => void;
  readonly onRegenerate: (questionId: string) => void;
  /** Shows the group's version `index` (0-based) in place of the one shown. */
  readonly onSelect: (messageId: string, index: number) => void;
}

/**
 * One question's or answer's controls. Copy writes the answer's text to the clipboard and says
 * "Copied" until the answer changes; a clipboard the browser refuses says "Copy failed".
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
  const groupId = groupMessageId(controls);
  const branches = useBranches(handlers.session, groupId);
  const versions = versionLabel(branches);
  const [copied, setCopied] = useState<"copied" | "failed" | undefined>(undefined);
  const text = controls.text;
  useEffect(() => setCopied(undefined), [text]);
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied("copied"),
      () => setCopied("failed"),
    );
  };
  const label = controls.kind === "question" ? "Question" : "Answer";
  return (
    <div className={`turn-bar ${controls.kind}`} data-testid={`${controls.kind}-bar`} role="group" aria-label={`${label} actions`}>
      {versions !== undefined && branches !== undefined ? (
        <span className="versions" data-testid="versions">
          <button
            type="button"
            className="version-step"
            aria-label="Previous version"
            disabled={handlers.disabled || !versions.hasPrevious}
            onClick={() => handlers.onSelect(groupId, branches.index - 1)}
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
            disabled={handlers.disabled || !versions.hasNext}
            onClick={() => handlers.onSelect(groupId, branches.index + 1)}
          >
            ›
          </button>
        </span>
      ) : null}
      {controls.kind === "question" ? (
        <button type="button" className="turn-action" disabled={handlers.disabled} onClick={() => onStartEdit(controls.messageId)}>
          Edit
        </button>
      ) : (
        <>
          <button type="button" className="turn-action" data-copied={copied ?? ""} disabled={text === ""} onClick={copy}>
            {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
          </button>
          <button type="button" className="turn-action" disabled={handlers.disabled} onClick={() => handlers.onRegenerate(controls.questionId)}>
            Regenerate
          </button>
        </>
      )}
    </div>
  );
}
