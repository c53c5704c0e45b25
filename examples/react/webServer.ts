/**
 * A tiny web server for the example pages: `/agent` and the paths below it go to an AG-UI fetch
 * handler (the task-board agent), everything else is a static file from one folder (a built page),
 * with `index.html` for `/`. Used by `npm run web` and by the browser end-to-end tests.
 */
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { serve, type Served } from "../../src/node";

/** A fetch-style handler, as `createHandler` returns. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** What to serve. */
export interface WebServerOptions {
  /** The folder with the built page (its `index.html` answers `/`). */
  readonly root: string;
  /** The AG-UI endpoint, mounted at `POST /agent`. */
  readonly agent: FetchHandler;
  readonly port?: number;
  readonly host?: string;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
};

/** The fetch handler that combines the agent endpoint with static files from `root`. */
export function webHandler(root: string, agent: FetchHandler): FetchHandler {
  const base = normalize(root + sep);
  return async (request) => {
    const url = new URL(request.url);
    // the endpoint and its sub-paths (/agent/connect, /agent/stop, /agent/capabilities)
    if (url.pathname === "/agent" || url.pathname.startsWith("/agent/")) return agent(request);
    if (request.method !== "GET" && request.method !== "HEAD") {
      return new Response(`expected GET for a static file, got ${request.method}`, { status: 405 });
    }
    const relative = decodeURIComponent(url.pathname === "/" ? "/index.html" : url.pathname);
    const file = normalize(join(base, relative));
    // A path that climbs out of the root ("/../secret") is refused rather than served.
    if (!file.startsWith(base)) return new Response("outside the page folder", { status: 403 });
    try {
      const body = await readFile(file);
      return new Response(body, { headers: { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" } });
    } catch {
      return new Response(`no file ${url.pathname}`, { status: 404 });
    }
  };
}

/**
 * Serves `root` and the agent on one origin (so the page calls `/agent` without CORS) and
 * resolves once listening.
 *
 * @example
 * const web = await startWebServer({ root: "examples/react/dist", agent: createHandler(agent) });
 * console.log(web.url);
 */
export function startWebServer(options: WebServerOptions): Promise<Served> {
  return serve(webHandler(options.root, options.agent), { port: options.port, host: options.host });
}
