/** The error of a refused request of the thread list (docs/client.md#thread-list): the status, and the server's JSON refusal (`{ error, message }`) read into its code and sentence. */
import { ClientError } from "../../thread/ClientError";
import { refusalOf, refusedAnswer } from "../transports/requestFailure";

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
  const refusal = refusalOf(text);
  if (refusal === undefined) return plain;
  const { status, body, retryAfterMs } = plain;
  return new ClientError("http", `${method} ${url} answered ${response.status} ${refusal.error}: ${refusal.message}`, {
    status,
    body,
    code: refusal.error,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}
