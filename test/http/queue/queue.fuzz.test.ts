/**
 * Property (docs/queue.md): random interleavings of sends with each policy (refuse, queue, steer,
 * interrupt) from one or two Sessions, agent steps (say, listen to `ctx.incoming$`, finish, end
 * with an interrupt, call a client tool), stops, answers to interrupts and client tools, cancels,
 * cut connections (the Sessions reconnect) and a virtual clock moved past the lease (the live run
 * ends ABANDONED), against a store-backed handler over loopback HTTP. After every command the
 * store shows what the model predicts (test/http/queue/queueModel.ts); at the end every message is
 * exactly once on the thread, or cancelled, or refused, in an order the policies allow, every
 * run's log passes both verifiers, and no queued run started while the thread waited for answers.
 */
import fc from "fast-check";
import { fuzzParameters } from "../../support/fuzz";
import { queueCommand, type QueueCommand } from "./queueCommands";
import { QueuePlay } from "./queuePlay";
import { serveQueue, storeView } from "./queueServer";

/** Each case plays over loopback on this 2-core machine: `npm test`'s cases take well under a minute, `npm run fuzz`'s many more get ten. */
const FUZZ_TIMEOUT_MS = process.env.FUZZ_RUNS === undefined ? 60_000 : 600_000;

beforeEach(() => {
  jest.spyOn(console, "warn").mockImplementation(() => undefined); // the official verifier's warnings are not under test
});
afterEach(() => jest.restoreAllMocks());

/** Plays `commands` through `sessions` Sessions on a fresh server; resolves the thread's path at the end. A failure names the commands played. */
async function play(sessions: number, commands: readonly QueueCommand[]): Promise<readonly string[]> {
  const server = await serveQueue();
  const played = new QueuePlay(server, sessions);
  try {
    await played.start();
    for (const command of commands) await played.apply(command);
    await played.finish();
    return (await storeView(server.store)).path;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${sessions} session(s), after: ${played.played.join("; ")}\n${message}`, { cause: error });
  } finally {
    for (const session of played.sessions) session.close();
    await server.close();
  }
}

test(
  "property: any interleaving of sends, steps, stops, answers, cancels, cuts and lease expiries keeps the queue's contract",
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(1, 2), fc.array(queueCommand, { minLength: 1, maxLength: 12 }), async (sessions, commands) => {
        await play(sessions, commands);
      }),
      fuzzParameters(60),
    );
  },
  FUZZ_TIMEOUT_MS,
);

test("queued messages run in the order sent, an interrupting one ahead of them, and a steer the agent never took runs on its own", async () => {
  const commands: QueueCommand[] = [
    { kind: "send", policy: "queue", session: 0 },
    { kind: "send", policy: "queue", session: 0 },
    { kind: "send", policy: "steer", session: 0 },
    { kind: "send", policy: "queue", session: 0 },
    { kind: "send", policy: "interrupt", session: 0 },
  ];
  // m0 answered by r0 makes the thread; m1 runs now; m5 stops it; the untaken steer m3 (sent before m5) runs first
  expect(await play(1, commands)).toEqual(["m0", "m1", "m3", "m5", "m2", "m4"]);
}, 60_000);

test("a steer cancelled before the agent listens never reaches it, and is not recorded (seed 1608185568)", async () => {
  const commands: QueueCommand[] = [
    { kind: "send", policy: "refuse", session: 0 },
    { kind: "send", policy: "steer", session: 0 },
    { kind: "cancel", pick: 0, session: 0 },
    { kind: "step", action: "listen" },
  ];
  // m1 runs (m0 made the thread); the steer m2 is cancelled while it waits for the agent to listen
  expect(await play(1, commands)).toEqual(["m0", "m1"]);
}, 60_000);
