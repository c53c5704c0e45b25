/** `GET {url}/capabilities` (docs/durability.md#stores-and-routes): what the agent can do, as `@ag-ui/core` 1.0.0's `AgentCapabilities`. */
import type { AgentCapabilities } from "../../protocol/capabilities";
import { identifyCaller } from "./admit";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";

/**
 * The capabilities a handler reports: the configured ones, with `transport.streaming: true` (every
 * answer is SSE) and `transport.resumable` set to whether a store is configured, whatever the
 * configuration said about those two.
 *
 * @example
 * capabilitiesOf({ identity: { name: "task-board" } }, true).transport; // { streaming: true, resumable: true }
 */
export function capabilitiesOf(configured: AgentCapabilities | undefined, resumable: boolean): AgentCapabilities {
  return { ...configured, transport: { ...configured?.transport, streaming: true, resumable } };
}

/**
 * Answers `GET` (and `HEAD`) with the capabilities as JSON; any other method gets 405 with
 * `Allow: GET, HEAD`. With `identify`, only an identified caller (401 otherwise, as on every
 * route: docs/threads.md#routes). Capabilities describe the agent, not a thread: `authorize` is not asked.
 *
 * @example
 * if (route.name === "capabilities") return serveCapabilities(request, context);
 */
export async function serveCapabilities(request: Request, context: HandlerContext): Promise<Response> {
  const { headers, capabilities } = context;
  if (request.method !== "GET" && request.method !== "HEAD") {
    return errorResponse(
      405,
      { error: "method-not-allowed", message: `expected GET for the capabilities, got ${request.method}` },
      { ...headers, Allow: "GET, HEAD" },
    );
  }
  const caller = await identifyCaller(context, request);
  if (caller instanceof Response) return caller;
  return new Response(request.method === "HEAD" ? null : JSON.stringify(capabilities), {
    status: 200,
    headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
