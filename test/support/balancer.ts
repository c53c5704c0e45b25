/**
 * A loopback load balancer for multi-instance tests: a TCP proxy on 127.0.0.1 that sends each new
 * connection to the instance a test picks (from the request line and headers it reads first, as
 * an L7 balancer would), and can cut the answer at a byte offset (what a dropped Wi-Fi or a
 * restarted balancer does to a stream). Pair it with `Connection: close` on the instances, so one
 * connection is one request and an offset is an offset into that answer (headers included).
 * Nothing is rewritten: the bytes go through as they are.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/** A request as the balancer sees it before it picks an instance. */
export interface BalancedRequest {
  /** 0 for the first connection the balancer accepted, then 1, 2, … */
  readonly index: number;
  readonly method: string;
  readonly path: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Where a connection goes: the instance's port, and, to cut it, after how many bytes of its answer. */
export interface Route {
  readonly port: number;
  readonly cutAt?: number;
}

/** One connection the balancer handled. */
export interface BalancedConnection extends BalancedRequest {
  readonly port: number;
  readonly cutAt: number | undefined;
  /** Bytes of the answer passed on so far. */
  readonly bytes: number;
  /** Whether it was cut (at `cutAt`). */
  readonly cut: boolean;
  /** Whether the instance could not be reached (the client's socket was destroyed). */
  readonly refused: boolean;
}

/** A running balancer. */
export interface Balancer {
  /** `http://127.0.0.1:<balancer port>` + `path`. */
  url(path: string): string;
  /** Replaces the routing function for the connections accepted from now on. */
  route(pick: (request: BalancedRequest) => Route): void;
  /** Every connection so far, in the order accepted. */
  readonly connections: readonly BalancedConnection[];
  close(): Promise<void>;
}

/** The largest request head the balancer reads before it gives up on a connection. */
const MAX_HEAD_BYTES = 64 * 1024;

interface Tracked {
  index: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  port: number;
  cutAt: number | undefined;
  bytes: number;
  cut: boolean;
  refused: boolean;
}

/**
 * Starts a balancer; `pick` chooses each connection's instance (and cut).
 *
 * @example
 * const balancer = await startBalancer(({ path }) => ({ port: path.endsWith("/connect") ? b.port : a.port }));
 * await lastValueFrom(new HttpTransport(balancer.url("/agent")).run(input));
 */
export async function startBalancer(pick: (request: BalancedRequest) => Route): Promise<Balancer> {
  let choose = pick;
  const connections: Tracked[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    let head = Buffer.alloc(0);
    const onHead = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) client.destroy();
        return;
      }
      client.off("data", onHead);
      client.pause();
      const request = parseHead(connections.length, head.subarray(0, end).toString("latin1"));
      const route = choose(request);
      const tracked: Tracked = { ...request, headers: { ...request.headers }, port: route.port, cutAt: route.cutAt, bytes: 0, cut: false, refused: false };
      connections.push(tracked);
      pipe(client, head, tracked, sockets);
    };
    client.on("data", onHead);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo; // a TCP listener's address is an AddressInfo
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    route: (next) => {
      choose = next;
    },
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Connects the client to its instance: what the client sent so far, then both ways, cutting the answer where asked. */
function pipe(client: Socket, sent: Buffer, tracked: Tracked, sockets: Set<Socket>): void {
  const upstream = connect(tracked.port, "127.0.0.1");
  sockets.add(upstream);
  let reached = false;
  upstream.once("connect", () => {
    reached = true;
    upstream.write(sent);
    client.resume();
  });
  upstream.on("close", () => {
    sockets.delete(upstream);
    if (!reached) {
      if (!client.destroyed) tracked.refused = true;
      client.destroy(); // the instance is down: the client sees a failed connection
    } else if (!client.writableEnded) client.end();
  });
  upstream.on("error", () => upstream.destroy());
  client.on("close", () => upstream.destroy());
  client.on("data", (chunk: Buffer) => {
    if (!upstream.destroyed) upstream.write(chunk);
  });
  upstream.on("data", (chunk: Buffer) => {
    const { cutAt, bytes } = tracked;
    if (cutAt !== undefined && bytes + chunk.length >= cutAt) {
      const keep = chunk.subarray(0, Math.max(0, cutAt - bytes));
      tracked.bytes = bytes + keep.length;
      tracked.cut = true;
      // What fits before the cut goes out, then the answer ends mid-body (its chunked encoding
      // unfinished, which a client reads as a failed body).
      client.end(keep);
      upstream.destroy();
      return;
    }
    tracked.bytes = bytes + chunk.length;
    client.write(chunk);
  });
}

function parseHead(index: number, head: string): BalancedRequest {
  const [requestLine = "", ...lines] = head.split("\r\n");
  const [method = "", path = ""] = requestLine.split(" ");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { index, method, path, headers };
}
