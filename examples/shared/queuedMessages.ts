/**
 * The list of a thread's waiting messages under the conversation (docs/queue.md#in-the-client),
 * shared by the React and the Angular page: what each row says, and which policy each of the
 * composer's buttons sends with.
 */
import type { UserMessage } from "../../src/protocol/messages";
import { messageText } from "./messageText";

/**
 * What the composer's buttons send with while a run is live (docs/queue.md#policies): Send (and
 * Enter) `queue`, Steer `steer`, Interrupt & send `interrupt`. The pages never send `refuse`.
 *
 * @example
 * session.send(text, { whileRunning: policyOf("steer") });
 */
export type ComposerPolicy = "queue" | "steer" | "interrupt";

/**
 * The policy a composer's button sends with now: its own while the agent works or messages wait
 * (`busy`), else none, so that a send to an idle thread is a plain post whose refusal hands the
 * text back to the box as it always did (the pages' refused-send behaviour).
 *
 * @example
 * session.send(text, { whileRunning: sendPolicy("queue", running || queued.length > 0) });
 */
export function sendPolicy(policy: ComposerPolicy, busy: boolean): ComposerPolicy | "refuse" {
  return busy ? policy : "refuse";
}

/**
 * A waiting message as the session lists it (`session.queued`, `QueuedMessage`): only the fields a
 * row reads, so the Angular page's entries (from the packed library) fit as well as src's.
 */
export interface WaitingEntry {
  readonly id: string;
  readonly policy: ComposerPolicy;
  readonly status: "queued" | "waiting" | "steering";
  readonly message: Pick<UserMessage, "content">;
}

/** One row of the list: the message's text, its status in a word and what that means. */
export interface WaitingRow {
  readonly id: string;
  readonly text: string;
  /** The status as the row's data attribute (`queued`, `waiting`, `steering`). */
  readonly status: WaitingEntry["status"];
  /** The status in a word: "Queued", "Waiting", "Steering". */
  readonly label: string;
  /** What happens to it next, in a short sentence. */
  readonly detail: string;
  /** The Cancel button's accessible name, naming the message (several rows each have one). */
  readonly cancelLabel: string;
}

/**
 * The row of one waiting message. An interrupting message waits at the front while the live run is
 * being stopped, so its detail says it runs next.
 *
 * @example
 * waitingRow({ id: "r3", policy: "queue", status: "queued", message: { content: "add milk" } }).label; // "Queued"
 */
export function waitingRow(entry: WaitingEntry): WaitingRow {
  const text = messageText({ id: entry.id, role: "user", content: entry.message.content });
  const shown = text === "" ? "(no text)" : text;
  return { id: entry.id, text: shown, status: entry.status, ...describe(entry), cancelLabel: `Cancel "${ellipsis(shown, 40)}"` };
}

function describe(entry: WaitingEntry): { readonly label: string; readonly detail: string } {
  switch (entry.status) {
    case "queued":
      return entry.policy === "interrupt"
        ? { label: "Queued", detail: "runs next, once the current answer has stopped" }
        : { label: "Queued", detail: "runs after the current answer" };
    case "waiting":
      return { label: "Waiting", detail: "runs once the question above is answered" };
    case "steering":
      return { label: "Steering", detail: "offered to the current answer" };
  }
}

/** `text` cut to `max` characters with an ellipsis, for a button's name. */
function ellipsis(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * The heading of the list, with how many wait.
 *
 * @example
 * waitingHeading(2); // "2 messages waiting"
 */
export function waitingHeading(count: number): string {
  return count === 1 ? "1 message waiting" : `${count} messages waiting`;
}
