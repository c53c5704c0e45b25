import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "../../src/node/toNodeHandler";
import { serve, type Served } from "../../src/node/serve";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe("toNodeHandler", () => {
  it("passes method, URL, headers and body to the handler and its status, headers and body back", async () => {
    served = await serve(async (request) => {
      const body = await request.text();
      const echo = { method: request.method, url: request.url, custom: request.headers.get("x-custom"), body };
      const headers = new Headers({ "Content-Type": "application/json" });
      headers.append("Set-Cookie", "a=1");
      headers.append("Set-Cookie", "b=2");
      return new Response(JSON.stringify(echo), { status: 201, headers });
    });
    const response = await fetch(`${served.url}agent?x=1`, { method: "POST", headers: { "X-Custom": "yes" }, body: "hello" });
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ method: "POST", url: `${served.url}agent?x=1`, custom: "yes", body: "hello" });
  });

  it("uses the body a parser left on req.body (Express with express.json())", async () => {
    const handler = toNodeHandler(async (request) => new Response(await request.text()));
    const server = createServer((req, res) => {
      // What body parsers do: consume the stream, then set req.body.
      let raw = "";
      req.setEncoding("utf8");
      req.on("data", (chunk: string) => (raw += chunk));
      req.on("end", () => {
        (req as IncomingMessage & { body?: unknown }).body = JSON.parse(raw);
        void handler(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{ "a" : [1, 2] }' });
      expect(await response.text()).toBe('{"a":[1,2]}');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("answers 500 with a JSON body when the handler throws before answering", async () => {
    served = await serve(async () => {
      throw new Error("database down");
    });
    const response = await fetch(served.url, { method: "POST", body: "{}" });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: "internal", message: "the handler failed: database down" });
  });
});

describe("serve", () => {
  it("binds loopback on a free port by default and close() ends streams still open", async () => {
    let cancelled!: () => void;
    const cancelSeen = new Promise<void>((resolve) => (cancelled = resolve));
    served = await serve(
      async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start: (controller) => controller.enqueue(new TextEncoder().encode("data: {}\n\n")),
            cancel: () => cancelled(),
          }),
        ),
    );
    expect(served.url).toBe(`http://127.0.0.1:${served.port}/`);
    expect((served.server.address() as AddressInfo).address).toBe("127.0.0.1");
    const response = await fetch(served.url, { method: "POST" });
    const reader = response.body!.getReader();
    await reader.read();
    await served.close();
    served = undefined;
    await cancelSeen; // the open stream's body was cancelled, so its run stops
    await expect(reader.read()).rejects.toThrow();
  });
});
