/** The two checks every route makes once the request is read, in this order (docs/threads.md#owners): `identify`, then `authorize` with the principal. */
import { excerpt } from "../../protocol/describeFailure";
import type { StoreScope } from "../store/ThreadStore";
import { errorResponse } from "./errorResponse";
import type { HandlerContext } from "./HandlerContext";
import type { OneThreadAccess, ThreadAccess, ThreadListAccess } from "./ThreadAccess";

/**
 * Who a request acts as, once admitted: the principal `identify` returned (absent without
 * `identify`), and the scope every store call of the request passes.
 *
 * @example
 * await store.read(threadId, undefined, caller.scope);
 */
export interface Caller {
  readonly principal: string | undefined;
  readonly scope: StoreScope;
}

/**
 * Admits a request to one thread: asks `identify` (401 `unauthenticated` without a principal, 500
 * `internal` when it throws), then `authorize` with `access` and the principal (403 `forbidden`,
 * 500 when it throws); else the `Caller`. Neither looks at the store, so a refusal cannot depend
 * on whether the thread exists: to a caller without access, an unknown thread and a forbidden
 * one answer alike.
 *
 * @example
 * const caller = await admit(context, request, { action: "stop", threadId, runId });
 * if (caller instanceof Response) return caller;
 */
export async function admit(context: HandlerContext, request: Request, access: OneThreadAccess): Promise<Caller | Response> {
  const principal = await identifyRequest(context, request);
  if (principal instanceof Response) return principal;
  const refused = await authorizeAccess(context, request, principal === undefined ? access : { ...access, principal });
  return refused ?? { principal, scope: { owner: principal } };
}

/**
 * Admits a request to its principal's thread list (`list`, `events`): as `admit`, for a handler
 * with `identify` (the routes answer 404 without one, before this is asked).
 *
 * @example
 * const caller = await admitToList(context, request, "list");
 */
export async function admitToList(
  context: HandlerContext,
  request: Request,
  action: ThreadListAccess["action"],
): Promise<(Caller & { readonly principal: string }) | Response> {
  const principal = await identifyRequest(context, request);
  if (principal instanceof Response) return principal;
  if (principal === undefined) return unauthenticated(context);
  const refused = await authorizeAccess(context, request, { action, principal });
  return refused ?? { principal, scope: { owner: principal } };
}

/**
 * Identifies a request on a route that names no thread (`GET {url}/capabilities`): 401 or 500 as
 * `admit`, else the `Caller`; `authorize` is not asked.
 *
 * @example
 * const caller = await identifyCaller(context, request);
 * if (caller instanceof Response) return caller;
 */
export async function identifyCaller(context: HandlerContext, request: Request): Promise<Caller | Response> {
  const principal = await identifyRequest(context, request);
  return principal instanceof Response ? principal : { principal, scope: { owner: principal } };
}

/** The principal of `request`, `undefined` without `identify`, or the refusal (401, or 500 when `identify` throws). */
async function identifyRequest(context: HandlerContext, request: Request): Promise<string | undefined | Response> {
  if (context.identify === undefined) return undefined;
  let principal: string | undefined;
  try {
    principal = await context.identify(request);
  } catch (error) {
    const message = error instanceof Error ? error.message : excerpt(error);
    return errorResponse(500, { error: "internal", message: `identify failed before the request was served: ${message}` }, context.headers);
  }
  // An empty principal is a bug in `identify` more likely than a user: it would own every ownerless-looking thread.
  return typeof principal === "string" && principal !== "" ? principal : unauthenticated(context);
}

function unauthenticated(context: HandlerContext): Response {
  return errorResponse(401, { error: "unauthenticated", message: "expected credentials that identify the caller, but identify found none" }, context.headers);
}

/** `undefined` when `authorize` allows `access` (or there is none), else 403 `forbidden` naming the action (and the thread the caller sent), or 500 when it throws. */
async function authorizeAccess(context: HandlerContext, request: Request, access: ThreadAccess): Promise<Response | undefined> {
  if (context.authorize === undefined) return undefined;
  let allowed: boolean;
  try {
    allowed = await context.authorize(request, access);
  } catch (error) {
    const message = error instanceof Error ? error.message : excerpt(error);
    return errorResponse(500, { error: "internal", message: `authorize failed before the ${access.action} was served: ${message}` }, context.headers);
  }
  if (allowed === true) return undefined;
  const what = "threadId" in access ? `${access.action} on thread ${JSON.stringify(access.threadId)}` : `${access.action} the thread list`;
  return errorResponse(403, { error: "forbidden", message: `expected permission to ${what}, but authorize denied it` }, context.headers);
}
