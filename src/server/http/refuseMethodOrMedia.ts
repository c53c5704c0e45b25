/** The first two refusals every POST route makes, in the same order and words (docs/durability.md#stores-and-routes): the method, then what the client accepts. */
import { acceptsEventStream } from "./acceptsEventStream";
import { errorResponse } from "./errorResponse";

/** What a route expects: its body, named in the 405's message, and whether it answers with an SSE stream (406 unless `Accept` allows it). */
export interface PostRoute {
  /** The body the route takes, as the 405 names it: "a RunAgentInput body", "a { threadId } body". */
  readonly body: string;
  readonly answersEventStream: boolean;
}

/**
 * 405 `method-not-allowed` (with `Allow: POST`) for a method other than POST; then, for a route
 * that answers with SSE, 406 `not-acceptable` when the `Accept` header does not allow
 * `text/event-stream`; else `undefined`, and the route goes on.
 *
 * @example
 * const refused = refuseMethodOrMedia(request, headers, { body: "a { threadId, runId } body", answersEventStream: false });
 * if (refused) return refused;
 */
export function refuseMethodOrMedia(request: Request, headers: Readonly<Record<string, string>>, route: PostRoute): Response | undefined {
  if (request.method !== "POST") {
    return errorResponse(
      405,
      { error: "method-not-allowed", message: `expected POST with ${route.body}, got ${request.method}` },
      { ...headers, Allow: "POST" },
    );
  }
  const accept = request.headers.get("accept");
  if (route.answersEventStream && !acceptsEventStream(accept)) {
    return errorResponse(406, { error: "not-acceptable", message: `this endpoint answers only text/event-stream, but Accept allows only ${accept}` }, headers);
  }
  return undefined;
}
