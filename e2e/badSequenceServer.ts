/**
 * Another team's AG-UI server, as far as the inspector can tell: plain `node:http` and the official
 * `@ag-ui/encoder` 1.0.0 `EventEncoder`, no code of this library. Every `POST /agent` answers one run
 * of the posted thread and run ids with an ordering mistake in it (a text message's content for a
 * message that was never started, and a second RUN_STARTED inside the run), so that the inspector's
 * findings have somewhere to show. Its RUN_STARTED names a trace id where an agui-rx server puts
 * one (`metadata["agui-rx"].traceId`), so the inspector's trace link shows too. It has no
 * `/capabilities` and no `/connect` (404, as a server without threads answers), so the inspector
 * sends runs from its own composer.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { EventEncoder } from "@ag-ui/encoder";
import type { BaseEvent } from "@ag-ui/core";

/** The trace id every run names. */
export const BAD_RUN_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

/** The events of one run, some out of order on purpose; the comments name the finding each causes. */
export function badRun(threadId: string, runId: string): readonly Record<string, unknown>[] {
  const message = `${runId}-m1`;
  return [
    { type: "RUN_STARTED", threadId, runId, metadata: { "agui-rx": { traceId: BAD_RUN_TRACE_ID } } }, // #0
    { type: "STEP_STARTED", stepName: "draft" }, // #1
    { type: "TEXT_MESSAGE_START", messageId: message, role: "assistant" }, // #2
    { type: "TEXT_MESSAGE_CONTENT", messageId: message, delta: "Hello from " }, // #3
    { type: "TEXT_MESSAGE_CONTENT", messageId: `${runId}-m9`, delta: "nowhere" }, // #4 R15: a message never started
    { type: "TEXT_MESSAGE_CONTENT", messageId: message, delta: "elsewhere." }, // #5
    { type: "TEXT_MESSAGE_END", messageId: message }, // #6
    { type: "STATE_SNAPSHOT", snapshot: { count: 1, notes: [] } }, // #7
    { type: "STATE_DELTA", delta: [{ op: "replace", path: "/count", value: 2 }] }, // #8
    { type: "RUN_STARTED", threadId, runId }, // #9 a second RUN_STARTED while the run is live
    { type: "STEP_FINISHED", stepName: "draft" }, // #10
    { type: "RUN_FINISHED", threadId, runId }, // #11
  ];
}

/** A running bad server: the endpoint's URL (`…/agent`), the runs it answered, and the way to stop it. */
export interface BadSequenceServer {
  readonly url: string;
  readonly runs: readonly { readonly threadId: string; readonly runId: string }[];
  close(): Promise<void>;
}

/** Options of {@link startBadSequenceServer}. */
export interface BadSequenceServerOptions {
  /**
   * Answer `GET /agent/capabilities` with `transport.resumable: true`, though `/connect` stays a
   * 404: a server that claims more than it serves, which the inspector finds out when it joins.
   */
  readonly claimResumable?: boolean | undefined;
}

/**
 * Starts the server on a free loopback port. `POST /agent` with a `RunAgentInput` answers
 * {@link badRun} of its thread and run ids; a body that is not one is a 400; anything else a 404
 * (the capabilities too, unless `claimResumable`).
 *
 * @example
 * const bad = await startBadSequenceServer();
 * await startInspectServer({ url: bad.url });
 */
export function startBadSequenceServer(options: BadSequenceServerOptions = {}): Promise<BadSequenceServer> {
  const runs: { threadId: string; runId: string }[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      if (options.claimResumable === true && req.method === "GET" && req.url === "/agent/capabilities") {
        res.writeHead(200, { "Content-Type": "application/json" }).end('{"transport":{"streaming":true,"resumable":true}}');
        return;
      }
      if (req.method !== "POST" || req.url !== "/agent") {
        res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
        return;
      }
      let input: { threadId?: unknown; runId?: unknown };
      try {
        input = JSON.parse(body) as { threadId?: unknown; runId?: unknown }; // only the two ids are read, and checked below
      } catch {
        input = {};
      }
      if (typeof input.threadId !== "string" || typeof input.runId !== "string") {
        res.writeHead(400, { "Content-Type": "text/plain" }).end("expected a RunAgentInput");
        return;
      }
      runs.push({ threadId: input.threadId, runId: input.runId });
      const encoder = new EventEncoder({ accept: req.headers.accept });
      res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
      // Broken on purpose, so typed as the encoder's base shape only.
      for (const event of badRun(input.threadId, input.runId)) res.write(encoder.encodeSSE(event as unknown as BaseEvent));
      res.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo; // a TCP listener's address is always an AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/agent`,
        runs,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
