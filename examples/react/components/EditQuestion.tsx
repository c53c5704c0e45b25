/** A question being edited in place: its text in a box, with Save and Cancel (docs/threads.md#edit-and-regenerate). */
import { useState, type FormEvent, type KeyboardEvent } from "react";

/** What the editor starts from and reports. */
export interface EditQuestionProps {
  /** The question's text as sent. */
  readonly text: string;
  /** Save is off (a run is active). */
  readonly disabled?: boolean;
  /** Saves the edit: the page runs the agent on the edited question, as a new version beside the old one. */
  readonly onSave: (text: string) => void;
  readonly onCancel: () => void;
}

/**
 * Enter saves, Shift+Enter breaks the line, Escape cancels. Save is off while the box is blank or
 * says what the question already says (an edit that changes nothing would only repeat the run),
 * and while `disabled`.
 *
 * @example
 * <EditQuestion text={controls.text} onSave={(text) => edit(id, text)} onCancel={() => setEditing(undefined)} />
 */
export function EditQuestion({ text, disabled = false, onSave, onCancel }: EditQuestionProps) {
  const [draft, setDraft] = useState(text);
  const canSave = !disabled && draft.trim() !== "" && draft.trim() !== text.trim();
  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (canSave) onSave(draft.trim());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") onCancel();
    else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      save();
    }
  };
  return (
    <form className="edit-question" data-testid="edit-question" onSubmit={save}>
      <textarea aria-label="Edit message" value={draft} rows={2} autoFocus onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} />
      <div className="edit-actions">
        <button type="button" className="edit-cancel" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="edit-save" disabled={!canSave}>
          Save
        </button>
      </div>
    </form>
  );
}
