/**
 * `agui-rx inspect` in-process (docs/observability.md#inspect-cli): its command line, and its server
 * over real loopback HTTP in front of a plain `node:http` target: the page's files, the endpoint
 * proxied with its sub-routes, SSE passed through frame by frame (the target writes the next frame
 * only once the page has read the last), headers forwarded, the target's 404 and an unreachable
 * target, and a page that goes away cutting the target's stream.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main, parseArgs } from "../../src/cli/main";
import { startInspectServer, type RunningInspectServer } from "../../src/cli/startInspectServer";
import { forwardedHeaders, proxiedUrl } from "../../src/cli/proxyRequest";

describe("parseArgs inspect", () => {
  test.each([
    [["inspect", "http://h/agent"], { kind: "inspect", options: { url: "http://h/agent" } }],
    [
      ["inspect", "https://h/a", "--thread", "board-1", "--port", "4400", "--trace-link", "http://jaeger/trace/{traceId}"],
      { kind: "inspect", options: { url: "https://h/a", threadId: "board-1", port: 4400, traceLink: "http://jaeger/trace/{traceId}" } },
    ],
    [
      ["inspect", "http://h/", "--header", "Authorization: Bearer x:y", "--header", "X-Tenant: t1"],
      { kind: "inspect", options: { url: "http://h/", headers: { Authorization: "Bearer x:y", "X-Tenant": "t1" } } },
    ],
    [["inspect"], { kind: "usage", error: "expected the endpoint's URL" }],
    [["inspect", "h/agent"], { kind: "usage", error: 'expected an http(s) URL, got "h/agent"' }],
    [["inspect", "http://h/", "hello"], { kind: "usage", error: 'inspect takes one URL, got also "hello"' }],
    [["inspect", "http://h/", "--port", "http"], { kind: "usage", error: 'expected --port <n> to be a port number, got "http"' }],
    [["inspect", "http://h/", "--port", "70000"], { kind: "usage", error: 'expected --port <n> to be a port number, got "70000"' }],
    [["inspect", "http://h/", "--thread"], { kind: "usage", error: "--thread needs a value" }],
    [["inspect", "http://h/", "--header", "nocolon"], { kind: "usage", error: 'expected --header "Name: value", got "nocolon"' }],
    [["inspect", "http://h/", "--json"], { kind: "usage", error: "unknown option --json" }],
  ])("%j", (argv, expected) => {
    expect(parseArgs(argv)).toEqual(expected);
  });
});

test("proxiedUrl appends the sub-route to the target's path and keeps the page's query, else the target's", () => {
  expect(proxiedUrl("http://t:1/agent", "", "").href).toBe("http://t:1/agent");
  expect(proxiedUrl("http://t:1/agent/", "/connect", "").href).toBe("http://t:1/agent/connect");
  expect(proxiedUrl("http://t:1/", "/threads/a%20b", "?limit=5").href).toBe("http://t:1/threads/a%20b?limit=5");
  expect(proxiedUrl("http://t:1/agent?key=k", "/stop", "").href).toBe("http://t:1/agent/stop?key=k");
});

test("forwardedHeaders drops the connection's own headers, host, origin and referer, and the extra ones win", () => {
  const headers: IncomingHttpHeaders = {
    host: "127.0.0.1:9",
    connection: "keep-alive, x-hop",
    "x-hop": "1",
    "keep-alive": "timeout=5",
    "transfer-encoding": "chunked",
    origin: "http://127.0.0.1:9",
    referer: "http://127.0.0.1:9/",
    accept: "text/event-stream",
    authorization: "Bearer page",
    "last-event-id": "7",
  };
  expect(forwardedHeaders(headers, { Authorization: "Bearer cli" })).toEqual({
    accept: "text/event-stream",
    authorization: "Bearer cli",
    "last-event-id": "7",
  });
});

/** A target endpoint: records each request; `/agent` streams SSE frames one by one on demand, `/agent/capabilities` answers JSON, anything else 404. */
function startTarget() {
  const requests: { method: string; url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  let stream: ServerResponse | undefined;
  let streamOpened: () => void = () => {};
  const opened = new Promise<void>((resolve) => (streamOpened = resolve));
  let streamClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (streamClosed = resolve));
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (req.url === "/agent" && req.method === "POST") {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "x-target": "yes" });
        res.flushHeaders();
        stream = res;
        res.on("close", () => streamClosed());
        streamOpened();
      } else if (req.url === "/agent/capabilities") {
        res.writeHead(200, { "content-type": "application/json" }).end('{"transport":{"streaming":true}}');
      } else {
        res.writeHead(404, { "content-type": "text/plain", "x-why": "none" }).end("no such route");
      }
    });
  });
  return new Promise<{
    url: string;
    requests: typeof requests;
    opened: Promise<void>;
    closed: Promise<void>;
    write(frame: string): void;
    cut(): void;
    close(): Promise<void>;
  }>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo; // a TCP listener's address is an AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/agent`,
        requests,
        opened,
        closed,
        write: (frame) => stream?.write(frame),
        cut: () => stream?.destroy(),
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

