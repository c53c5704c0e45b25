/** The example commands an empty conversation offers (the task board's planner understands them). */
export const SUGGESTIONS: readonly string[] = ["add buy milk; add call mom", "research rxjs", "list", "clear"];
