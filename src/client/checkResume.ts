/** The client's resume pre-flight (docs/rules.md#I4, docs/rules.md#I5): what must hold before a run may start on a thread with pending interrupts. */
import type { Interrupt, ResumeEntry } from "../protocol/outcomes";
import { ClientError } from "../thread/ClientError";

/**
 * Why a run with these `resume` entries must not start, as a `config` error naming the interrupt
 * ids, or `undefined` when it may: every pending interrupt is answered (the error lists the
 * uncovered ones), and none has expired at `now` unless its answer cancels it (the error says
 * "expired"). Nothing is pending → always `undefined`.
 *
 * @example
 * checkResume([{ id: "i1", reason: "confirmation" }], [], Date.now())?.interruptIds; // ["i1"]
 */
export function checkResume(pending: readonly Interrupt[], resume: readonly ResumeEntry[], now: number): ClientError | undefined {
  if (pending.length === 0) return undefined;
  const answers = new Map(resume.map((entry) => [entry.interruptId, entry]));
  const uncovered = pending.filter((interrupt) => !answers.has(interrupt.id)).map((interrupt) => interrupt.id);
  if (uncovered.length > 0) {
    return new ClientError(
      "config",
      `the thread has ${uncovered.length} pending interrupt(s) not answered by resume: ${uncovered.join(", ")}; resume must answer every pending interrupt`,
      { interruptIds: uncovered },
    );
  }
  for (const interrupt of pending) {
    if (interrupt.expiresAt === undefined || answers.get(interrupt.id)?.status === "cancelled") continue;
    const expiry = Date.parse(interrupt.expiresAt);
    if (!Number.isNaN(expiry) && expiry <= now) {
      return new ClientError("config", `interrupt ${interrupt.id} expired at ${interrupt.expiresAt} and can no longer be answered; cancel it to continue`, {
        interruptIds: [interrupt.id],
      });
    }
  }
  return undefined;
}
