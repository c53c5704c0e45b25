/** The `confirm_delete` client tool's card: the agent waits on it before it deletes a task. */
import type { RunningToolCall } from "../../../src/client/tools/RunningToolCalls";
import type { ConfirmDeleteAnswer, ConfirmDeleteArgs } from "../../task-board/clientTools";
import { focusCard } from "../../shared/focusCard";
import { confirmationText } from "../../shared/pageTools";

/**
 * One pending `confirm_delete` call: the task, Keep and Delete. Either button answers the call
 * (`respond`), which lets the session send the answer in the follow-up run.
 *
 * @example
 * const cards = useClientTool(session, confirmDelete, (call) => <ConfirmDelete call={call} />);
 */
export function ConfirmDelete({ call }: { readonly call: RunningToolCall<ConfirmDeleteArgs, ConfirmDeleteAnswer> }) {
  const text = confirmationText(call.args);
  return (
    <div
      className="approval confirm"
      data-testid="confirm-delete"
      data-call={call.toolCallId}
      role="alertdialog"
      aria-label="Confirm deletion"
      tabIndex={-1}
      ref={focusCard}
    >
      <div className="icon" aria-hidden="true">
        ?
      </div>
      <div className="text">
        <strong>{text.question}</strong>
        <small>“{text.detail}”. The agent deletes it only if you say so.</small>
      </div>
      <div className="actions">
        <button className="reject" data-testid="keep" type="button" onClick={() => call.respond({ confirmed: false })}>
          Keep
        </button>
        <button className="approve" data-testid="confirm" type="button" onClick={() => call.respond({ confirmed: true })}>
          Delete
        </button>
      </div>
    </div>
  );
}
