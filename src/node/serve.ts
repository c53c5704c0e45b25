/** A one-line HTTP server for a fetch-style handler (examples, tests, local tools). */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler, type FetchHandler } from "./toNodeHandler";

/** Where to listen. */
export interface ServeOptions {
  /** Port; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** Interface; `127.0.0.1` (loopback only) by default. */
  readonly host?: string | undefined;
}

/** A running server. */
export interface Served {
  /** `http://host:port/`, ready to hand to a client. */
  readonly url: string;
  readonly port: number;
  /** The underlying node server, for anything else. */
  readonly server: Server;
  /** Stops listening and cuts open connections (streams in flight are aborted, so their runs stop). */
  close(): Promise<void>;
}

/**
 * Starts `http.createServer(toNodeHandler(handler))` on `host:port` (loopback and a free port by
 * default) and resolves once it listens.
 *
 * @example
 * const { url, close } = await serve(createHandler(runFn));
 * console.log(`AG-UI endpoint on ${url}`);
 */
export function serve(handler: FetchHandler, options: ServeOptions = {}): Promise<Served> {
  const host = options.host ?? "127.0.0.1";
  const nodeHandler = toNodeHandler(handler);
  // Fire and forget: the node handler answers every failure itself, so its promise only marks completion.
  const server = createServer((req, res) => void nodeHandler(req, res));
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo; // a TCP listener's address is always an AddressInfo
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${port}/`,
        port,
        server,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
