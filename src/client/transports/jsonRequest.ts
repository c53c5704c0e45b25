/** One JSON request of `HttpTransport` beside its event streams (`/history`, docs/threads.md#in-the-client; the thread list's routes, docs/client.md#thread-list), and its answer decoded. */
import * as E from "../../protocol/either";
import type * as t from "io-ts";
import { describeFailure, excerpt } from "../../protocol/describeFailure";
import { ClientError } from "../../thread/ClientError";
import { failedRequest, refusedAnswer } from "./requestFailure";

/**
 * What one JSON request sends.
 *
 * @example
 * const request: JsonRequest = { method: "POST", url, headers: {}, body: JSON.stringify({ threadId: "t1", before: "m51", limit: 50 }), fetch };
 */
export interface JsonRequest {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly fetch: typeof fetch;
}

/**
 * Sends `request` (`Accept: application/json`, and `Content-Type: application/json` with a body)
 * and resolves the answer's text when it is 2xx. Rejects with a `ClientError`: `transport` when
 * no answer came (`failedRequest`), `http` for any other status (made by `refuse`: by default
 * `refusedAnswer`, which quotes the status and the start of the body; the thread list passes
 * `serverRefusal`, which also reads the server's code).
 *
 * @example
 * const text = await sendJson({ method: "DELETE", url: `${base}/threads/t1`, headers: {}, fetch }); // "" (204)
 */
export async function sendJson(request: JsonRequest, refuse: typeof refusedAnswer = refusedAnswer): Promise<string> {
  const { method, url, body } = request;
  const headers: Record<string, string> = { ...request.headers, Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    // Called as a plain function: a browser's fetch called as a method of another object throws "Illegal invocation".
    const send = request.fetch;
    response = await send(url, body === undefined ? { method, headers } : { method, headers, body });
  } catch (cause) {
    throw failedRequest(method, url, cause);
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) throw refuse(method, url, response, text);
  return text;
}

/**
 * `text` parsed as JSON and decoded with `codec`: a `json` ClientError when it is not JSON, a
 * `decode` one naming the first bad member and what it held otherwise.
 *
 * @example
 * const page = decodeJson(HistoryPage, text, `POST ${url}`);
 */
export function decodeJson<A>(codec: t.Decoder<unknown, A> & { readonly name: string }, text: string, what: string): A {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ClientError("json", `${what} answered what is not JSON: ${text.slice(0, 80)}`, { cause });
  }
  const decoded = codec.decode(json);
  if (E.isRight(decoded)) return decoded.right;
  const { path, expected, actual } = describeFailure(decoded.left);
  throw new ClientError("decode", `${what} answered what is not a ${codec.name}: at ${path || "/"} expected ${expected}, but got ${excerpt(actual)}`, {
    cause: decoded.left,
  });
}
