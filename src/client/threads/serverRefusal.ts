/** The error of a refused request of the thread list (docs/client.md#thread-list): the status, and the server's JSON refusal (`{ error, message }`) read into its code and sentence. */
import { ClientError } from "../../thread/ClientError";
import { refusedAnswer } from "../transports/requestFailure";

/**
 * The `http` error of a non-2xx answer (`refusedAnswer`: status, the start of the body,
 * `retryAfterMs`); when the body is the server's JSON refusal (`{ error, message }`,
 * docs/threads.md#errors) its message names the code and says the server's sentence, and `code` is the code.
 *
 * @example
 * serverRefusal("PATCH", url, response, '{"error":"not-found","message":"no thread t9"}').message // "PATCH … answered 404 not-found: no thread t9"
 */
export function serverRefusal(method: string, url: string, response: Response, text: string): ClientError {
  const plain = refusedAnswer(method, url, response, text);
  const refusal = parseRefusal(text);
  if (refusal === undefined) return plain;
  const { status, body, retryAfterMs } = plain;
  return new ClientError("http", `${method} ${url} answered ${response.status} ${refusal.error}: ${refusal.message}`, {
    status,
    body,
    code: refusal.error,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** The server's `{ error, message }` in an error answer's body, or `undefined` for anything else (a proxy's page). */
function parseRefusal(text: string): { readonly error: string; readonly message: string } | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null) return undefined;
  const error: unknown = Reflect.get(json, "error");
  const message: unknown = Reflect.get(json, "message");
  return typeof error === "string" && typeof message === "string" ? { error, message } : undefined;
}
