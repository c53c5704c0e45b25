/** HttpTransport against a real loopback node:http server. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { firstValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { encodeSse } from "../../../src/wire/encodeSse";
import { ClientError } from "../../../src/thread/ClientError";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { collect, counter, endOf, errorsOf, expectRunEndContract } from "../support";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Loopback {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

async function serve(handler: Handler): Promise<Loopback> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo; // listen(0, host) gives an AddressInfo
  return {
    url: `http://127.0.0.1:${port}/agent`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const open: Loopback[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((loopback) => loopback.close()));
});
async function loopback(handler: Handler): Promise<Loopback> {
  const result = await serve(handler);
  open.push(result);
  return result;
}

const sseHeaders = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" };

function errorOf(promise: Promise<unknown>): Promise<ClientError> {
  return promise.then(
    () => {
      throw new Error("expected the stream to error");
    },
    (error: unknown) => {
      if (!(error instanceof ClientError)) throw error;
      return error;
    },
  );
}

describe("HttpTransport", () => {
  it("POSTs the input as JSON with per-run headers and streams the SSE events, split anywhere", async () => {
    const seen: { headers: IncomingMessage["headers"]; body: unknown }[] = [];
    const events: Event[] = [
      ev.runStarted("t1", "r1"),
      ev.textMessageStart("m1"),
      ev.textMessageContent("m1", "héllo ✓"),
      ev.textMessageEnd("m1"),
      ev.runFinished("t1", "r1"),
    ];
    const server = await loopback((req, res, body) => {
      seen.push({ headers: req.headers, body: JSON.parse(body) });
      res.writeHead(200, sseHeaders);
      const bytes = Buffer.from(events.map((event) => encodeSse(event)).join(""), "utf8");
      // odd-sized writes cut frames and a multi-byte character
      for (let i = 0; i < bytes.length; i += 7) res.write(bytes.subarray(i, i + 7));
      res.end();
    });
    let calls = 0;
    const transport = new HttpTransport(server.url, { headers: () => ({ Authorization: `Bearer token-${++calls}` }) });
    const input = runAgentInput("t1", "r1");
    const received = await firstValueFrom(transport.run(input).pipe(toArray()));
    expect(received).toEqual(events);
    await firstValueFrom(transport.run(input).pipe(toArray()));

    expect(seen[0].headers["content-type"]).toBe("application/json");
    expect(seen[0].headers.accept).toBe("text/event-stream");
    expect(seen[0].headers.authorization).toBe("Bearer token-1");
    expect(seen[1].headers.authorization).toBe("Bearer token-2");
    expect(seen[0].body).toEqual(input);
  });

  it("calls fetch as a plain function, as a browser's fetch demands (a method call on another object is an Illegal invocation)", async () => {
    const { url } = await loopback((req, res) => {
      if (req.url !== "/agent") {
        res.writeHead(404, { "Content-Type": "application/json" });
        res.end('{"error":"not-found","message":"no such route"}');
        return;
      }
      res.writeHead(200, sseHeaders);
      res.end(encodeSse(ev.runStarted("t", "r1")) + encodeSse(ev.runFinished("t", "r1")));
    });
    const thisOfCalls: unknown[] = [];
    // What Chromium's window.fetch does: any receiver but the global (or none) is refused before a request is made.
    const brandChecked = function (this: unknown, input: string | URL | Request, init?: RequestInit): Promise<Response> {
      thisOfCalls.push(this);
      if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError("Failed to execute 'fetch' on 'Window': Illegal invocation"));
      return fetch(input, init);
    };
    const transport = new HttpTransport(url, { fetch: brandChecked });
    const events = await firstValueFrom(transport.run(runAgentInput("t", "r1")).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    expect(await transport.stop({ threadId: "t", runId: "r1" })).toBe("unavailable"); // this server has no /stop: 404
    await expect(transport.capabilities()).rejects.toMatchObject({ kind: "http" });
    expect(thisOfCalls).toEqual([undefined, undefined, undefined]);
  });

  it("unsubscribing aborts the request: the server sees the connection close", async () => {
    let closed!: Promise<void>;
    const server = await loopback((_req, res) => {
      closed = new Promise((resolve) => res.on("close", () => resolve()));
      res.writeHead(200, sseHeaders);
      res.write(encodeSse(ev.runStarted("t1", "r1"))); // and never ends
    });
    const transport = new HttpTransport(server.url);
    const first = new Promise<Event>((resolve) => {
      const subscription = transport.run(runAgentInput("t1", "r1")).subscribe((event) => {
        subscription.unsubscribe();
        resolve(event);
      });
    });
    expect((await first).type).toBe("RUN_STARTED");
    await closed;
  });

  it("a non-2xx answer is an http error with the status and the start of the body", async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: "database on fire" }) + "x".repeat(2000));
    });
    const error = await errorOf(firstValueFrom(new HttpTransport(server.url).run(runAgentInput("t", "r"))));
    expect(error.kind).toBe("http");
    expect(error.status).toBe(500);
    expect(error.body).toContain("database on fire");
    expect((error.body ?? "").length).toBeLessThan(600);
    expect(error.message).toContain("500");
  });

  it("a refused connection is a transport error with code refused; retried, it says how many tries were made", async () => {
    const gone = await serve(() => undefined);
    await gone.close();
    const once = await errorOf(firstValueFrom(new HttpTransport(gone.url, { retry: false }).run(runAgentInput("t", "r"))));
    expect([once.kind, once.code]).toEqual(["transport", "refused"]);
    expect(once.message).toContain(gone.url);
    const retried = await errorOf(firstValueFrom(new HttpTransport(gone.url, { retry: { count: 2, delay: 0 } }).run(runAgentInput("t", "r"))));
    expect([retried.kind, retried.code]).toEqual(["transport", "refused"]);
    expect(retried.message).toMatch(
      /^POST \S+ was tried 3 times without an answer to go on with; the last: POST \S+ failed: fetch failed \(connect ECONNREFUSED/,
    );
  });

  it("a response that is not text/event-stream is a decode error", async () => {
    const server = await loopback((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end("<html>login</html>");
    });
    const error = await errorOf(firstValueFrom(new HttpTransport(server.url).run(runAgentInput("t", "r"))));
    expect(error.kind).toBe("decode");
    expect(error.message).toContain("text/html");
    expect(error.message).toContain("text/event-stream");
  });

  it("through a Session: every failure is an error update and a failed end; a good stream ends success", async () => {
    const server = await loopback((req, res, body) => {
      if (req.method !== "POST") {
        // a cut before the answer makes the transport ask once whether the server resumes: it does not
        res.writeHead(404);
        res.end();
        return;
      }
      const input = JSON.parse(body) as { threadId: string; runId: string }; // the session's own RunAgentInput
      if (req.headers["x-mode"] === "fail") {
        res.writeHead(503);
        res.end("busy");
        return;
      }
      res.writeHead(200, sseHeaders);
      res.write(encodeSse(ev.runStarted(input.threadId, input.runId)));
      if (req.headers["x-mode"] === "cut") {
        res.destroy(); // mid-stream death
        return;
      }
      res.end(encodeSse(ev.runFinished(input.threadId, input.runId)));
    });
    let mode = "ok";
    const session = new Session(new HttpTransport(server.url, { headers: () => ({ "x-mode": mode }) }), { threadId: "t", newId: counter() });
    expect(endOf(await collect(session.send("a")))).toEqual({ kind: "success" });
    mode = "fail";
    const failed = await collect(session.send("b"));
    expectRunEndContract(failed);
    expect(errorsOf(failed)[0]).toMatchObject({ kind: "http", status: 503, body: "busy" });
    mode = "cut";
    const cut = await collect(session.send("c"));
    expectRunEndContract(cut);
    expect(["transport", "decode"]).toContain(errorsOf(cut)[0].kind);
    expect(session.messages.map((message) => message.content)).toEqual(["a", "b", "c"]);
  });
});

describe("HttpTransport over real loopback: truncation (A7), the nesting limit (C2), warnings in-band (A1)", () => {
  /** A server answering each run with `body(input)` as raw SSE text, then ending the response. */
  async function answering(body: (input: { threadId: string; runId: string }) => string): Promise<string> {
    const server = await loopback((_req, res, request) => {
      res.writeHead(200, sseHeaders);
      res.end(body(JSON.parse(request) as { threadId: string; runId: string })); // the session's own RunAgentInput
    });
    return server.url;
  }
  const frames = (...events: Event[]) => events.map((event) => encodeSse(event)).join("");

  it("a body that ends after RUN_FINISHED's data line but before its blank line loses that frame: failed, code truncated", async () => {
    const url = await answering(
      ({ threadId, runId }) =>
        frames(ev.runStarted(threadId, runId), ev.textMessageStart("m1"), ev.textMessageContent("m1", "kept"), ev.textMessageEnd("m1")) +
        `data: ${JSON.stringify(ev.runFinished(threadId, runId))}\n`,
    );
    const session = new Session(new HttpTransport(url), { threadId: "t", newId: counter() });
    const updates = await collect(session.send("go"));
    expectRunEndContract(updates);
    expect(endOf(updates)).toMatchObject({ kind: "failed", code: "truncated" });
    expect(errorsOf(updates)[0]).toMatchObject({ kind: "decode", code: "truncated" });
    expect(session.messages.map((message) => message.content)).toEqual(["go", "kept"]); // what arrived stays (E6)
  });

  it("a cut inside a frame's JSON is named truncated mid-frame, not 'SSE data is not JSON'", async () => {
    const url = await answering(({ threadId, runId }) => frames(ev.runStarted(threadId, runId)) + 'data: {"type":"TEXT_MESSAGE_START","messa');
    const updates = await collect(new Session(new HttpTransport(url), { threadId: "t", newId: counter() }).send("go"));
    const [error] = errorsOf(updates);
    expect([error.kind, error.code]).toEqual(["decode", "truncated"]);
    expect(error.message).toContain("truncated mid-frame");
    expect(error.message).not.toContain("not JSON");
  });

  it("JSON deeper than maxDepth is a decode error naming the path and the limit, never a RangeError", async () => {
    const url = await answering(
      ({ threadId, runId }) =>
        frames(ev.runStarted(threadId, runId)) + `data: {"type":"TEXT_MESSAGE_START","messageId":${"[".repeat(100_000)}${"]".repeat(100_000)}}\n\n`,
    );
    const updates = await collect(new Session(new HttpTransport(url), { threadId: "t", newId: counter() }).send("go"));
    const [error] = errorsOf(updates);
    expect([error.kind, error.code]).toEqual(["decode", "too-deep"]);
    expect(error.message).toContain("deeper than 512 levels");
    expect(error.message).toContain("/messageId/0/0");
    expect(error.message).not.toMatch(/RangeError|call stack/);

    const strict = await answering(({ threadId, runId }) => frames(ev.runStarted(threadId, runId), ev.stateSnapshot({ a: { b: { c: 1 } } })));
    const limited = await collect(new Session(new HttpTransport(strict, { maxDepth: 3 }), { threadId: "t", newId: counter() }).send("go"));
    expect(errorsOf(limited)[0]).toMatchObject({ kind: "decode", code: "too-deep", message: expect.stringContaining("deeper than 3 levels") });
  });

  it("stripped material arrives as in-band warnings when asked for (the Session asks), and is stripped silently otherwise", async () => {
    const url = await answering(({ threadId, runId }) => `data: ${JSON.stringify({ ...ev.runStarted(threadId, runId), vendor: 1 })}\n\n`);
    const transport = new HttpTransport(url);
    const withWarnings = await firstValueFrom(transport.run(runAgentInput("t", "r"), { warnings: true }).pipe(toArray()));
    expect(withWarnings).toEqual([expect.objectContaining({ kind: "warning", code: "unknown-property", path: "/vendor", index: 0 }), ev.runStarted("t", "r")]);
    expect(await firstValueFrom(transport.run(runAgentInput("t", "r")).pipe(toArray()))).toEqual([ev.runStarted("t", "r")]);
  });
});
