/**
 * The queue property test's seed 29324926, made deterministic (docs/queue.md#in-the-client: a
 * send with a policy shows its run "never twice"). A send with a policy on an idle thread runs
 * now, but its answer is late (the wire's latency; here a fetch that holds the response). The
 * session is not `running` meanwhile (a send with a policy takes the run slot only when its run's
 * items arrive), so the page may `connect()`: the join shows the run (its snapshot, its end).
 * When the late answer comes, the send must not apply the run's events again: applied over the
 * snapshot, TEXT_MESSAGE_START reuses the message and TEXT_MESSAGE_CONTENT appends its text a
 * second time, and the next plain send, anchored at that message, is refused 409
 * `history-conflict` ("its content differs") although nothing is live and nothing waits.
 */
import { firstValueFrom, filter } from "rxjs";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { counter } from "../../client/support";
import { USER } from "../branches/branchServer";
import { as } from "../threads/support";
import { LEASE_MS, QUEUE_RECHECK_MS, serveQueue, storeView, THREAD, type QueueServer } from "./queueServer";

/** A fetch that holds the answer to the post of run `runId` (the server has it and runs it) until `release()`. */
function holdingFetch(runId: string): { readonly fetch: typeof fetch; release(): void } {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const holding: typeof fetch = async (url, init) => {
    const answer = await fetch(url, init);
    const body = typeof init?.body === "string" ? init.body : "";
    const target = typeof url === "string" ? url : url instanceof URL ? url.href : url.url;
    if (!target.endsWith("/agent") || !body.includes(`"runId":${JSON.stringify(runId)}`)) return answer;
    await released;
    return answer;
  };
  return { fetch: holding, release: () => release() };
}

/** Resolves once `check` holds, looking again after each turn of the event loop. */
async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let turn = 0; turn < 20_000; turn++) {
    if (await check()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`expected ${what}`);
}

/** Subscribes `updates$`, keeping its updates; `ended` resolves at its completion. */
function watch(updates$: ReturnType<Session["send"]>): { readonly updates: Update<unknown>[]; readonly ended: Promise<void> } {
  const updates: Update<unknown>[] = [];
  const ended = new Promise<void>((resolve) => updates$.subscribe({ next: (update) => updates.push(update), complete: resolve, error: resolve }));
  return { updates, ended };
}

const dones = (updates: readonly Update<unknown>[]) => updates.flatMap((update) => (update.kind === "done" ? [update.end] : []));

let server: QueueServer;
beforeEach(async () => {
  jest.spyOn(console, "warn").mockImplementation(() => undefined);
  server = await serveQueue();
});
afterEach(async () => {
  await server.close();
  jest.restoreAllMocks();
});

test("a run that a connect() showed before the send's own answer arrived is not applied again, and the next plain send runs (seed 29324926)", async () => {
  const held = holdingFetch("r1");
  const session = new Session(new HttpTransport(server.url, { headers: as(USER), fetch: held.fetch, reconnect: { delay: 0 }, retry: { delay: 0 } }), {
    threadId: THREAD,
    newId: counter("s"),
  });
  try {
    // m0 makes the thread
    const first = watch(session.send({ id: "m0", role: "user", content: "message 0" }, { runId: "r0" }));
    await until("r0's agent to wait", () => server.agent.waiting("r0"));
    server.agent.step("r0", "finish");
    await first.ended;

    // m1, sent with a policy on the idle thread, runs now as r1; its answer is held
    const sent = watch(session.send({ id: "m1", role: "user", content: "message 1" }, { whileRunning: "interrupt", runId: "r1" }));
    await until("r1's agent to wait", () => server.agent.waiting("r1"));
    server.agent.step("r1", "say");
    await until("the store to hold r1's message", async () => (await storeView(server.store)).path.includes("a-r1-1"));
    // r1's lease runs out (ABANDONED); its producer comes back and finds its run over
    server.clock.advance(LEASE_MS + QUEUE_RECHECK_MS);
    server.agent.step("r1", "finish");
    await until("r1 to end", async () => (await storeView(server.store)).live === null);

    // the page, idle, joins the thread: the join shows r1 whole
    expect(session.running).toBe(false);
    const joined = watch(session.connect());
    await joined.ended;
    expect(dones(joined.updates).map((end) => end.kind)).toEqual(["success"]);
    expect(session.messages.map(({ id, content }) => ({ id, content }))).toEqual([
      { id: "m0", content: "message 0" },
      { id: "m1", content: "message 1" },
      { id: "a-r1-1", content: "said 1 in r1" },
    ]);

    // then m1's answer arrives: its send ends with its run's end, and shows nothing twice
    held.release();
    await sent.ended;
    expect(dones(sent.updates)).toEqual([expect.objectContaining({ kind: "failed", code: "ABANDONED" })]);
    expect(session.messages.map(({ id, content }) => ({ id, content }))).toEqual([
      { id: "m0", content: "message 0" },
      { id: "m1", content: "message 1" },
      { id: "a-r1-1", content: "said 1 in r1" },
    ]);

    // nothing is live and nothing waits: a plain send runs now (docs/queue.md#policies)
    const next = watch(session.send({ id: "m2", role: "user", content: "message 2" }, { runId: "r2" }));
    await firstValueFrom(session.running$.pipe(filter(Boolean)));
    await until("r2 to start, or m2's send to end", async () => (await storeView(server.store)).live === "r2" || dones(next.updates).length > 0);
    expect({ live: (await storeView(server.store)).live, ends: dones(next.updates) }).toEqual({ live: "r2", ends: [] });
    await until("r2's agent to wait", () => server.agent.waiting("r2"));
    server.agent.step("r2", "finish");
    await next.ended;
    expect((await storeView(server.store)).path).toEqual(["m0", "m1", "a-r1-1", "m2"]);
  } finally {
    session.close();
  }
}, 30_000);
