/** Closing the calls a cancelled or failed run left open (docs/threads.md#what-a-request-may-add), so that the next model call sees no dangling call. */
import type { ToolMessage } from "../../protocol/messages";
import type { RunSummaryStatus } from "../../thread/ThreadSnapshot";

/**
 * One error tool result for each call in `open` the new post does not answer, when the thread's
 * last run ended `cancelled` or `failed` (a model API such as the AI SDK's refuses a history with
 * a call and no result); none otherwise. Each says why it was closed, in `content` (what the
 * model reads) and in `error`. `newId` mints the results' ids.
 *
 * @example
 * closeDangling(["c1"], new Set(), "cancelled", () => "x1");
 * // [{ id: "x1", role: "tool", toolCallId: "c1", content: "…cancelled…", error: "…cancelled…" }]
 */
export function closeDangling(open: readonly string[], answered: ReadonlySet<string>, status: RunSummaryStatus, newId: () => string): ToolMessage[] {
  const ended = endedHow(status);
  if (ended === undefined) return [];
  const reason = `This tool call was never answered: the run that made it ${ended} first.`;
  return open.filter((id) => !answered.has(id)).map((toolCallId) => ({ id: newId(), role: "tool", toolCallId, content: reason, error: reason }));
}

/** How a run that leaves calls dangling ended, in words; `undefined` for runs whose open calls still wait on an answer. */
function endedHow(status: RunSummaryStatus): string | undefined {
  switch (status) {
    case "cancelled":
      return "was cancelled";
    case "failed":
      return "failed";
    case "running":
    case "finished":
    case "interrupted":
      return undefined;
    default: {
      const unexpected: never = status;
      return unexpected;
    }
  }
}
