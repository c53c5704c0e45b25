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
