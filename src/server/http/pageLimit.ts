/** The `limit` of a page a client asks for (docs/threads.md#paginated-history): a whole number from 1 to the handler's `maxPageSize`. */
import { errorResponse } from "./errorResponse";

/**
 * The default `maxPageSize`: the largest page of threads or messages one request may ask for.
 * A thousand rows of a list or messages of a chat is more than a screen shows and still a small
 * answer; a client wanting more asks again with the cursor.
 *
 * @example
 * createHandler(agent, { store, maxPageSize: DEFAULT_MAX_PAGE_SIZE / 2 });
 */
export const DEFAULT_MAX_PAGE_SIZE = 1000;

/**
 * `undefined` when `limit` is a whole number from 1 to `max`, else 400 `invalid-input` naming
 * what arrived, the bounds, and `path` (the JSON Pointer of the member, or the query parameter).
 *
 * @example
 * const refused = refuseLimit(body.limit, context.maxPageSize, "/limit", context.headers);
 * if (refused) return refused;
 */
export function refuseLimit(limit: number, max: number, path: string, headers: Readonly<Record<string, string>>): Response | undefined {
  if (Number.isInteger(limit) && limit >= 1 && limit <= max) return undefined;
  const message = `expected a limit from 1 to ${max} (maxPageSize), but got ${Number.isNaN(limit) ? "not a number" : String(limit)}`;
  return errorResponse(400, { error: "invalid-input", message, path }, headers);
}
