/** What a failed request's ClientError says (issue #20 A3): whether a connection was made, and the Retry-After an answer asked for. */
import { ClientError } from "../../../src/thread/ClientError";
import { failedRequest, parseRetryAfter, provesNothingStarted, refusedAnswer } from "../../../src/client/transports/requestFailure";

const systemError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code });

describe("failedRequest", () => {
  test.each([
    ["ECONNREFUSED", "refused"],
    ["EHOSTUNREACH", "refused"],
    ["EAI_AGAIN", "refused"],
    ["UND_ERR_CONNECT_TIMEOUT", "refused"],
    ["ECONNRESET", undefined],
    ["ENOTFOUND", undefined],
  ])("Node's fetch failing with %s has code %s", (code, expected) => {
    const error = failedRequest("POST", "http://x/agent", new TypeError("fetch failed", { cause: systemError(code) }));
    expect({ kind: error.kind, code: error.code, message: error.message }).toEqual({
      kind: "transport",
      code: expected,
      message: `POST http://x/agent failed: fetch failed (connect ${code} 127.0.0.1:1)`,
    });
  });

  test("an AggregateError (one connect per address) is refused only when every address refused", () => {
    const all = new TypeError("fetch failed", { cause: new AggregateError([systemError("ECONNREFUSED"), systemError("ECONNREFUSED")], "connect failed") });
    const mixed = new TypeError("fetch failed", { cause: new AggregateError([systemError("ECONNREFUSED"), systemError("ECONNRESET")], "connect failed") });
    expect(failedRequest("POST", "u", all).code).toBe("refused");
    expect(failedRequest("POST", "u", mixed).code).toBeUndefined();
  });

  test("a browser's bare TypeError proves nothing (no code), an abort is `abort`", () => {
    expect(failedRequest("POST", "u", new TypeError("Failed to fetch")).code).toBeUndefined();
    expect(failedRequest("POST", "u", new DOMException("aborted", "AbortError")).code).toBe("abort");
  });
});

describe("refusedAnswer and parseRetryAfter", () => {
  const now = Date.parse("2026-12-02T03:00:00Z");

  test.each([
    ["1", 1000],
    [" 120 ", 120_000],
    ["Wed, 02 Dec 2026 03:00:05 GMT", 5000],
    ["Wed, 02 Dec 2026 02:59:00 GMT", 0],
    ["soon", undefined],
    ["-1", undefined],
  ])("Retry-After %j is %s ms", (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  test("a 503 answer keeps its status, body excerpt and Retry-After", async () => {
    const body = JSON.stringify({ error: "unavailable", message: "redis is restarting" });
    const response = new Response(body, { status: 503, statusText: "Service Unavailable", headers: { "Retry-After": "1" } });
    const error = refusedAnswer("POST", "http://x/agent", response, await response.text(), now);
    expect({ kind: error.kind, status: error.status, body: error.body, retryAfterMs: error.retryAfterMs }).toEqual({
      kind: "http",
      status: 503,
      body,
      retryAfterMs: 1000,
    });
    expect(provesNothingStarted(error)).toBe(true);
  });

  test("a 503 whose body is not the server's JSON refusal (a proxy's page, another code) proves nothing", () => {
    const page = new ClientError("http", "503", { status: 503, body: "<html>Service Unavailable</html>" });
    const other = new ClientError("http", "503", { status: 503, body: JSON.stringify({ error: "internal", message: "x" }) });
    expect([provesNothingStarted(page), provesNothingStarted(other)]).toEqual([false, false]);
  });
});
