/** `GET {url}/capabilities` (docs/durability.md#stores-and-routes): what the agent can do, as `@ag-ui/core` 1.0.0's `AgentCapabilities`. */
import type { AgentCapabilities } from "../../protocol/capabilities";
import { identifyCaller } from "./admit";
import { CAPABILITIES_KEY } from "../../protocol/historyCapability";
import type { HistoryMode } from "../history/HistoryMode";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";

/**
 * The capabilities a handler reports: the configured ones, with `transport.streaming: true` (every
 * answer is SSE) and `transport.resumable` set to whether a store is configured, whatever the
 * configuration said about those two; and with a store, under `custom["agui-rx"]`, who owns the
 * history (`history: "server"` or `"client"`, docs/threads.md#the-anchor-rule): a client reads it
 * to post only what is new; with `history: "server"` also the policies a post may ask for while a
 * run is live (`whileRunning`, docs/queue.md#policies).
 *
 * @example
 * capabilitiesOf({ identity: { name: "task-board" } }, true, "server").custom; // { "agui-rx": { history: "server", whileRunning: ["refuse", "queue", "steer", "interrupt"] } }
 */
export function capabilitiesOf(configured: AgentCapabilities | undefined, resumable: boolean, history: HistoryMode = "server"): AgentCapabilities {
  // docs/queue.md#policies: the policies a post may ask for while a run is live need the store to own the history.
  const policies = history === "server" ? { whileRunning: ["refuse", "queue", "steer", "interrupt"] } : {};
  const own = resumable ? { custom: { ...configured?.custom, [CAPABILITIES_KEY]: { history, ...policies } } } : {};
  return { ...configured, transport: { ...configured?.transport, streaming: true, resumable }, ...own };
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
