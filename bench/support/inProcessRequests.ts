/** Requests to a handler called in process (`createHandler`'s fetch function, no socket), as the thread lanes make them. */

/**
 * A JSON `POST` to `http://bench.local/agent{path}` that accepts SSE.
 *
 * @example
 * await handler(post("/connect", { threadId: "t1", limit: 50 }));
 */
export function post(path: string, body: unknown): Request {
  return new Request(`http://bench.local/agent${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
}

/**
 * The answer's text, or an error naming `what` when it is not a 200: a lane that got no answer must not be timed.
 *
 * @example
 * const body = await okText(await handler(post("", input)), "run");
 */
export async function okText(response: Response, what: string): Promise<string> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${what}: expected 200, but got ${response.status}: ${text.slice(0, 300)}`);
  return text;
}
