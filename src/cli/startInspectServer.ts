/** The server of `agui-rx inspect`: the inspector page and the inspected endpoint on one loopback origin. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { INSPECT_AGENT_PATH, INSPECT_CONFIG_PATH, INSPECT_SCRIPT, type InspectConfig } from "./InspectConfig";
import { proxiedUrl, proxyRequest } from "./proxyRequest";

/** Options of {@link startInspectServer}. */
export interface InspectServerOptions {
  /** The AG-UI endpoint to inspect (an absolute http(s) URL: where runs are POSTed). */
  readonly url: string;
  /** The thread the page joins at once (against a server that keeps threads). */
  readonly threadId?: string | undefined;
  /** The port to listen on, on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** Headers added to every proxied request (an `Authorization` header, say); they win over the page's. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** A link template for trace ids, `{traceId}` replaced (e.g. `http://localhost:16686/trace/{traceId}`). */
  readonly traceLink?: string | undefined;
  /** The folder holding the built page script; by default `inspector/` beside this file (dist/cli/inspector in the package). */
  readonly pageRoot?: string | undefined;
}

/** A running inspector: the page's URL, and the way to stop it. */
export interface RunningInspectServer {
  /** The page, e.g. `http://127.0.0.1:43121/`. */
  readonly url: string;
  /** Stops listening and cuts every open connection (proxied streams included). */
  close(): Promise<void>;
}

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>agui-rx inspect</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="root"></div>
    <script src="/${INSPECT_SCRIPT}"></script>
  </body>
</html>
`;

/**
 * Starts the inspector's server on 127.0.0.1: `GET /` the page, `GET /inspector.js` its script,
 * `GET /inspect.json` its configuration ({@link InspectConfig}), and everything at `/agent` and
 * below passed on to `options.url` and its sub-routes (`/agent/connect` → `<url>/connect`), SSE
 * streamed through as it arrives. The page so talks to the endpoint on its own origin: no CORS is
 * needed from the inspected server, and `--header` values never reach the browser. Only the one
 * target is reachable through it; it listens on loopback only.
 *
 * @example
 * const inspector = await startInspectServer({ url: "http://127.0.0.1:8000/agent", threadId: "board-1" });
 * console.log(`open ${inspector.url}`);
 * await inspector.close();
 */
export function startInspectServer(options: InspectServerOptions): Promise<RunningInspectServer> {
  const target = new URL(options.url).href; // refused here, not at the first request, when it is no URL
  const pageRoot = options.pageRoot ?? join(__dirname, "inspector");
  const config: InspectConfig = {
    endpoint: INSPECT_AGENT_PATH,
    target,
    ...(options.threadId === undefined ? {} : { threadId: options.threadId }),
    ...(options.traceLink === undefined ? {} : { traceLink: options.traceLink }),
  };
  const headers = options.headers ?? {};

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? "/", "http://inspector.invalid");
    const path = url.pathname;
    if (path === INSPECT_AGENT_PATH || path.startsWith(`${INSPECT_AGENT_PATH}/`)) {
      proxyRequest(req, res, proxiedUrl(target, path.slice(INSPECT_AGENT_PATH.length), url.search), headers);
      return;
    }
    req.resume(); // nothing else reads a body
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "content-type": "text/plain; charset=utf-8", allow: "GET, HEAD" }).end(`expected GET for ${path}, got ${req.method}\n`);
    } else if (path === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(PAGE);
    } else if (path === INSPECT_CONFIG_PATH) {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(config));
    } else if (path === `/${INSPECT_SCRIPT}`) {
      readFile(join(pageRoot, INSPECT_SCRIPT)).then(
        (body) => res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" }).end(body),
        () =>
          res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(`the inspector page is not built: no ${join(pageRoot, INSPECT_SCRIPT)}\n`),
      );
    } else {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end(`no ${path} here\n`);
    }
  };

  const server = createServer(handle);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo; // a TCP listener's address is always an AddressInfo
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
