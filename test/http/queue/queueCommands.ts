/**
 * The commands of the queue property test (docs/queue.md) and their fast-check arbitrary: sends
 * with each policy from one of the Sessions, steps of the live run's agent, stops, answers to an
 * interrupt or a client tool, cancels, cut connections, and the virtual clock moved past a lease.
 * A command that does not apply to the model's state when its turn comes is skipped (the runner
 * decides), so any list is a valid test and shrinking keeps it so.
 */
import fc from "fast-check";
import type { WhileRunning } from "../../../src/protocol/queueMeta";
import type { AgentAction } from "./queueModel";

/** One command of a sequence. `session` and `pick` are taken modulo what exists when it runs. */
export type QueueCommand =
  | { readonly kind: "send"; readonly policy: WhileRunning; readonly session: number }
  | { readonly kind: "step"; readonly action: AgentAction }
  | { readonly kind: "stop" }
  | { readonly kind: "resume" }
  | { readonly kind: "answerTool" }
  | { readonly kind: "cancel"; readonly pick: number; readonly session: number }
  | { readonly kind: "cut" }
  | { readonly kind: "advance" };

const policy = fc.constantFrom<WhileRunning>("refuse", "queue", "steer", "interrupt");
const session = fc.nat({ max: 1 });

/**
 * A command, weighted towards sends and agent steps (what makes a queue) over the rarer events.
 *
 * @example
 * fc.array(queueCommand, { maxLength: 12 });
 */
export const queueCommand: fc.Arbitrary<QueueCommand> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("send" as const), policy, session }) },
  { weight: 2, arbitrary: fc.constant<QueueCommand>({ kind: "step", action: "say" }) },
  { weight: 2, arbitrary: fc.constant<QueueCommand>({ kind: "step", action: "listen" }) },
  { weight: 3, arbitrary: fc.constant<QueueCommand>({ kind: "step", action: "finish" }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "step", action: "interrupt" }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "step", action: "clientTool" }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "stop" }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "resume" }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "answerTool" }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat({ max: 7 }), session }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "cut" }) },
  { weight: 1, arbitrary: fc.constant<QueueCommand>({ kind: "advance" }) },
);

/** How a command reads in a failure message: `send queue from 1`, `step listen`, `cancel #2 from 0`. */
export function describeCommand(command: QueueCommand): string {
  switch (command.kind) {
    case "send":
      return `send ${command.policy} from ${command.session}`;
    case "step":
      return `step ${command.action}`;
    case "cancel":
      return `cancel #${command.pick} from ${command.session}`;
    case "stop":
    case "resume":
    case "answerTool":
    case "cut":
    case "advance":
      return command.kind;
  }
}
