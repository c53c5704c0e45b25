/** The `execute` of a tool the user answers: it waits for `respond` (docs/tools.md § human in the loop). */
import type { ToolCallContext } from "./clientTool";

/**
 * An `execute` that does nothing but wait: the call is answered by `respond(result)` (from
 * `useClientTool`'s render, the Angular service, or `session.runningToolCalls`). It rejects with
 * the signal's reason when the exchange is stopped first, so a stopped call leaves no promise
 * behind. Give the tool a `result` codec: it types `respond` and encodes what the view answers.
 *
 * @example
 * const confirmDelete = clientTool({
 *   name: "confirm_delete",
 *   description: "Asks the user to confirm before a task is deleted",
 *   parameters: t.type({ id: t.number, title: t.string }),
 *   result: t.type({ confirmed: t.boolean }),
 *   execute: waitForResponse,
 * });
 */
export function waitForResponse<R = never>(_args: unknown, context: ToolCallContext): Promise<R> {
  return new Promise<R>((_resolve, reject) => {
    const { signal } = context;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}