describe("the inspector's server", () => {
  let target: Awaited<ReturnType<typeof startTarget>>;
  let inspector: RunningInspectServer;
  let pageRoot: string;
  beforeEach(async () => {
    target = await startTarget();
    pageRoot = mkdtempSync(join(tmpdir(), "agui-rx-inspect-"));
    writeFileSync(join(pageRoot, "inspector.js"), "window.inspected = true;\n");
    inspector = await startInspectServer({
      url: target.url,
      threadId: "board-1",
      traceLink: "http://traces/{traceId}",
      headers: { "X-Api-Key": "k1" },
      pageRoot,
    });
  });
  afterEach(async () => {
    await inspector.close();
    await target.close();
    rmSync(pageRoot, { recursive: true, force: true });
  });

  test("serves the page, its script and its configuration on loopback; anything else is 404, a POST to the page 405", async () => {
    expect(inspector.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(inspector.url);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('<script src="/inspector.js"></script>');
    const script = await fetch(new URL("/inspector.js", inspector.url));
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toBe("window.inspected = true;\n");
    expect(await (await fetch(new URL("/inspect.json", inspector.url))).json()).toEqual({
      endpoint: "/agent",
      target: target.url,
      threadId: "board-1",
      traceLink: "http://traces/{traceId}",
    });
    expect((await fetch(new URL("/other", inspector.url))).status).toBe(404);
    expect((await fetch(inspector.url, { method: "POST", body: "x" })).status).toBe(405);
    expect(target.requests).toEqual([]); // none of these reached the target
  });

  test("an SSE answer passes through frame by frame: the target writes the next frame only after the page has read the last", async () => {
    const response = await fetch(new URL("/agent", inspector.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", authorization: "Bearer page" },
      body: '{"threadId":"t1"}',
    });
    await target.opened;
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("x-target")).toBe("yes");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (const n of [1, 2, 3]) {
      const frame = `id: ${n}\ndata: {"type":"RAW","n":${n}}\n\n`;
      target.write(frame);
      let read = "";
      while (read.length < frame.length) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`expected frame ${n}, but the stream ended after ${JSON.stringify(read)}`);
        read += chunk.value;
      }
      expect(read).toBe(frame);
    }
    await reader.cancel();
    await target.closed; // the page went away: the target's stream is cut too
    const [request] = target.requests;
    expect(request).toMatchObject({ method: "POST", url: "/agent", body: '{"threadId":"t1"}' });
    expect(request.headers).toMatchObject({ accept: "text/event-stream", "x-api-key": "k1", authorization: "Bearer page", host: new URL(target.url).host });
    expect(request.headers.origin).toBeUndefined();
  });

  test("a target that cuts its stream short cuts the page's too: the page's read fails rather than ending cleanly", async () => {
    const response = await fetch(new URL("/agent", inspector.url), { method: "POST", headers: { accept: "text/event-stream" }, body: "{}" });
    await target.opened;
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    target.write('data: {"type":"RAW"}\n\n');
    expect((await reader.read()).value).toBe('data: {"type":"RAW"}\n\n');
    target.cut();
    await expect(reader.read()).rejects.toThrow("terminated");
  });

  test("sub-routes reach the target's sub-routes; the target's 404 passes through with its body and headers", async () => {
    const capabilities = await fetch(new URL("/agent/capabilities", inspector.url));
    expect(await capabilities.json()).toEqual({ transport: { streaming: true } });
    const connect = await fetch(new URL("/agent/connect?x=1", inspector.url), { method: "POST", body: "{}" });
    expect(connect.status).toBe(404);
    expect(connect.headers.get("x-why")).toBe("none");
    expect(await connect.text()).toBe("no such route");
    expect(target.requests.map((request) => `${request.method} ${request.url}`)).toEqual(["GET /agent/capabilities", "POST /agent/connect?x=1"]);
  });

  test("a target that cannot be reached is a 502 naming the request and the reason", async () => {
    await target.close();
    const response = await fetch(new URL("/agent/capabilities", inspector.url));
    expect(response.status).toBe(502);
    expect(await response.text()).toMatch(new RegExp(`^agui-rx inspect: GET ${target.url}/capabilities failed: .*ECONNREFUSED`));
  });
});

test("main inspect prints the page's URL, serves until stopped, then closes and exits 0", async () => {
  let out = "";
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  let printed: () => void = () => {};
  const started = new Promise<void>((resolve) => (printed = resolve));
  const code = main(
    ["inspect", "http://127.0.0.1:9/agent"],
    (text) => {
      out += text;
      printed();
    },
    () => stopped,
  );
  await started;
  const url = /^open (\S+)$/m.exec(out)?.[1];
  expect(out).toMatch(/^agui-rx inspect: http:\/\/127\.0\.0\.1:9\/agent$/m);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  expect((await fetch(new URL("/inspect.json", url))).status).toBe(200);
  stop();
  expect(await code).toBe(0);
  await expect(fetch(new URL("/inspect.json", url))).rejects.toThrow("fetch failed");
});
