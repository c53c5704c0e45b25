/** This library's own capability (docs/threads.md#the-anchor-rule): under `capabilities.custom["agui-rx"]`, who owns a thread's history. */
import type { AgentCapabilities } from "./capabilities";

/**
 * The key under `AgentCapabilities.custom` where an agui-rx server describes itself (AG-UI leaves
 * `custom` to implementations; a key of our own keeps clear of anyone else's).
 *
 * @example
 * capabilities.custom?.[CAPABILITIES_KEY]; // { history: "server" }
 */
export const CAPABILITIES_KEY = "agui-rx";

/**
 * Whether `capabilities` say the server owns the threads' history (`custom["agui-rx"].history`
 * is `"server"`): then a client may post only what is new, and the server fills in the rest.
 * Anything else (another server, no such key, a malformed value) is no.
 *
 * @example
 * serverOwnsHistory({ custom: { "agui-rx": { history: "server" } } }); // true
 */
export function serverOwnsHistory(capabilities: AgentCapabilities): boolean {
  const own: unknown = capabilities.custom?.[CAPABILITIES_KEY];
  return typeof own === "object" && own !== null && "history" in own && own.history === "server";
}
