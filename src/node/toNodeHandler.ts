/** Adapts a fetch-style handler to `node:http`'s `(req, res)`, with backpressure and disconnect handling. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

import { directSourceOf, type ChunkSink, type DirectSource } from "../server/http/DirectBody";
import type { FetchHandler } from "../server/http/HandlerOptions";

// One FetchHandler for the package (docs/architecture.md § Public surface: one meaning per name): `agui-rx/node` re-exports `agui-rx/server`'s.
export type { FetchHandler };

/** A `node:http` request listener; Express and Connect accept it as middleware too. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Wraps `handler` for `http.createServer`, Express (`app.post("/agent", toNodeHandler(h))`) or
 * Fastify (`reply.hijack(); await nodeHandler(request.raw, reply.raw)`).
 *
 * - The Request gets the method, the absolute URL (from `Host`), all headers, and the body as a
 *   stream. When a body parser already consumed the stream and left `req.body`, that value is sent
 *   as JSON instead (a string or Buffer as it is).
 * - The Response's status and headers are written and flushed at once (an SSE client sees the
 *   headers before the first event), then its body is copied chunk by chunk: while `res.write`
 *   returns false no further chunk is pulled from the body, until `drain`. So a slow client slows
 *   the run instead of filling memory. A body that fails meanwhile (an idle-write timeout) cuts
 *   the connection at once, with what the socket still held for the client.
 * - The socket closing before the response ended aborts the Request's signal and cancels the body
 *   reader; with `createHandler` either one unsubscribes the run, which aborts the agent.
 * - A handler that throws before answering becomes a 500 with a JSON body.
 *
 * @example
 * http.createServer(toNodeHandler(createHandler(agentRun))).listen(8000, "127.0.0.1");
 */
export function toNodeHandler(handler: FetchHandler): NodeHandler {
  return async (req, res) => {
    const controller = new AbortController();
    const onClose = (): void => {
      if (!res.writableFinished) controller.abort(new DOMException("the client closed the connection", "AbortError"));
    };
    res.on("close", onClose);
    try {
      const response = await handler(toRequest(req, controller.signal));
      if (controller.signal.aborted) {
        await response.body?.cancel().catch(() => undefined);
        return;
      }
      await writeResponse(response, res, controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (!res.headersSent) {
        const message = error instanceof Error ? error.message : String(error);
        res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
        res.end(JSON.stringify({ error: "internal", message: `the handler failed: ${message}` }));
      } else {
        // Mid-stream there is no status left to change; cutting the connection tells the client.
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      }
    } finally {
      res.off("close", onClose);
    }
  };
}

/** The fetch Request for a node request. */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? "localhost";
  const secure = "encrypted" in req.socket && req.socket.encrypted === true;
  const url = new URL(req.url ?? "/", `${secure ? "https" : "http"}://${host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD") {
    const parsed = parsedBody(req);
    if (parsed !== undefined) {
      init.body = parsed;
      headers.delete("content-length");
    } else {
      // A stream body needs half duplex in undici; `toWeb` reads as the handler pulls, so the
      // body size limit stops the upload early.
      init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>; // node's web stream type is the DOM one at run time
      init.duplex = "half";
    }
  }
  return new Request(url, init);
}

/** The body a parser (express.json(), …) left on `req.body` after consuming the stream, as bytes or text. */
function parsedBody(req: IncomingMessage): string | Uint8Array<ArrayBuffer> | undefined {
  const body: unknown = (req as IncomingMessage & { body?: unknown }).body; // set by body parsers, not by node
  if (body === undefined || !req.readableEnded) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return new Uint8Array(body);
  return JSON.stringify(body);
}

/** Writes status, headers and body, pulling the next chunk only when the socket takes more. */
async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  res.writeHead(response.status, response.statusText || undefined, headers);
  res.flushHeaders();

  if (response.body === null) {
    res.end();
    return;
  }
  // Our own event streams are pulled directly (one promise per read, not the web stream's five);
  // the reader is held either way: it locks the body, and cancelling it cancels the source.
  const source = directSourceOf(response.body);
  const reader = response.body.getReader();
  const cancel = (): void => {
    reader.cancel().catch(() => undefined);
  };
  signal.addEventListener("abort", cancel, { once: true });
  // A body can fail while a write waits for `drain` (an idle-write timeout: the client took nothing):
  // then the wait ends with the body's error, which cuts the connection, instead of lasting as long as the socket.
  const failed = reader.closed.then(
    () => new Promise<never>(() => undefined), // ended well: the next read says so
    (error: unknown) => ({ error }),
  );
  const room = async (): Promise<void> => {
    const failure = await Promise.race([drained(res, signal), failed]);
    if (failure !== undefined) throw failure.error instanceof Error ? failure.error : new Error(`the response body failed: ${String(failure.error)}`);
  };
  try {
    if (source !== undefined) await pullDirectly(source, res, signal, room);
    else
      for (;;) {
        const { done, value } = await reader.read();
        if (done || signal.aborted) break;
        if (!res.write(value)) await room();
      }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
  if (!signal.aborted) res.end();
}

/** Copies a body's source to `res` pull by pull until it ends or `signal` aborts, waiting for `room` whenever the socket's buffer is full. */
async function pullDirectly(source: DirectSource, res: ServerResponse, signal: AbortSignal, room: () => Promise<void>): Promise<void> {
  const chunks: Uint8Array[] = [];
  let ended = false;
  const sink: ChunkSink = { enqueue: (chunk) => void chunks.push(chunk), close: () => void (ended = true) };
  while (!ended) {
    await source.pull(sink);
    if (signal.aborted) return;
    let full = false;
    for (const chunk of chunks) full = !res.write(chunk) || full;
    chunks.length = 0;
    if (full && !ended) await room();
  }
}

/** Resolves on `drain`, or when the connection closes (then the abort takes over). */
function drained(res: ServerResponse, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      signal.removeEventListener("abort", done);
      resolve();
    };
    res.on("drain", done);
    signal.addEventListener("abort", done, { once: true });
  });
}
