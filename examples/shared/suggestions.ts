/**
 * The example commands an empty conversation offers (the task board's planner understands them).
 *
 * @example
 * SUGGESTIONS.map((text) => <button onClick={() => send(text)}>{text}</button>);
 */
export const SUGGESTIONS: readonly string[] = ["add buy milk; add call mom", "research rxjs", "list", "clear"];
