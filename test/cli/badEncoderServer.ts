/**
 * A plain `node:http` AG-UI server that writes deliberately broken event sequences with the official
 * `@ag-ui/encoder` `EventEncoder`, for the conformance checker's tests. Routed by path; each route's
 * events are listed here with the finding each is expected to cause.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { EventEncoder } from "@ag-ui/encoder";
import type { BaseEvent } from "@ag-ui/core";

/** The raw events of each route: plain JSON objects, some of them invalid on purpose. */
export const BAD_SEQUENCES: Readonly<Record<string, readonly Record<string, unknown>[]>> = {
  /** One of each stage's findings, at known indices. */
  "/bad": [
    { type: "RUN_STARTED", threadId: "t", runId: "r" }, // #0
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m9", delta: "orphan" }, // #1 R15: never started
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" }, // #2
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "Hello" }, // #3
    { type: "HOLOGRAM", payload: 1 }, // #4 decode unknown-type
    { type: "TEXT_MESSAGE_END", messageId: "m1" }, // #5
    { type: "STATE_SNAPSHOT", snapshot: { tasks: [] } }, // #6
    { type: "STATE_DELTA", delta: [{ op: "remove", path: "/missing" }] }, // #7 apply: the patch does not apply
    { type: "TOOL_CALL_CHUNK", delta: "{}" }, // #8 C5: a chunk continuing nothing
    { type: "RUN_FINISHED", threadId: "t", runId: "r" }, // #9
    { type: "TEXT_MESSAGE_START", messageId: "m2", role: "assistant" }, // #10 R3: after RUN_FINISHED
  ],
  /** Well-formed events, but the stream stops inside a message: truncated (E8). */
  "/truncated": [
    { type: "RUN_STARTED", threadId: "t", runId: "r" },
    { type: "TEXT_MESSAGE_START", messageId: "m1", role: "assistant" },
    { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: "and then" },
  ],
};

export interface BadServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port; `/not-sse` answers JSON, anything unknown 404. */
export function startBadEncoderServer(): Promise<BadServer> {
  const server = createServer((req, res) => {
    req.resume(); // the input is not needed
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/not-sse") {
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"hello":"world"}');
      return;
    }
    const events = BAD_SEQUENCES[path];
    if (events === undefined) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("no such agent");
      return;
    }
    const encoder = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
    // The encoder serializes what it is given; these are broken on purpose, so typed as the base shape only.
    for (const event of events) res.write(encoder.encodeSSE(event as unknown as BaseEvent));
    res.end();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo; // a TCP listener's address is always an AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
