/** Turns the flat message list into what the page draws: top-level messages and subagent groups. */
import type { Subagent } from "../../src/thread/Update";
import type { Message, ToolMessage } from "../../src/protocol/messages";

/** A top-level message, or the messages of one subagent invocation (placed where its first message is). */
export type Block =
  | { readonly kind: "message"; readonly key: string; readonly message: Message }
  | { readonly kind: "subagent"; readonly key: string; readonly subagentRunId: string; readonly messages: readonly Message[] };

/**
 * Groups messages that carry `subagentRunId` under their subagent (docs/seeds.md#seed-001: the view groups by
 * the producer's id and titles the group from the registry); everything else stays in order.
 *
 * @example
 * groupMessages(messages).map((block) => block.kind);
 */
export function groupMessages(messages: readonly Message[]): Block[] {
  const blocks: Block[] = [];
  const groups = new Map<string, Message[]>();
  for (const message of messages) {
    const owner = message.subagentRunId;
    if (owner === undefined) {
      blocks.push({ kind: "message", key: message.id, message });
      continue;
    }
    const group = groups.get(owner);
    if (group) group.push(message);
    else {
      const fresh = [message];
      groups.set(owner, fresh);
      blocks.push({ kind: "subagent", key: `subagent:${owner}`, subagentRunId: owner, messages: fresh });
    }
  }
  return blocks;
}

/** Tool results by tool call id, so a tool call card can show its result. */
export function toolResults(messages: readonly Message[]): ReadonlyMap<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === "tool") results.set(message.toolCallId, message);
  return results;
}

/**
 * A subagent group's title and status badge. A subagent the registry still has as `running` when
 * no run is active was cut off (Stop, or a run that ended without finishing it): it reads `stopped`.
 * So does one whose messages Stop cut off (`cutOff`): a server that keeps threads cancels the run
 * itself, and closes the subagent (as finished) on its way out.
 *
 * @example
 * subagentHeading(session.subagent(id), status === "running", id) // { name: "researcher", badge: "finished" }
 */
export function subagentHeading(
  subagent: Subagent | undefined,
  running: boolean,
  fallbackName: string,
  cutOff = false,
): { readonly name: string; readonly badge: string; readonly description: string | undefined } {
  const kind = subagent?.status.kind ?? "running";
  const badge = (kind === "running" && !running) || (cutOff && !running) ? "stopped" : kind;
  return { name: subagent?.name ?? fallbackName, badge, description: subagent?.description };
}
