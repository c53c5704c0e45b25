/** The proxy half of `agui-rx inspect`: one request from the inspector page passed on to the inspected endpoint, the answer streamed back. */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";

/**
 * Headers that belong to one connection rather than to the request (RFC 9110 §7.6.1), plus `host`
 * (the target's own is set from its URL) and the page's `origin` and `referer`: the proxy is the
 * client now, and a server with a CORS allow-list would refuse the inspector's loopback origin.
 */
const NOT_FORWARDED = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
  "origin",
  "referer",
]);

/**
 * `headers` without the ones {@link NOT_FORWARDED} names, nor any a `Connection` header lists, and
 * with `extra` set over them (the `--header` values win over the page's).
 *
 * @example
 * forwardedHeaders({ host: "127.0.0.1:4000", accept: "text/event-stream" }, { Authorization: "Bearer t" });
 * // { accept: "text/event-stream", authorization: "Bearer t" }
 */
export function forwardedHeaders(headers: IncomingHttpHeaders, extra: Readonly<Record<string, string>> = {}): OutgoingHttpHeaders {
  const listed = new Set(
    String(headers.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ""),
  );
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name) && !listed.has(name)) out[name] = value;
  }
  for (const [name, value] of Object.entries(extra)) out[name.toLowerCase()] = value;
  return out;
}

/**
 * The target URL of a proxied request: `rest` (the page's path below the proxy's mount, `""` or
 * `/connect`, `/threads/t1`, …) appended to `target`'s path, with the page's query if it has one,
 * else the target's own.
 *
 * @example
 * proxiedUrl("http://127.0.0.1:8000/agent?key=1", "/connect", "") // "http://127.0.0.1:8000/agent/connect?key=1"
 * proxiedUrl("http://127.0.0.1:8000/", "/capabilities", "")       // "http://127.0.0.1:8000/capabilities"
 */
export function proxiedUrl(target: string, rest: string, search: string): URL {
  const url = new URL(target);
  if (rest !== "" && rest !== "/") url.pathname = `${url.pathname.replace(/\/+$/, "")}${rest}`;
  if (search !== "") url.search = search;
  return url;
}

/**
 * Passes `req` on to `target` and streams the answer back into `res` as it arrives: status,
 * headers (less the connection's own) and body chunk by chunk, so an SSE stream reaches the page
 * frame by frame, never buffered. Backpressure holds on both legs (`pipe`); the page going away
 * (its request aborted, its response closed) aborts the target's request, so a run's stream never
 * outlives the tab that watched it. A target that cannot be reached is a `502` with the reason as
 * text; one that fails mid-body ends the page's response abruptly, as the target did.
 *
 * @example
 * createServer((req, res) => proxyRequest(req, res, proxiedUrl("http://127.0.0.1:8000/agent", "", ""), {}));
 */
export function proxyRequest(req: IncomingMessage, res: ServerResponse, target: URL, headers: Readonly<Record<string, string>>): void {
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  const upstream = send(target, { method: req.method, headers: forwardedHeaders(req.headers, headers) }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, forwardedHeaders(answer.headers));
    // An SSE answer must reach the page as the target writes it: send the headers now, not with the first chunk.
    res.flushHeaders();
    answer.pipe(res);
    // The target cut its answer short: so does the page's, rather than ending it as if it were whole.
    answer.on("error", () => res.destroy());
    answer.on("close", () => {
      if (!answer.complete) res.destroy();
    });
  });
  upstream.on("error", (error) => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502, { "content-type": "text/plain; charset=utf-8" }).end(`agui-rx inspect: ${req.method} ${target.href} failed: ${error.message}\n`);
  });
  // The page stopped listening (a closed tab, an aborted fetch): stop the target's stream too.
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
