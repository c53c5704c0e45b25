/**
 * The reconnect contract end to end (issue #10 §5.1): a TCP proxy cuts the client's connection at a
 * random byte offset of the answer, 200 runs in a row with a fixed seed (a quarter of them cut
 * twice: the answer, then the first reconnect). Every run ends with messages and state deep-equal
 * to an uncut run's, one `done`, no error; a run cut after its first frame resumed through
 * Last-Event-ID and its updates are exactly the uncut run's (no duplicate, none missing), one cut
 * before its first frame was rebuilt from the thread's snapshot.
 */
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { createTaskBoardAgent } from "../../../examples/task-board/agent";
import { boardSpec, type Board } from "../../../examples/task-board/board";
import { startCutProxy, type CutProxy } from "../../support/cutProxy";
import { counter } from "../../client/support";
import { canonicalIds, closeAll, seededRandom, serveStored } from "./support";

jest.setTimeout(180_000);

const COMMAND = "add buy milk; add call mom; research rxjs; done 1";
const SEED = 0x5eed10;
const RUNS = 200;

let proxy: CutProxy;
afterAll(async () => {
  await proxy?.close();
  await closeAll();
});

/** One run of `COMMAND` on its own thread through `transport`: its updates and the session afterwards. */
async function runOnce(transport: HttpTransport, threadId: string) {
  const session = new Session<Board>(transport, { threadId, state: boardSpec, newId: counter("u") });
  const updates: Update<Board>[] = await lastValueFrom(session.send(COMMAND).pipe(toArray()));
  return { updates, messages: session.messages, state: session.rawState };
}

const withoutConnection = (updates: readonly Update<Board>[]) => updates.filter((update) => update.kind !== "connection");

test(`${RUNS} runs cut at random byte offsets (seed ${SEED}) end exactly as an uncut run`, async () => {
  // Connection: close, so each answer has a connection of its own and an offset is an offset into that answer.
  const { served } = await serveStored(createTaskBoardAgent(), { headers: { Connection: "close" } });
  proxy = await startCutProxy(served.port);
  const transport = new HttpTransport(proxy.url("/agent"), { reconnect: { delay: 0 } });

  const reference = await runOnce(transport, "reference");
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
    const { updates, messages, state } = await runOnce(transport, `cut-${i}`);
    const context = `run ${i}, cut at ${offsets.join(" then ")}`;
    expect({ context, cuts: proxy.stats.cuts - cutsBefore > 0 }).toEqual({ context, cuts: true });
    expect({ context, errors: updates.filter((update) => update.kind === "error") }).toEqual({ context, errors: [] });
    expect({ context, dones: updates.filter((update) => update.kind === "done").length, last: updates[updates.length - 1].kind }).toEqual({ context, dones: 1, last: "done" });
    expect({ context, messages: canonicalIds(messages), state }).toEqual({ context, messages: canonicalIds(reference.messages), state: reference.state });
    const reconnected = updates.filter((update) => update.kind === "connection" && update.status === "connected").length;
    expect({ context, reconnected: reconnected > 0 }).toEqual({ context, reconnected: true });
    reconnects += reconnected;
    const seen = withoutConnection(updates);
    if (JSON.stringify(canonicalIds(seen)) === JSON.stringify(canonicalIds(reference.updates))) exact++;
    else {
      // Only a run cut before its first frame may differ: nothing of it was applied before the cut
      // (just the user's own message), and it was rebuilt from the thread's compacted snapshot.
      const beforeCut = updates.slice(0, updates.findIndex((update) => update.kind === "connection"));
      expect({ context, beforeCut: beforeCut.map((update) => update.kind) }).toEqual({ context, beforeCut: ["message"] });
      expect({ context, rebuiltFrom: seen[1]?.kind }).toEqual({ context, rebuiltFrom: "messages" });
      rebuilt++;
    }
  }
  expect(exact + rebuilt).toBe(RUNS);
  expect(exact).toBeGreaterThan(RUNS * 0.9);
  process.stdout.write(`cut proxy: ${RUNS} runs, ${proxy.stats.cuts} cuts, ${reconnects} reconnects; ${exact} resumed exactly (same updates as uncut), ${rebuilt} cut before their first frame rebuilt from the snapshot; all ${RUNS} end with the uncut messages and state\n`);
});
