/** Who speaks, for a screen reader: each message of the conversation is an article named after its speaker (both pages). */

/**
 * The accessible name of a message drawn in the conversation: "You said" for the user's,
 * "Assistant said" for the agent's (a subagent's messages sit under their group's heading).
 *
 * @example
 * <div role="article" aria-label={speakerLabel(message.role)}>…</div>
 */
export function speakerLabel(role: "user" | "assistant"): string {
  return role === "user" ? "You said" : "Assistant said";
}
