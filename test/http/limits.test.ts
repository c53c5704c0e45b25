/**
 * Issue #14 C2 (server part) and C8: request bodies nested too deep are refused with 400 naming the
 * path and the limit (today's 500 came from the error-excerpt formatter overflowing), and a body
 * that never finishes gets 408 after `bodyTimeoutMs` instead of holding the connection.
 */
import { request as httpRequest } from "node:http";
import { ev } from "../../src/protocol/build";
import { excerpt } from "../../src/protocol/describeFailure";
import { createHandler, type RunFunction } from "../../src/server/http/createHandler";
import { readBody } from "../../src/server/http/readBody";
import { serve, type Served } from "../../src/node/serve";
import { of } from "rxjs";
import { parseSseBody, validBody, within } from "./loopback";

const twoEvents: RunFunction = (input) => of(ev.runStarted(input.threadId, input.runId), ev.runFinished(input.threadId, input.runId));

/** `depth` nested arrays as JSON text, built as text (a value this deep overflows JSON.stringify). */
const deepArray = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function postText(
  body: string,
  options: Parameters<typeof createHandler>[1] = {},
): Promise<{ status: number; json: Record<string, unknown>; text: string }> {
  served = await serve(createHandler(twoEvents, options));
  const response = await fetch(served.url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  const text = await response.text();
  const json = response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : {};
  return { status: response.status, json, text };
}

describe("a JSON depth limit at the door (default 512)", () => {
  const deep = deepArray(100_000);
  test.each([
    ["as the body", deep, ""],
    ["in threadId", `{"threadId":${deep},"runId":"r","messages":[]}`, "/threadId"],
    ["in a message's content", `{"threadId":"t","runId":"r","messages":[{"id":"u","role":"user","content":${deep}}]}`, "/messages/0/content"],
    ["in state", `{"threadId":"t","runId":"r","messages":[],"state":{"a":${deep}}}`, "/state/a"],
  ])("100,000-deep JSON %s: 400 json-too-deep naming the path and the limit", async (_, body, prefix) => {
    const { status, json } = await postText(body);
    expect(status).toBe(400);
    expect(json.error).toBe("json-too-deep");
    expect(json.message).toContain("at most 512 levels deep");
    expect(String(json.path).startsWith(`${prefix}/0/0`)).toBe(true);
    // the pointer names the first container past the limit: 512 levels, the body itself being the first
    const levels = String(json.path).split("/").length - 1;
    expect(levels).toBe(512);
  });

  test("the limit is configurable, and a body exactly at it is served", async () => {
    const atLimit = `{"threadId":"t","runId":"r","messages":[],"state":${deepArray(7)}}`; // body 1 + state 7 = 8 levels
    const ok = await postText(atLimit, { maxJsonDepth: 8 });
    expect(ok.status).toBe(200);
    expect(parseSseBody(ok.text).map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    await served?.close();
    const over = await postText(`{"threadId":"t","runId":"r","messages":[],"state":${deepArray(8)}}`, { maxJsonDepth: 8 });
    expect(over.status).toBe(400);
    expect(over.json).toMatchObject({ error: "json-too-deep", path: "/state/0/0/0/0/0/0/0" });
  });

  test("a limit set beyond what the call stack can walk still answers 400, never 500", async () => {
    const { status, json } = await postText(`{"threadId":${deepArray(100_000)},"runId":"r","messages":[]}`, { maxJsonDepth: 1_000_000 });
    expect(status).toBe(400);
    expect(json).toMatchObject({ error: "json-too-deep" });
    expect(json.message).toContain("deeper than this runtime can check");
  });

  test("excerpt never throws: deep arrays, BigInts, cycles, revoked proxies", () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(excerpt(deep)).toMatch(/^a value of type object|^\[/);
    expect(excerpt(10n)).toBe("10");
    expect(excerpt(cycle)).toBe("[object Object]");
    expect(excerpt(proxy)).toBe("a value of type object that cannot be shown");
    expect(excerpt(Object.create(null))).toBe("{}");
  });
});

describe("a body read timeout (408)", () => {
  /** A request whose body sends `first` and then never ends; `cancelled` resolves when the handler gives up on it. */
  function endlessRequest(first: string) {
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode(first)),
      cancel: () => cancelled(),
    });
    const init: RequestInit & { duplex: "half" } = { method: "POST", headers: { "Content-Type": "application/json" }, body, duplex: "half" };
    return { request: new Request("http://127.0.0.1/", init), wasCancelled };
  }

  test("readBody gives up when its deadline aborts, and cancels the upload", async () => {
    const { request, wasCancelled } = endlessRequest('{"threadId":');
    const deadline = new AbortController();
    const read = readBody(request, 1024, deadline.signal);
    deadline.abort();
    expect(await read).toEqual({ kind: "timeout" });
    await wasCancelled;
  });

  test("readBody with a deadline that never comes reads the whole body", async () => {
    const read = await readBody(new Request("http://127.0.0.1/", { method: "POST", body: validBody }), 1024, new AbortController().signal);
    expect(read.kind === "ok" && new TextDecoder().decode(read.bytes)).toBe(validBody);
  });

  test("createHandler answers 408 body-timeout once bodyTimeoutMs passed, and closes the connection", async () => {
    const { request, wasCancelled } = endlessRequest('{"threadId":');
    const response = await within(2000, createHandler(twoEvents, { bodyTimeoutMs: 20 })(request), "an answer");
    expect(response.status).toBe(408);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toMatchObject({ error: "body-timeout", message: expect.stringContaining("within 20 ms") });
    await wasCancelled;
  });

  test("over HTTP, concurrent bodies that never finish all get 408", async () => {
    served = await serve(createHandler(twoEvents, { bodyTimeoutMs: 50 }));
    const url = served.url;
    const answers = Array.from(
      { length: 20 },
      () =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(url, { method: "POST", headers: { "Content-Type": "application/json" } }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          });
          req.on("error", reject);
          req.write('{"threadId":"t"'); // and never the rest
        }),
    );
    expect(await within(5000, Promise.all(answers), "20 answers")).toEqual(Array(20).fill(408));
  });

  test("a body that arrives in time is served", async () => {
    const { status } = await postText(validBody, { bodyTimeoutMs: 5000 });
    expect(status).toBe(200);
  });
});
