/** The JSON answer of a route that succeeded (a page, a row), beside `errorResponse` for the refusals. */

/**
 * A JSON answer (`Content-Type: application/json`, `Cache-Control: no-store`: a thread list or a
 * page is one principal's and changes) with the handler's extra headers.
 *
 * @example
 * return jsonResponse(200, page, context.headers);
 */
export function jsonResponse(status: number, body: unknown, headers: Readonly<Record<string, string>>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...headers, "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
