/** Splits a session's tools into what goes on the wire and the client tools it executes (docs/tools.md). */
import type { Tool } from "../../protocol/input";
import { isClientTool, type ClientTool } from "./clientTool";
import { ClientToolError } from "./ClientToolError";

/**
 * A session's tools, resolved once.
 *
 * @example
 * const { wire, client } = resolveTools([getTime, { name: "open_url", description: "Opens a page" }]);
 */
export interface ResolvedTools {
  /** Every tool's wire form, in the given order: `RunAgentInput.tools`. */
  readonly wire: readonly Tool[];
  /** The client tools by name: the ones the session executes. */
  readonly client: ReadonlyMap<string, ClientTool>;
}

/**
 * Resolves a list of `ClientTool`s and plain wire `Tool`s: the wire list (a client tool as its
 * `tool`, a plain tool as it is) and the client tools by name. Two tools with one name throw a
 * `ClientToolError` coded `invalid-tool` naming it, since a model could not tell them apart.
 *
 * @example
 * const { wire, client } = resolveTools(options.tools ?? []);
 * transport.run({ ...input, tools: [...wire] });
 */
export function resolveTools(tools: readonly (Tool | ClientTool)[]): ResolvedTools {
  const wire: Tool[] = [];
  const client = new Map<string, ClientTool>();
  const seen = new Set<string>();
  for (const entry of tools) {
    const offered = isClientTool(entry) ? entry.tool : entry;
    if (seen.has(offered.name)) {
      throw new ClientToolError(`expected tool names to be unique, but "${offered.name}" is offered twice`, { code: "invalid-tool", toolName: offered.name });
    }
    seen.add(offered.name);
    wire.push(offered);
    if (isClientTool(entry)) client.set(entry.name, entry);
  }
  return { wire, client };
}
