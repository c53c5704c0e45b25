import { request as httpRequest } from "node:http";
import { Observable, from, throwError, concat } from "rxjs";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { createHandler, type RunFunction } from "../../src/server/http/createHandler";
import { serve, type Served } from "../../src/node/serve";
import type { Agent } from "../../src/server/Agent";
import { parseSseBody, validBody, openPost, within } from "./loopback";

const of = (...events: Event[]): Observable<Event> => from(events);

const twoEvents: RunFunction = (input) =>
  of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId, { outcome: { type: "success" } }));

let server: Served;
afterEach(async () => {
  await server?.close();
});

async function post(init: { method?: string; headers?: Record<string, string>; body?: string }, handler = createHandler(twoEvents)) {
  server = await serve(handler);
  const response = await fetch(server.url, {
    method: init.method ?? "POST",
    headers: init.headers ?? { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: init.body,
  });
  const text = await response.text();
  return { response, text };
}

describe("createHandler over loopback HTTP", () => {
  it("streams the run's events as SSE with no-cache and no proxy buffering", async () => {
    const { response, text } = await post({ body: validBody });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(text).toBe(
      'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n' +
        'data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1","outcome":{"type":"success"}}\n\n',
    );
  });

  it("answers 400 naming the JSON error for a body that is not JSON", async () => {
    const { response, text } = await post({ headers: { "Content-Type": "application/json" }, body: '{"threadId": ' });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = JSON.parse(text);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- the error body is JSON whose members are asserted right here
    expect(body.error).toBe("invalid-json");
    // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- the error body is JSON whose members are asserted right here
    expect(body.message).toMatch(/expected a JSON RunAgentInput body/);
  });

  it("answers 400 naming the member's path for JSON that is not a RunAgentInput", async () => {
    // A malformed known value (a role that is not a string). An unknown role string is unrecognised
    // material that AG-UI 1.1 strips (the message is dropped), not a reason to refuse the input.
    const bad = JSON.stringify({ threadId: "t1", runId: "r1", messages: [{ id: "u1", role: 42, content: "hi" }] });
    const { response, text } = await post({ headers: { "Content-Type": "application/json" }, body: bad });
    expect(response.status).toBe(400);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ error: "invalid-input", path: "/messages/0/role" });
    // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- the error body is JSON whose members are asserted right here
    expect(body.message).toContain("42");
  });

  it("answers 405 with Allow: POST for another method", async () => {
    const { response, text } = await post({ method: "GET" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
    expect(JSON.parse(text)).toMatchObject({ error: "method-not-allowed", message: expect.stringContaining("GET") });
  });

  it("answers 415 for a body that is not JSON by its content type", async () => {
    const { response, text } = await post({ headers: { "Content-Type": "text/plain" }, body: validBody });
    expect(response.status).toBe(415);
    expect(JSON.parse(text)).toMatchObject({ error: "unsupported-media-type", message: expect.stringContaining("text/plain") });
  });

  it("answers 406 when Accept allows only protobuf, and streams for */*", async () => {
    const refused = await post({
      headers: { "Content-Type": "application/json", Accept: "application/vnd.ag-ui.event+proto" },
      body: validBody,
    });
    expect(refused.response.status).toBe(406);
    expect(JSON.parse(refused.text)).toMatchObject({ error: "not-acceptable" });
    await server.close();

    const anything = await post({ headers: { "Content-Type": "application/json", Accept: "*/*" }, body: validBody });
    expect(anything.response.status).toBe(200);
    expect(anything.response.headers.get("content-type")).toBe("text/event-stream");
  });

  it("answers 413 past the limit while the body is still arriving", async () => {
    server = await serve(createHandler(twoEvents, { maxBodyBytes: 1024 }));
    // A chunked upload (no Content-Length) that passes the limit and never ends: only a limit
    // enforced while reading can answer it.
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(server.url, { method: "POST", headers: { "Content-Type": "application/json" } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      req.on("error", reject);
      req.write(`{"threadId":"${"x".repeat(2048)}`);
    });
    const { status, body } = await within(5000, answer, "a 413 before the upload ended");
    expect(status).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ error: "body-too-large", message: expect.stringContaining("1024") });
  });

  it("answers 413 at once for a declared Content-Length over the limit", async () => {
    const { response, text } = await post(
      { headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pad: "y".repeat(3000) }) },
      createHandler(twoEvents, { maxBodyBytes: 1024 }),
    );
    expect(response.status).toBe(413);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-member-access -- the error body is JSON whose members are asserted right here
    expect(JSON.parse(text).message).toContain("declared");
  });

  it("lets route refuse a request or pick the agent for it", async () => {
    const other: RunFunction = (input) => of(ev.runStarted(input.threadId, "picked"));
    const handler = createHandler(twoEvents, {
      route: (request, input) => {
        if (request.headers.get("authorization") !== "Bearer ok") return new Response("no", { status: 401 });
        return input.forwardedProps !== undefined && (input.forwardedProps as { agent?: string }).agent === "other" ? other : undefined;
      },
    });
    server = await serve(handler);
    const refused = await fetch(server.url, { method: "POST", headers: { "Content-Type": "application/json" }, body: validBody });
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe("no");

    const headers = { "Content-Type": "application/json", Authorization: "Bearer ok" };
    const byDefault = await fetch(server.url, { method: "POST", headers, body: validBody });
    expect(parseSseBody(await byDefault.text()).map((e) => e.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    const routed = await fetch(server.url, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...JSON.parse(validBody), forwardedProps: { agent: "other" } }),
    });
    expect(parseSseBody(await routed.text())).toEqual([{ type: "RUN_STARTED", threadId: "t1", runId: "picked" }]);
  });

  it("ends a failing source with one RUN_ERROR", async () => {
    const failing: RunFunction = (input) =>
      concat(
        of(ev.runStarted(input.threadId, input.runId)),
        throwError(() => new Error("model unavailable")),
      );
    const { text } = await post({ body: validBody }, createHandler(failing));
    const events = parseSseBody(text);
    expect(events.map((e) => e.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(events[1]).toMatchObject({ message: expect.stringContaining("model unavailable"), code: "STREAM_ERROR" });
  });

  it("reports a run function that throws as a RUN_ERROR", async () => {
    const { response, text } = await post(
      { body: validBody },
      createHandler(() => {
        throw new Error("no such model");
      }),
    );
    expect(response.status).toBe(200);
    expect(parseSseBody(text)).toEqual([{ type: "RUN_ERROR", message: "the event stream failed: no such model", code: "STREAM_ERROR" }]);
  });

  it("stops the run within 1 s when the client disconnects mid-run", async () => {
    let stopped!: () => void;
    const unsubscribed = new Promise<void>((resolve) => (stopped = resolve));
    const endless: RunFunction = (input) =>
      new Observable<Event>((subscriber) => {
        subscriber.next(ev.runStarted(input.threadId, input.runId));
        return stopped;
      });
    server = await serve(createHandler(endless));
    const { response, destroy } = await openPost(server.url, validBody);
    const first = await new Promise<string>((resolve) => {
      response.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8")));
      response.resume();
    });
    expect(parseSseBody(first)).toEqual([ev.runStarted("t1", "r1")]);
    destroy();
    await within(1000, unsubscribed, "the run to be unsubscribed after the disconnect");
  });

  it("serves an Agent directly and aborts its signal within 1 s when the client disconnects", async () => {
    let aborted!: () => void;
    const abortSeen = new Promise<void>((resolve) => (aborted = resolve));
    const patient: Agent = {
      async run(ctx) {
        ctx.say("thinking…");
        await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
        aborted();
      },
    };
    server = await serve(createHandler(patient));
    const { response, destroy } = await openPost(server.url, validBody);
    let text = "";
    await new Promise<void>((resolve) => {
      response.on("data", (chunk: Buffer) => {
        text += chunk.toString("utf8");
        if (text.includes("TEXT_MESSAGE_END")) resolve();
      });
      response.resume();
    });
    expect(parseSseBody(text).map((e) => e.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END"]);
    destroy();
    await within(1000, abortSeen, "the agent's signal to abort after the disconnect");
  });
});
