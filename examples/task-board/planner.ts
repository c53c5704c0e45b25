/** The deterministic "planner": a user message becomes a list of board commands. No model involved. */

/** One thing the user asked for. */
export type Command =
  | { readonly kind: "add"; readonly title: string }
  | { readonly kind: "done"; readonly id: number }
  | { readonly kind: "delete"; readonly id: number }
  | { readonly kind: "today" }
  | { readonly kind: "research"; readonly topic: string }
  | { readonly kind: "count"; readonly to: number }
  | { readonly kind: "clear" }
  | { readonly kind: "list" }
  | { readonly kind: "unknown"; readonly text: string };

/**
 * Splits a message on `;` and line breaks and reads each part as a command:
 * `add <title>`, `done <id>` (also `complete <id>`), `delete <id>` (also `remove <id>`),
 * `research <topic>`, `count to <n>` (1 to 20, also `count <n>`), `clear`, `list`, and `today`
 * (also "what's due today?").
 * Anything else is `unknown` (the agent answers with the help text). Empty parts are skipped.
 *
 * @example
 * plan("add buy milk; add call mom") // [{ kind: "add", title: "buy milk" }, { kind: "add", title: "call mom" }]
 */
export function plan(text: string): Command[] {
  const commands: Command[] = [];
  for (const raw of text.split(/[;\n]+/)) {
    const part = raw.trim();
    if (part === "") continue;
    if (/^(what(['’]s| is) )?due today\??$|^today\??$/i.test(part)) {
      commands.push({ kind: "today" });
      continue;
    }
    const match = /^(\S+)\s*(.*)$/s.exec(part);
    const verb = (match?.[1] ?? "").toLowerCase();
    const rest = (match?.[2] ?? "").trim();
    if (verb === "add" && rest !== "") commands.push({ kind: "add", title: rest });
    else if ((verb === "done" || verb === "complete") && /^#?\d+$/.test(rest)) commands.push({ kind: "done", id: Number(rest.replace("#", "")) });
    else if ((verb === "delete" || verb === "remove") && /^#?\d+$/.test(rest)) commands.push({ kind: "delete", id: Number(rest.replace("#", "")) });
    else if (verb === "research" && rest !== "") commands.push({ kind: "research", topic: rest });
    else if (verb === "count" && /^(to )?\d+$/i.test(rest) && countable(Number(rest.replace(/^to /i, ""))))
      commands.push({ kind: "count", to: Number(rest.replace(/^to /i, "")) });
    else if (verb === "clear" && rest === "") commands.push({ kind: "clear" });
    else if (verb === "list" && rest === "") commands.push({ kind: "list" });
    else commands.push({ kind: "unknown", text: part });
  }
  return commands;
}

/** The most `count to <n>` counts: a slow command for typing during a run, not a way to hold a run for long. */
export const MAX_COUNT = 20;

function countable(to: number): boolean {
  return Number.isInteger(to) && to >= 1 && to <= MAX_COUNT;
}

/** What the agent says when it does not understand. */
export const HELP =
  'I understand: "add <title>", "done <id>", "delete <id>", "research <topic>", "count to <n>", "clear", "list" and "what\'s due today", separated by ";".';
