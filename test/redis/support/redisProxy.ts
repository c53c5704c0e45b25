/**
 * A TCP proxy on 127.0.0.1 between a store's clients and a real `redis-server`, for the tests of a
 * Redis that goes away mid-append (issue #20 A4): it passes bytes both ways untouched, and can
 * drop every connection at once (a network cut), lose the reply to a command after Redis ran it
 * (the connection drops as the reply arrives: the "lost reply"), and count the connections that
 * closed with a request unanswered (an append in flight at a restart), and play a Redis that is down
 * (`down()`: every connection cut, new ones closed at once, until `up()`), and hold back every reply
 * on the connections open now (`withholdReplies()`: a Redis that stops answering before it goes
 * away), and never pass on a request (`refuseRequestWith(marker)`: the process that sent it died
 * between two steps, as far as Redis can tell). The target may restart on the same port: new connections go to whatever listens there then.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";

/** A running proxy. */
export interface RedisProxy {
  /** `redis://127.0.0.1:<proxy port>`. */
  readonly url: string;
  /** Connections Redis had answered on, closed (by either side) while a request sent through them had no reply yet. */
  readonly unansweredAtClose: number;
  /** Replies lost on purpose so far (`loseReplyTo`). */
  readonly lostReplies: number;
  /** Connections closed at once because the proxy was `down()`: a reconnecting client's attempts. */
  readonly refused: number;
  /** Requests sent up on a connection whose replies are withheld (`withholdReplies`): each is unanswered when it closes. */
  readonly withheldRequests: number;
  /** Cuts every connection and closes each new one at once, as a Redis that is down, until `up()`. */
  down(): void;
  up(): void;
  /** Destroys every open connection now, both sides (new ones are accepted as before). */
  cutAll(): void;
  /**
   * From now on, the connections open now pass no reply down (Redis runs what is sent on them; the
   * client never hears): a request sent on one is in flight until it closes. New connections
   * (a client reconnecting to a restarted Redis) pass replies as before.
   */
  withholdReplies(): void;
  /**
   * The next request whose bytes contain `marker` goes to Redis; when Redis's reply to it starts to
   * arrive, the connection is destroyed instead of passing it on (Redis ran the command; the client
   * never hears so). Each call arms one loss.
   */
  loseReplyTo(marker: string): void;
  /**
   * The next request whose bytes contain `marker` never reaches Redis: the connection is destroyed
   * instead of passing it on (Redis never runs it; the client hears its connection drop). Each call
   * arms one refusal.
   */
  refuseRequestWith(marker: string): void;
  /** Requests refused on purpose so far (`refuseRequestWith`). */
  readonly refusedRequests: number;
  close(): Promise<void>;
}

/**
 * Starts a proxy in front of `127.0.0.1:targetPort`.
 *
 * @example
 * const proxy = await startRedisProxy(server.port);
 * const client = await connectClient("a", proxy.url);
 * proxy.loseReplyTo("RUN_FINISHED");
 */
export async function startRedisProxy(targetPort: number): Promise<RedisProxy> {
  const sockets = new Set<Socket>();
  const armed: string[] = [];
  const refusing: string[] = [];
  let refusedRequests = 0;
  let unansweredAtClose = 0;
  let lostReplies = 0;
  let isDown = false;
  let refused = 0;
  let withheldRequests = 0;
  /** Per open connection: stop passing its replies down. */
  const withholders = new Set<() => void>();
  const server: Server = createServer((client) => {
    if (isDown) {
      refused++;
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    /** A request went up since the last reply bytes came down. */
    let awaiting = false;
    /** Redis answered on this connection (a reconnect attempt refused by a Redis that is down never is). */
    let answered = false;
    /** This connection's next reply is to be lost. */
    let losing = false;
    let closed = false;
    /** Its replies are held back (`withholdReplies`). */
    let withholding = false;
    const withhold = (): void => {
      withholding = true;
    };
    withholders.add(withhold);
    const drop = (): void => {
      withholders.delete(withhold);
      if (!closed) {
        closed = true;
        if (awaiting && answered) unansweredAtClose++;
      }
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", drop);
    upstream.on("close", drop);
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("data", (chunk: Buffer) => {
      if (upstream.destroyed) return;
      const refusal = refusing.findIndex((marker) => chunk.includes(marker));
      if (refusal >= 0) {
        refusing.splice(refusal, 1);
        refusedRequests++;
        drop(); // nothing of this chunk reaches Redis
        return;
      }
      awaiting = true;
      if (withholding) withheldRequests++;
      const index = armed.findIndex((marker) => chunk.includes(marker));
      if (index >= 0 && !losing) {
        armed.splice(index, 1);
        losing = true;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (withholding) return; // Redis answered; the client never hears it
      if (losing) {
        lostReplies++;
        drop(); // the reply (and anything pipelined behind it) never reaches the client
        return;
      }
      awaiting = false;
      answered = true;
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo; // a TCP listener's address is an AddressInfo
  return {
    url: `redis://127.0.0.1:${port}`,
    get unansweredAtClose() {
      return unansweredAtClose;
    },
    get lostReplies() {
      return lostReplies;
    },
    get refused() {
      return refused;
    },
    get withheldRequests() {
      return withheldRequests;
    },
    get refusedRequests() {
      return refusedRequests;
    },
    down: () => {
      isDown = true;
      for (const socket of [...sockets]) socket.destroy();
    },
    up: () => {
      isDown = false;
    },
    cutAll: () => {
      for (const socket of [...sockets]) socket.destroy();
    },
    withholdReplies: () => {
      for (const withhold of withholders) withhold();
    },
    loseReplyTo: (marker) => {
      armed.push(marker);
    },
    refuseRequestWith: (marker) => {
      refusing.push(marker);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of [...sockets]) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
