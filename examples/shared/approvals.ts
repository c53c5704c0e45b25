/** Answers to the agent's interrupts: one choice per pending interrupt, one resume for all of them. */
import type { Interrupt, ResumeEntry } from "../../src/protocol/outcomes";

/** What the user chose for one interrupt. */
export type Choice = "approve" | "reject";

/**
 * The resume entry for one choice: approving resolves the interrupt with `{ approved: true }`
 * (what the task board's `clear` asks for in its `responseSchema`); rejecting cancels it.
 *
 * @example
 * answerFor(interrupt, "approve") // { interruptId: interrupt.id, status: "resolved", payload: { approved: true } }
 */
export function answerFor(interrupt: Interrupt, choice: Choice): ResumeEntry {
  return choice === "approve"
    ? { interruptId: interrupt.id, status: "resolved", payload: { approved: true } }
    : { interruptId: interrupt.id, status: "cancelled" };
}

/**
 * The answers to resume with, once every pending interrupt has a choice (`resume` must answer all
 * of them at once); `undefined` while some are still open. With one interrupt pending, its choice
 * is enough.
 *
 * @example
 * const answers = answersOnceComplete(session.interrupts, choices);
 * if (answers) resume(answers);
 */
export function answersOnceComplete(pending: readonly Interrupt[], choices: ReadonlyMap<string, Choice>): ResumeEntry[] | undefined {
  const answers: ResumeEntry[] = [];
  for (const interrupt of pending) {
    const choice = choices.get(interrupt.id);
    if (choice === undefined) return undefined;
    answers.push(answerFor(interrupt, choice));
  }
  return answers.length === 0 ? undefined : answers;
}
