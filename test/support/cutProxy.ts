/**
 * A TCP proxy on 127.0.0.1 that cuts connections where a test says: the server's bytes are passed
 * on up to a chosen offset of the connection, then both sockets are destroyed (what a dropped
 * Wi-Fi, a restarted load balancer or a killed proxy does to a stream). Requests go through
 * untouched. Pair it with `Connection: close` on the server, so one connection is one answer and
 * an offset is an offset into that answer (status line and headers included).
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/** A running proxy. */
export interface CutProxy {
  /** `http://127.0.0.1:<proxy port>` + `path`. */
  url(path: string): string;
  /** Cuts the next connections the proxy accepts, the first after `offsets[0]` bytes of the server's answer, the next after `offsets[1]`, … */
  cutNext(...offsets: number[]): void;
  /** Cuts every connection open now (both of its sockets destroyed, mid-answer or idle); returns how many it cut. */
  cutOpen(): number;
  /** Connections accepted so far, and how many were cut. */
  readonly stats: { readonly connections: number; readonly cuts: number };
  /** Bytes the server sent on each connection so far, in order (for measuring an uncut answer). */
  readonly served: readonly number[];
  close(): Promise<void>;
}

/**
 * Starts a proxy in front of `127.0.0.1:targetPort`.
 *
 * @example
 * const proxy = await startCutProxy(server.port);
 * proxy.cutNext(1234);
 * await lastValueFrom(new HttpTransport(proxy.url("/agent")).run(input));
 */
export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  const armed: number[] = [];
  const served: number[] = [];
  const sockets = new Set<Socket>();
  /** The open connections' drops, each until its client socket closes. */
  const open = new Set<() => void>();
  let connections = 0;
  let cuts = 0;
  const server: Server = createServer((client) => {
    connections++;
    const index = served.length;
    served.push(0);
    const cutAt = armed.shift();
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    const drop = (): void => {
      client.destroy();
      upstream.destroy();
    };
    open.add(drop);
    client.on("close", () => {
      open.delete(drop);
      sockets.delete(client);
      upstream.destroy();
    });
    upstream.on("close", () => {
      sockets.delete(upstream);
      if (!client.writableEnded) client.end();
    });
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("data", (chunk: Buffer) => {
      if (!upstream.destroyed) upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      const sent = served[index];
      if (cutAt !== undefined && sent + chunk.length >= cutAt) {
        const keep = chunk.subarray(0, Math.max(0, cutAt - sent));
        served[index] = sent + keep.length;
        cuts++;
        // what fits before the cut goes out, then the connection ends mid-answer (the body's chunked
        // encoding is left unfinished, which a client reads as a failed body)
        client.end(keep);
        upstream.destroy();
        return;
      }
      served[index] = sent + chunk.length;
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo; // a TCP listener's address is an AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    cutNext: (...offsets) => {
      armed.push(...offsets);
    },
    cutOpen: () => {
      const drops = [...open];
      for (const drop of drops) drop();
      cuts += drops.length;
      return drops.length;
    },
    get stats() {
      return { connections, cuts };
    },
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
