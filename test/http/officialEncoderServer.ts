/**
 * A plain `node:http` AG-UI server that writes the interop corpus with the official
 * `@ag-ui/encoder` `EventEncoder` (content type and framing are the encoder's), routed by URL
 * path (`/text`, `/tool`, …). Nothing of ours is on the wire path except the corpus itself.
 * `?outcome=none` sends RUN_FINISHED without its outcome, as a producer older than 1.0.0 would
 * (no `pendingToolCallIds`: a client falls back to the calls without a result).
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { EventEncoder } from "@ag-ui/encoder";
import type { BaseEvent } from "@ag-ui/core";
import type { RunAgentInput } from "../../src/protocol/input";
import { SCENARIOS, scenarioEventList, type ScenarioName } from "./scenarios";

export interface OfficialServer {
  readonly url: string;
  close(): Promise<void>;
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      try {
        resolve(JSON.parse(body));
      } catch (error) {
        reject(error);
      }
    });
    req.on("error", reject);
  });
}

/** Starts the server on a free loopback port. */
export function startOfficialEncoderServer(): Promise<OfficialServer> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const name = url.pathname.slice(1);
    const withoutOutcome = url.searchParams.get("outcome") === "none";
    if (!(name in SCENARIOS)) {
      res.writeHead(404).end();
      return;
    }
    void readJson(req).then(async (body) => {
      // The official clients send a valid input; the corpus only reads ids, messages and resume.
      const events = await scenarioEventList(name as ScenarioName, body as RunAgentInput);
      const encoder = new EventEncoder({ accept: req.headers.accept });
      res.writeHead(200, { "Content-Type": encoder.getContentType(), "Cache-Control": "no-cache" });
      for (const event of events) {
        const sent = withoutOutcome && event.type === "RUN_FINISHED" ? { type: event.type, threadId: event.threadId, runId: event.runId } : event;
        res.write(encoder.encodeSSE(sent as BaseEvent)); // our events are plain JSON objects of the same shapes
      }
      res.end();
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
