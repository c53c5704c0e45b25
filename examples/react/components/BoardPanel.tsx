/** The board beside the chat: the agent's shared state, always in view. */
import type { Board } from "../../task-board/board";
import { boardSummary } from "../../shared/boardSummary";

/**
 * The tasks with a done/total count and a progress bar.
 *
 * @example
 * <BoardPanel board={useAgentState(session)} />
 */
export function BoardPanel({ board }: { readonly board: Board | undefined }) {
  const tasks = board?.tasks ?? [];
  const summary = boardSummary(tasks);
  return (
    <aside className="board" data-testid="board" aria-label="Board">
      <header>
        <h2>Board</h2>
        <span className="counts" data-testid="board-counts">
          {summary.label}
        </span>
        <div className="progress" aria-hidden="true">
          <div style={{ width: `${summary.percentDone}%` }} />
        </div>
      </header>
      {tasks.length > 0 ? (
        <ol className="tasks">
          {tasks.map((task) => (
            <li key={task.id} className={task.done ? "done" : ""}>
              <span className="check" aria-hidden="true" />
              <span className="title" data-testid="task">
                {task.title}
              </span>
              <span className="id">#{task.id}</span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="empty" data-testid="board-empty">
          No tasks yet. Ask the agent to add some.
        </p>
      )}
    </aside>
  );
}
