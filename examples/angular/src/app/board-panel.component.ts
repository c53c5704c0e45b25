/** The board beside the chat: the agent's shared state, always in view. */
import { ChangeDetectionStrategy, Component, computed, input } from "@angular/core";
import type { Board } from "../../../task-board/board";
import { boardSummary } from "../../../shared/boardSummary";

/**
 * @example
 * <app-board-panel [board]="agent.state()" />
 */
@Component({
  selector: "app-board-panel",
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: "board", "data-testid": "board", "aria-label": "Board", role: "complementary" },
  template: `
    <header>
      <h2>Board</h2>
      <span class="counts" data-testid="board-counts">{{ summary().label }}</span>
      <div class="progress" aria-hidden="true"><div [style.width.%]="summary().percentDone"></div></div>
    </header>
    @if (tasks().length > 0) {
      <ol class="tasks">
        @for (task of tasks(); track task.id) {
          <li [class.done]="task.done">
            <span class="check" aria-hidden="true"></span>
            <span class="title" data-testid="task">{{ task.title }}</span>
            <span class="id">#{{ task.id }}</span>
          </li>
        }
      </ol>
    } @else {
      <p class="empty" data-testid="board-empty">No tasks yet. Ask the agent to add some.</p>
    }
  `,
})
export class BoardPanelComponent {
  readonly board = input.required<Board | undefined>();
  protected readonly tasks = computed(() => this.board()?.tasks ?? []);
  protected readonly summary = computed(() => boardSummary(this.tasks()));
}
