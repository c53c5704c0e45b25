/**
 * Issue #26, the metrics of a reader that never reads (docs/observability.md#metrics) over real
 * loopback HTTP: a `/connect` client reads its headers and then nothing, so the frames of the run
 * wait for it in the handler's tail pool (`agui_rx.server.tails.queued_bytes` shows them); once it
 * took nothing for `idleWriteTimeoutMs` (virtual time) it is cut, counted as an `idle_write` abort,
 * and the gauge falls back to 0.
 */
import { connect, type Socket } from "node:net";
import { Observable } from "rxjs";
import { ev } from "../../../src/protocol/build";
import { serve, type Served } from "../../../src/node/serve";
import { createHandler } from "../../../src/server/http/createHandler";
import { tailFrames } from "../../../src/server/http/TailFrames";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { ManualClock } from "../../server/store/manualClock";
import { inputFor, until } from "../../http/durable/support";
import { checkCardinality, metricsProbe, total, type MetricsProbe } from "./metricsSupport";

const P = "agui_rx.server.";
let served: Served | undefined;
let probe: MetricsProbe;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await served?.close();
  served = undefined;
  await probe.provider.shutdown();
});

/** A raw `/connect` that reads up to the end of its headers, then pauses. */
function pausedTail(port: number, threadId: string): Promise<Socket> {
  const body = JSON.stringify({ threadId });
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    sockets.push(socket);
    let head = "";
    socket.setEncoding("latin1");
    socket.on("error", () => undefined); // the cut may arrive as a reset
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
      if (head.startsWith("HTTP/1.1 200")) resolve(socket);
      else reject(new Error(`expected 200, but got ${JSON.stringify(head.slice(0, 120))}`));
    };
    socket.on("data", onData);
  });
}

test("an unread tail's frames show in tails.queued_bytes; cut after the idle-write timeout, it counts as an idle_write abort and the gauge returns to 0", async () => {
  probe = metricsProbe();
  const store = memoryStore({ maxBytes: 256 * 1024 * 1024 });
  const pool = tailFrames();
  const clock = new ManualClock();
  served = await serve(createHandler(() => new Observable(), { store, tailFrames: pool, clock, telemetry: { meter: probe.meter } }));
  const writer = await store.beginRun(inputFor("t-idle", "r-idle"));
  await writer.append([ev.textMessageStart("m1")]);
  await pausedTail(served.port, "t-idle");
  // More than the kernel's buffers take, for a client that reads nothing: the rest waits in the pool.
  for (let i = 0; i < 24; i++) await writer.append(Array.from({ length: 250 }, () => ev.textMessageContent("m1", "z".repeat(4000))));
  let last = -1;
  await until(() => {
    const settled = pool.queuedBytes === last && pool.queuedBytes > 0;
    last = pool.queuedBytes;
    return settled;
  }, "the tail's queue to stop draining into its socket");
  const queued = await probe.points(`${P}tails.queued_bytes`);
  expect(queued).toEqual([expect.objectContaining({ unit: "By", value: pool.queuedBytes })]);
  expect(queued[0].value).toBeGreaterThan(0);
  expect(await probe.points(`${P}stream.aborts`)).toEqual([]);

  clock.advance(30_000);
  const after = await probe.collect();
  expect(after.filter((p) => p.name === `${P}stream.aborts`)).toEqual([
    expect.objectContaining({ value: 1, attributes: { "agui_rx.abort.reason": "idle_write" } }),
  ]);
  expect(total(after.filter((p) => p.name === `${P}tails.queued_bytes`))).toBe(0);
  checkCardinality(probe.seen, ["t-idle", "r-idle"]);
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished("t-idle", "r-idle")]);
}, 30_000);
