/**
 * The server side of the queue property test: a store-backed handler on loopback with the stepped
 * agent, a memory store and the handler on one virtual clock, a cutting proxy in front of it for
 * the Sessions, and the reads the test checks the model against: what the store shows of the
 * thread now (`storeView`) and every run's logged events (`runLogs`).
 */
import { createHandler } from "../../../src/server/http/createHandler";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import type { RunWriter, StoredEvent, ThreadStore } from "../../../src/server/store/ThreadStore";
import type { Event } from "../../../src/protocol/events";
import { serve, type Served } from "../../../src/node/serve";
import { ManualClock } from "../../server/store/manualClock";
import { startCutProxy, type CutProxy } from "../../support/cutProxy";
import { USER } from "../branches/branchServer";
import { identifyByHeader } from "../threads/support";
import { SteppedAgent } from "./queueAgent";
import type { ModelView } from "./queueModel";

/** The thread every command plays on. */
export const THREAD = "t";
/** The store's lease on the virtual clock. */
export const LEASE_MS = 30_000;
/** How often a waiting message's stream looks at its thread again (the handler's default, docs/queue.md#who-starts-a-waiting-message). */
export const QUEUE_RECHECK_MS = 10_000;

/** One run the store began: its id and RUN_STARTED's cursor, in the order begun. */
export interface BegunRun {
  readonly runId: string;
  readonly started: StoredEvent;
}

/** The served handler and what the test reads of it. */
export interface QueueServer {
  /** The agent endpoint through the proxy (what the Sessions use). */
  readonly url: string;
  /** The agent endpoint without the proxy. */
  readonly directUrl: string;
  readonly store: ThreadStore;
  readonly clock: ManualClock;
  readonly agent: SteppedAgent;
  readonly proxy: CutProxy;
  /** Every run begun, in order. */
  readonly begun: readonly BegunRun[];
  close(): Promise<void>;
}

/**
 * A store that notes every run it begins (and otherwise is `store`): the order runs started in, and
 * where each one's log starts.
 */
function noting(store: ThreadStore, begun: BegunRun[]): ThreadStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key !== "beginRun") {
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value; // the store's own methods, on itself
      }
      return async (...args: Parameters<ThreadStore["beginRun"]>): Promise<RunWriter> => {
        const writer = await target.beginRun(...args);
        begun.push({ runId: writer.runId, started: writer.started });
        return writer;
      };
    },
  });
}

/**
 * Serves the stepped agent over a memory store, both on one manual clock, behind a cutting proxy
 * (`Connection: close`, so every answer has its own connection).
 *
 * @example
 * const server = await serveQueue();
 * try { … } finally { await server.close(); }
 */
export async function serveQueue(): Promise<QueueServer> {
  const clock = new ManualClock();
  const begun: BegunRun[] = [];
  const store = noting(memoryStore({ clock, lease: LEASE_MS, maxRunsPerThread: 1000 }), begun);
  const agent = new SteppedAgent();
  const handler = createHandler(agent.agent, {
    store,
    clock,
    identify: identifyByHeader,
    idleWriteTimeoutMs: Infinity, // the clock moves past leases; a socket's idleness is not under test
    headers: { Connection: "close" },
    onRunError: () => undefined,
  });
  const served: Served = await serve(handler);
  const proxy = await startCutProxy(served.port);
  return {
    url: proxy.url("/agent"),
    directUrl: `${served.url}agent`,
    store,
    clock,
    agent,
    proxy,
    begun,
    async close() {
      agent.finishAll();
      await proxy.close();
      await served.close();
    },
  };
}

/**
 * What the store shows of the thread now, in the model's terms (`ModelView`): the live run, the
 * queue's ids in order, the path's user and assistant messages, and what it waits on.
 *
 * @example
 * expect(await storeView(server.store)).toEqual(model.view());
 */
export async function storeView(store: ThreadStore): Promise<ModelView> {
  const read = await store.read(THREAD, undefined, { owner: USER });
  if (read === undefined) return { live: null, queue: [], path: [], awaiting: null }; // not made yet
  if (read.kind !== "snapshot") throw new Error(`expected a snapshot read of thread ${THREAD}, got ${read.kind}`);
  const { snapshot } = read;
  const live = snapshot.run.status === "running" ? snapshot.run.runId : null;
  return {
    live,
    queue: (read.queue ?? []).map((entry) => entry.id),
    path: snapshot.messages.filter((message) => message.role === "user" || message.role === "assistant").map((message) => message.id),
    // What the thread waits on while no run is live (a live resume's snapshot still lists the interrupts it answers until it ends).
    awaiting: live !== null ? null : (snapshot.interrupts[0]?.id ?? snapshot.pendingToolCallIds?.[0] ?? null),
  };
}

/**
 * Every begun run's events as logged, in the order the runs began: its RUN_STARTED and what
 * follows it through its terminal (an `ABANDONED` end the store logged included).
 *
 * @example
 * for (const { runId, events } of await runLogs(server)) await expectAccepted(events);
 */
export async function runLogs(server: QueueServer): Promise<{ readonly runId: string; readonly events: readonly Event[] }[]> {
  const logs: { readonly runId: string; readonly events: readonly Event[] }[] = [];
  for (const { runId, started } of server.begun) {
    const read = await server.store.read(THREAD, started.cursor, { owner: USER });
    if (read?.kind !== "resume") throw new Error(`expected run ${runId}'s log after its RUN_STARTED, but the store answered ${read?.kind ?? "none"}`);
    logs.push({ runId, events: [started.event, ...read.events.map((stored) => stored.event)] });
  }
  return logs;
}
