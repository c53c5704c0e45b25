/**
 * The idle-write timeout over real loopback HTTP (docs/http.md, "Readers that never read"): a
 * `/connect` client that reads its headers and then nothing has its connection cut once its
 * socket took nothing for `idleWriteTimeoutMs` (virtual time), and everything queued for it is
 * let go. `agui-rx/node` must notice the body failing while a write waits for `drain`.
 */
import { connect, type Socket } from "node:net";
import { ev } from "../../src/protocol/build";
import { serve, type Served } from "../../src/node/serve";
import { createHandler } from "../../src/server/http/createHandler";
import { tailFrames } from "../../src/server/http/TailFrames";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { ManualClock } from "../server/store/manualClock";
import { inputFor, until } from "./durable/support";
import { within } from "./loopback";
import { Observable } from "rxjs";

let served: Served | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await served?.close();
  served = undefined;
});

/** How many connections the server holds now. */
function openConnections(server: Served): Promise<number> {
  return new Promise((resolve, reject) => server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/** A raw `/connect` that reads up to the end of the headers, then pauses; resolves with the socket and a promise of its close. */
function pausedTail(port: number, threadId: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const body = JSON.stringify({ threadId });
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    let head = "";
    socket.setEncoding("latin1");
    socket.on("error", () => undefined); // a reset is one of the ways the cut may arrive
    socket.on("connect", () =>
      socket.write(
        `POST /agent/connect HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ),
    );
    const onData = (chunk: string): void => {
      head += chunk;
      if (!head.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      socket.pause();
      if (head.startsWith("HTTP/1.1 200")) resolve({ socket, closed });
      else reject(new Error(`expected 200, but got ${JSON.stringify(head.slice(0, 120))}`));
    };
    socket.on("data", onData);
  });
}

test("a /connect client that stops reading is cut off after the idle-write timeout, and its queue is let go; the run goes on", async () => {
  const store = memoryStore({ maxBytes: 256 * 1024 * 1024 }); // a run of 24 MB counts 48 MB (its log and its fold): within maxRunBytes
  const pool = tailFrames();
  const clock = new ManualClock();
  served = await serve(createHandler(() => new Observable(), { store, tailFrames: pool, clock }));
  const writer = await store.beginRun(inputFor("t1", "r1"));
  await writer.append([ev.textMessageStart("m1")]);
  const tail = await pausedTail(served.port, "t1");
  // 24 MB for a client that reads nothing: the kernel's buffers take a few, then the tail's queue fills to PARK_BYTES and the store is let go
  for (let i = 0; i < 24; i++) await writer.append(Array.from({ length: 250 }, () => ev.textMessageContent("m1", "z".repeat(4000))));
  // wait until the server's writes stopped: the queue no longer shrinks
  let last = -1;
  await until(() => {
    const settled = pool.queuedBytes === last && pool.queuedBytes > 0;
    last = pool.queuedBytes;
    return settled;
  }, "the tail's queue to stop draining into its socket");
  expect(pool.queuedBytes).toBeGreaterThan(0);
  expect(await openConnections(served)).toBe(1);
  clock.advance(30_000);
  expect(pool.queuedBytes).toBe(0);
  for (let turn = 0; (await openConnections(served)) > 0; turn++) {
    if (turn > 10_000) throw new Error("expected the server to close the idle tail's socket within 10,000 event-loop turns");
  }
  // the client sees it too once it reads again: what the kernel held, then the end (no chunked terminator: a cut)
  tail.socket.resume();
  await within(5_000, tail.closed, "the client to see its connection end");
  expect(store.stats().liveRuns).toBe(1);
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t1", "r1")]);
  expect(store.stats().liveRuns).toBe(0);
}, 30_000);
