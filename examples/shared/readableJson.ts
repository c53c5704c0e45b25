/** JSON text (tool arguments, tool results) as something a person reads: labelled fields, not braces. */

/** One labelled value: `title` → `buy milk`. */
export interface Field {
  readonly key: string;
  readonly label: string;
  readonly value: string;
}

/**
 * How to show a JSON text: its fields (an object), one line (a string, number or list), nothing
 * (empty, `{}`, `null`), or the text as it is (not JSON yet: arguments still streaming).
 */
export type Readable =
  | { readonly kind: "fields"; readonly fields: readonly Field[] }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "empty" }
  | { readonly kind: "partial"; readonly text: string };

/** Longest value shown in full; longer ones are cut with an ellipsis (the card is not a JSON viewer). */
const MAX_VALUE = 160;

/**
 * Reads `json` for display. An object becomes one field per key, in order, with the key as a
 * label (`due_date` → `due date`) and each value on one line (strings as they are, `true` → `yes`,
 * a list of plain values joined with commas, anything nested as compact JSON). Text that does not
 * parse (a tool call's arguments while they stream) comes back as `partial`.
 *
 * @example
 * readableJson('{"title":"buy milk","done":false}')
 * // { kind: "fields", fields: [{ key: "title", label: "title", value: "buy milk" }, { key: "done", label: "done", value: "no" }] }
 */
export function readableJson(json: string): Readable {
  if (json.trim() === "") return { kind: "empty" };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { kind: "partial", text: json };
  }
  return readableValue(value);
}

/**
 * The same for a value already parsed.
 *
 * @example
 * readableValue({ removed: 2 }) // { kind: "fields", fields: [{ key: "removed", label: "removed", value: "2" }] }
 */
export function readableValue(value: unknown): Readable {
  if (value === null || value === undefined) return { kind: "empty" };
  if (isRecord(value)) {
    const fields = Object.entries(value).map(([key, inner]) => ({ key, label: labelOf(key), value: oneLine(inner) }));
    return fields.length === 0 ? { kind: "empty" } : { kind: "fields", fields };
  }
  return { kind: "text", text: oneLine(value) };
}

/**
 * A tool's name as a title: `add_task` → `Add task`, `searchWeb` → `Search web`.
 *
 * @example
 * toolTitle("complete_task") // "Complete task"
 */
export function toolTitle(name: string): string {
  const words = labelOf(name);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `due_date`, `due-date` and `dueDate` all read `due date`. */
function labelOf(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
}

function oneLine(value: unknown): string {
  return cut(plain(value));
}

function plain(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Array.isArray(value) && value.every((item) => item === null || typeof item !== "object")) {
    return value.length === 0 ? "none" : value.map(plain).join(", ");
  }
  return JSON.stringify(value);
}

function cut(text: string): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > MAX_VALUE ? `${flat.slice(0, MAX_VALUE - 1)}…` : flat;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
