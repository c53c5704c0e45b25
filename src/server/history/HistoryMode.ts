/** Who owns a stored thread's history (docs/threads.md#the-anchor-rule): the store, or the client as in plain AG-UI. */

/**
 * `server` (the default with a store): the store is the source of truth; a post is read against
 * the stored path, filled in from it and refused when it forges or diverges. `client`: the post
 * is the history, as without a store (the handler trusts the client to send it whole and true).
 *
 * @example
 * createHandler(agent, { store, history: "client" });
 */
export type HistoryMode = "server" | "client";

/**
 * The key under `capabilities.custom` where this library's server describes itself; `history`
 * there is `"server"` when the server owns threads' history (then a client may post only what is
 * new).
 *
 * @example
 * const owned = capabilities.custom?.[CAPABILITIES_KEY]; // { history: "server" }
 */
export const CAPABILITIES_KEY = "agui-rx";
