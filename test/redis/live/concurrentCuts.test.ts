/**
 * 100 concurrent runs across three instances on one Redis, every one cut at a random byte offset
 * of its answer and reconnected to a random instance (which may cut the reconnect too), the
 * randomness seeded (issue #11 §3). Every run ends with the uncut run's messages and state, one
 * `done` and no error; a run cut after its first frame resumed through Last-Event-ID and its
 * updates are exactly the uncut run's (none twice, none missing); one cut before its first frame
 * was rebuilt from the thread's snapshot.
 */
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { seededRandom } from "../../support/seededRandom";
import { startBalancer, type Balancer } from "../../support/balancer";
import { boardTurn, checkCutTurn } from "../../support/boardTurns";
import { redisUrl, uniquePrefix } from "../support/clients";
import { killAll, startInstance, type Instance } from "../support/instances";

const RUNS = 100;
const SEED = 0x11ed15;
/** The share of reconnects that are cut again. */
const RECUT = 0.3;

let instances: Instance[];
let balancer: Balancer;

beforeAll(async () => {
  const config = { redisUrl: redisUrl(), prefix: uniquePrefix("concurrent"), typingDelayMs: 5, researchDelayMs: 10 };
  instances = await Promise.all(["A", "B", "C"].map((name) => startInstance({ ...config, name })));
  balancer = await startBalancer(() => ({ port: instances[0].port }));
});

afterAll(async () => {
  await balancer?.close();
  await killAll();
});

test(`${RUNS} concurrent runs over 3 instances, cut at random offsets (seed ${SEED}) and reconnected to random instances, all end exactly as an uncut run`, async () => {
  const transport = new HttpTransport(balancer.url("/agent"), { reconnect: { delay: 0, count: 10 } });
  const reference = await boardTurn(transport, "reference");
  const answerLength = balancer.connections[balancer.connections.length - 1].bytes;
  expect(reference.updates[reference.updates.length - 1]).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });

  const random = seededRandom(SEED);
  const anyInstance = () => instances[Math.floor(random() * instances.length)].port;
  const from = balancer.connections.length;
  balancer.route(({ path }) => {
    if (path === "/agent") return { port: anyInstance(), cutAt: Math.floor(random() * answerLength * 0.95) };
    if (path === "/agent/connect") return random() < RECUT ? { port: anyInstance(), cutAt: Math.floor(random() * answerLength) } : { port: anyInstance() };
    return { port: anyInstance() };
  });
  const turns = await Promise.all(Array.from({ length: RUNS }, (_, i) => boardTurn(transport, `run-${i}`)));

  let exact = 0;
  let rebuilt = 0;
  for (const [i, turn] of turns.entries()) {
    const context = `run ${i}`;
    expect({ context, reconnected: turn.updates.some((update) => update.kind === "connection" && update.status === "connected") }).toEqual({
      context,
      reconnected: true,
    });
    if (checkCutTurn(context, turn, reference) === "exact") exact++;
    else rebuilt++;
  }
  expect(exact + rebuilt).toBe(RUNS);
  expect(exact).toBeGreaterThan(RUNS * 0.8);

  const log = balancer.connections.slice(from);
  const runs = log.filter((connection) => connection.path === "/agent");
  const reconnects = log.filter((connection) => connection.path === "/agent/connect");
  expect(runs.length).toBe(RUNS);
  expect(runs.every((connection) => connection.cut)).toBe(true);
  // Reconnects reached every instance, most of them another instance than the run's.
  const byInstance = instances.map((instance) => reconnects.filter((connection) => connection.port === instance.port).length);
  expect(byInstance.every((count) => count > 0)).toBe(true);
  for (const instance of instances) expect({ instance: instance.name, stderr: instance.stderr() }).toEqual({ instance: instance.name, stderr: "" });
  process.stdout.write(
    `${RUNS} concurrent runs on 3 instances: ${runs.length} cut, ${reconnects.length} reconnects (${byInstance.join("/")} on A/B/C, ${reconnects.filter((connection) => connection.cut).length} cut again); ` +
      `${exact} resumed exactly, ${rebuilt} cut before their first frame rebuilt from the snapshot; all ${RUNS} end with the uncut messages and state\n`,
  );
});
