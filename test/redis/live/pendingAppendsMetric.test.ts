/**
 * Issue #26, the store's pending append batches (docs/observability.md#metrics:
 * `agui_rx.server.store.pending_appends`) on a real `redis-server`: while Redis holds its writes
 * (`CLIENT PAUSE … WRITE`, which holds scripts too) the run's batch waits at the store and the gauge
 * shows it; once Redis takes writes again the batch is answered, the run ends, and the gauge is 0.
 */
import { serve, type Served } from "../../../src/node/serve";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { success, type Agent } from "../../../src/server/Agent";
import { createHandler } from "../../../src/server/http/createHandler";
import { framesOf, gate, inputFor, openStream } from "../../http/durable/support";
import { metricsProbe, total, type MetricsProbe } from "../../telemetry/metrics/metricsSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const GAUGE = "agui_rx.server.store.pending_appends";

let client: TestClient;
let admin: TestClient;
let store: RedisStore;
let served: Served;
let probe: MetricsProbe;

afterEach(async () => {
  await admin.sendCommand(["CLIENT", "UNPAUSE"]);
  await served.close();
  await store.close();
  await closeClient(client);
  await closeClient(admin);
  await probe.provider.shutdown();
});

test("a batch Redis has not answered (its writes paused) is one pending append; once answered, none", async () => {
  probe = metricsProbe();
  client = await connectClient("pending-appends");
  admin = await connectClient("pending-appends-admin");
  store = redisStore({ client, prefix: uniquePrefix("pending-appends") });
  const wrote = gate();
  const go = gate();
  const agent: Agent = {
    async run(ctx) {
      const message = ctx.assistantMessage();
      message.delta("first");
      wrote.open();
      await go.opened;
      message.delta(" second");
      message.end();
      return success();
    },
  };
  served = await serve(createHandler(agent, { store, telemetry: { meter: probe.meter }, onRunError: () => undefined }));
  const run = await openStream(`${served.url}agent`, inputFor("t-pending", "r1"));
  await run.until("first"); // begun and logged up to the first delta: Redis answered so far
  await wrote.opened;

  await admin.sendCommand(["CLIENT", "PAUSE", "20000", "WRITE"]);
  go.open(); // the next batch goes to a Redis that holds it
  const held = await probe.collectUntil((points) => total(points.filter((p) => p.name === GAUGE)) >= 1, "a batch pending at Redis");
  expect(total(held.filter((p) => p.name === GAUGE))).toBe(1);

  await admin.sendCommand(["CLIENT", "UNPAUSE"]);
  const frames = await framesOf(await run.rest());
  expect(frames.map((frame) => frame.event.type).slice(-2)).toEqual(["TEXT_MESSAGE_END", "RUN_FINISHED"]);
  const after = await probe.collectUntil((points) => total(points.filter((p) => p.name === GAUGE)) === 0, "no batch pending");
  expect(after.filter((p) => p.name === GAUGE)).toEqual([expect.objectContaining({ value: 0, unit: "{batch}" })]);
});
