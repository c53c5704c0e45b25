/** The board panel's heading line: how many tasks, how many done, as words and as a percentage. */
import type { Task } from "../task-board/board";

/**
 * How many of the tasks are done, in words ("1 of 2 done", "Empty") and as a whole percentage.
 *
 * @example
 * boardSummary([{ id: 1, title: "buy milk", done: true }, { id: 2, title: "call mom", done: false }])
 * // { label: "1 of 2 done", percentDone: 50 }
 */
export function boardSummary(tasks: readonly Task[]): { readonly label: string; readonly percentDone: number } {
  const done = tasks.filter((task) => task.done).length;
  if (tasks.length === 0) return { label: "Empty", percentDone: 0 };
  return { label: `${done} of ${tasks.length} done`, percentDone: Math.round((done / tasks.length) * 100) };
}
