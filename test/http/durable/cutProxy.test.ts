/**
 * The reconnect contract end to end (issue #10 §5.1): a TCP proxy cuts the client's connection at a
 * random byte offset of the answer, 200 runs in a row with a fixed seed (a quarter of them cut
 * twice: the answer, then the first reconnect). Every run ends with messages and state deep-equal
 * to an uncut run's, one `done`, no error; a run cut after its first frame resumed through
 * Last-Event-ID and its updates are exactly the uncut run's (no duplicate, none missing), one cut
 * before its first frame was rebuilt from the thread's snapshot.
 */
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import { createTaskBoardAgent } from "../../../examples/task-board/agent";
import { boardTurn, checkCutTurn, withoutConnection } from "../../support/boardTurns";
import { startCutProxy, type CutProxy } from "../../support/cutProxy";
import { seededRandom } from "../../support/seededRandom";
import { closeAll, serveStored } from "./support";

jest.setTimeout(180_000);

const SEED = 0x5eed10;
const RUNS = 200;

let proxy: CutProxy;
afterAll(async () => {
  await proxy?.close();
  await closeAll();
});

test(`${RUNS} runs cut at random byte offsets (seed ${SEED}) end exactly as an uncut run`, async () => {
  // Connection: close, so each answer has a connection of its own and an offset is an offset into that answer.
  const { served } = await serveStored(createTaskBoardAgent(), { headers: { Connection: "close" } });
  proxy = await startCutProxy(served.port);
  const transport = new HttpTransport(proxy.url("/agent"), { reconnect: { delay: 0 } });

  const reference = await boardTurn(transport, "reference");
  const answerLength = proxy.served[proxy.served.length - 1];
  expect(withoutConnection(reference.updates)).toEqual(reference.updates);
  expect(reference.updates[reference.updates.length - 1]).toEqual({ kind: "done", end: { kind: "success", result: { tasks: 2 } } });

  const random = seededRandom(SEED);
  let exact = 0;
  let rebuilt = 0;
  let reconnects = 0;
  for (let i = 0; i < RUNS; i++) {
    const offsets = [Math.floor(random() * answerLength)];
    if (random() < 0.25) offsets.push(Math.floor(random() * answerLength));
    proxy.cutNext(...offsets);
    const cutsBefore = proxy.stats.cuts;
    const turn = await boardTurn(transport, `cut-${i}`);
    const context = `run ${i}, cut at ${offsets.join(" then ")}`;
    expect({ context, cuts: proxy.stats.cuts - cutsBefore > 0 }).toEqual({ context, cuts: true });
    const reconnected = turn.updates.filter((update) => update.kind === "connection" && update.status === "connected").length;
    expect({ context, reconnected: reconnected > 0 }).toEqual({ context, reconnected: true });
    reconnects += reconnected;
    if (checkCutTurn(context, turn, reference) === "exact") exact++;
    else rebuilt++;
  }
  expect(exact + rebuilt).toBe(RUNS);
  expect(exact).toBeGreaterThan(RUNS * 0.9);
  process.stdout.write(
    `cut proxy: ${RUNS} runs, ${proxy.stats.cuts} cuts, ${reconnects} reconnects; ${exact} resumed exactly (same updates as uncut), ${rebuilt} cut before their first frame rebuilt from the snapshot; all ${RUNS} end with the uncut messages and state\n`,
  );
});
