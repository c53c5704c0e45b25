/** The agent's pending interrupts as approval cards, kept in the dock (always in view) until answered. */
import { useState } from "react";
import type { Interrupt, ResumeEntry } from "../../../src/protocol/outcomes";
import { answersOnceComplete, type Choice } from "../../shared/approvals";
import { focusCard } from "../../shared/focusCard";

/** What the cards need. */
export interface ApprovalsProps {
  /** `useInterrupts(session)`: what the agent waits on. */
  readonly pending: readonly Interrupt[];
  /** Resumes the run with every answer (`useRun(session).resume`). */
  readonly onAnswer: (answers: readonly ResumeEntry[]) => void;
  /** A run is active (the resume is on its way): the buttons wait. */
  readonly disabled: boolean;
}

/**
 * One card per pending interrupt with Approve / Reject. `resume` must answer every pending
 * interrupt at once, so with several pending the choices are collected and the run resumes when
 * the last one is made; with one, its button resumes at once.
 *
 * @example
 * <Approvals pending={useInterrupts(session)} onAnswer={resume} disabled={status === "running"} />
 */
export function Approvals({ pending, onAnswer, disabled }: ApprovalsProps) {
  const [choices, setChoices] = useState<ReadonlyMap<string, Choice>>(new Map());
  if (pending.length === 0) return null;
  const choose = (interrupt: Interrupt, choice: Choice) => {
    const next = new Map(choices).set(interrupt.id, choice);
    const answers = answersOnceComplete(pending, next);
    setChoices(answers ? new Map() : next);
    if (answers) onAnswer(answers);
  };
  return (
    <>
      {pending.map((interrupt) => {
        const chosen = choices.get(interrupt.id);
        return (
          <div className="approval" data-testid="interrupt" role="alertdialog" aria-label="Approval needed" tabIndex={-1} ref={focusCard} key={interrupt.id}>
            <div className="icon" aria-hidden="true">
              !
            </div>
            <div className="text">
              <strong>{interrupt.message ?? "The agent asks for your approval"}</strong>
              <small>The agent is waiting for your answer ({interrupt.reason}).</small>
            </div>
            {chosen ? (
              <span className="chosen">{chosen === "approve" ? "Approved" : "Rejected"}, waiting for the others…</span>
            ) : (
              <div className="actions">
                <button className="reject" data-testid="reject" type="button" disabled={disabled} onClick={() => choose(interrupt, "reject")}>
                  Reject
                </button>
                <button className="approve" data-testid="approve" type="button" disabled={disabled} onClick={() => choose(interrupt, "approve")}>
                  Approve
                </button>
              </div>
            )}
          </div>
        );
      })}
    </>
  );
}
