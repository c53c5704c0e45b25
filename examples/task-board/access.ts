/**
 * Who may use which thread in the task-board example (docs/durability.md#stores-and-routes, `authorize`): every thread
 * belongs to a bearer token. A thread's id starts with a digest of its owner's token, so the
 * decision needs nothing but the request and the id: it cannot depend on whether the thread
 * exists, and an unknown thread and another token's thread answer alike (403).
 */
import type { Authorize, Identify } from "../../src/server/http/createHandler";
import { ownerOf } from "../shared/threadOwner";

export { ownerOf, threadIdFor } from "../shared/threadOwner";

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
function bearerToken(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match?.[1];
}

/**
 * Allows a run, a connect or a stop only with a bearer token that owns the thread (its id starts
 * with the token's owner part); anything else is refused (403), whether the thread exists or not.
 *
 * @example
 * createHandler(agent, { store: memoryStore(), authorize: bearerThreadAccess });
 */
export const bearerThreadAccess: Authorize = async (request, access) => {
  // The list routes (with `bearerIdentity`): the handler already scoped them to the principal, the token's owner part.
  if (!("threadId" in access)) return bearerToken(request) !== undefined;
  const token = bearerToken(request);
  return token !== undefined && access.threadId.startsWith(`${await ownerOf(token)}.`);
};

/**
 * The principal of a request (`identify`, docs/threads.md#owners): the owner part of its bearer
 * token, the same digest that starts the ids of the token's threads; no token, no principal (401).
 * The pages keep the token in the browser profile's local storage, so every tab of one profile is
 * one principal: they share one thread list (docs/client.md#thread-list).
 *
 * @example
 * createHandler(agent, { store: memoryStore(), identify: bearerIdentity, authorize: bearerThreadAccess });
 */
export const bearerIdentity: Identify = async (request) => {
  const token = bearerToken(request);
  return token === undefined ? undefined : ownerOf(token);
};
