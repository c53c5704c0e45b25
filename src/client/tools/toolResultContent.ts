/**
 * The content of the tool messages a client tool answers with (docs/tools.md § results), in one
 * place: the same format as the `agui-rx/ai` mapping, so a model sees client and server tool
 * results alike.
 */

/**
 * The content of a successful result: a string as it is, `undefined` (a tool that returns
 * nothing) as `""`, anything else JSON-encoded. Throws a `TypeError` naming what was returned when
 * the value has no JSON form (a function, a symbol, a BigInt, a cycle).
 *
 * @example
 * successContent("14:05"); // "14:05"
 * successContent({ time: "14:05" }); // '{"time":"14:05"}'
 */
export function successContent(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (cause) {
    throw new TypeError(`expected a JSON value, but encoding it failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  if (text === undefined) throw new TypeError(`expected a JSON value, but got a ${typeof value}`);
  return text;
}

/**
 * The content of an error result: `{"error": message}`, as `agui-rx/ai` reports tool errors; the
 * tool message's `error` member carries the same text.
 *
 * @example
 * errorContent("offline"); // '{"error":"offline"}'
 */
export function errorContent(message: string): string {
  return JSON.stringify({ error: message });
}
