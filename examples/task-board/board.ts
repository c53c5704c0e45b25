/** The task board's shared state: its io-ts codec, its default, and small pure helpers. */
import * as t from "io-ts";
import type { StateSpec } from "../../src/protocol/stateSpec";

/** One task; `id` is one more than the largest id on the board when it was added. */
export const Task = t.type({ id: t.number, title: t.string, done: t.boolean }, "Task");
export type Task = t.TypeOf<typeof Task>;

/** The board: the tasks, in the order they were added. */
export const Board = t.type({ tasks: t.array(Task) }, "Board");
export type Board = t.TypeOf<typeof Board>;

/**
 * The board's state spec: an empty board when the client sends no state yet. A literal rather
 * than `stateSpec(...)`, so this file imports nothing of the library at run time and the Angular
 * page, built from the packed library, can share it.
 */
export const boardSpec: StateSpec<Board> = { codec: Board, defaultValue: { tasks: [] } };

/** The id the next task gets: one more than the largest id on the board. */
export function nextTaskId(board: Board): number {
  let max = 0;
  for (const task of board.tasks) if (task.id > max) max = task.id;
  return max + 1;
}

/** "3 tasks, 1 done" — the one-line summary the agent ends its answers with. */
export function summarize(board: Board): string {
  const done = board.tasks.filter((task) => task.done).length;
  const n = board.tasks.length;
  return n === 0 ? "The board is empty." : `The board has ${taskCount(n)}, ${done} done.`;
}

/**
 * A number of tasks in words, singular for one: everything the agent says about a count goes through it.
 *
 * @example
 * taskCount(1); // "1 task"
 * taskCount(3); // "3 tasks"
 */
export function taskCount(n: number): string {
  return n === 1 ? "1 task" : `${n} tasks`;
}

/**
 * The question `clear` asks before it empties a non-empty board.
 *
 * @example
 * clearQuestion(1); // "Clear the 1 task from the board?"
 * clearQuestion(3); // "Clear all 3 tasks from the board?"
 */
export function clearQuestion(n: number): string {
  return n === 1 ? `Clear the ${taskCount(n)} from the board?` : `Clear all ${taskCount(n)} from the board?`;
}
