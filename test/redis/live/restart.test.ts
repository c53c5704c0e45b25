/**
 * Restart: a new store instance on the same Redis, the old one closed (its client too), reads every
 * finished thread's history, with the same cursors (the `persists` guarantee), and carries on.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { Message } from "../../../src/protocol/messages";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { StoredEvent, ThreadRead } from "../../../src/server/store/ThreadStore";
import { ManualClock } from "../../server/store/manualClock";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const prefix = uniquePrefix("restart");
const user = (id: string, content: string): Message => ({ id, role: "user", content });
const text = (id: string, content: string): Event[] => [ev.textMessageStart(id), ev.textMessageContent(id, content), ev.textMessageEnd(id)];

/** The ways a run can end, one thread each. */
const endings: [string, (threadId: string, runId: string) => Event[]][] = [
  ["finished", (threadId, runId) => [...text("a", "done"), ev.stateSnapshot({ step: 2 }), ev.runFinished(threadId, runId)]],
  [
    "interrupted",
    (threadId, runId) => [
      ...text("a", "approve?"),
      ev.runFinished(threadId, runId, { outcome: { type: "interrupt", interrupts: [{ id: "i1", reason: "approve" }] } }),
    ],
  ],
  ["failed", () => [ev.textMessageStart("a"), ev.textMessageContent("a", "par"), ev.runError("model down", { code: "UPSTREAM" })]],
  ["cancelled", (threadId, runId) => [...text("a", "stopped"), ev.runFinished(threadId, runId, { outcome: { type: "cancelled" } })]],
];

async function open(clock: ManualClock): Promise<{ store: RedisStore; client: TestClient }> {
  const client = await connectClient("restart");
  return { store: redisStore({ client, prefix, clock, lease: 1000 }), client };
}

test("every finished thread, however it ended (ABANDONED included), reads the same after a restart, cursors and all", async () => {
  const clock = new ManualClock();
  const before = await open(clock);
  const logs = new Map<string, StoredEvent[]>();
  for (const [ending, events] of endings) {
    const threadId = `restart-${ending}-${Date.now().toString(36)}`;
    const log: StoredEvent[] = [];
    for (const runId of ["r1", "r2"]) {
      const writer = await before.store.beginRun(runAgentInput(threadId, runId, { messages: [user(`u-${runId}`, `question for ${runId}`)] }));
      const batch = runId === "r1" ? [...text("a0", "first"), ev.runFinished(threadId, runId)] : events(threadId, runId);
      const cursors = await writer.append(batch);
      log.push(writer.started, ...batch.map((event, i) => ({ cursor: cursors[i], event })));
    }
    logs.set(threadId, log);
  }
  const abandoned = `restart-abandoned-${Date.now().toString(36)}`;
  const writer = await before.store.beginRun(runAgentInput(abandoned, "r1", { messages: [user("u1", "hello")] }));
  await writer.append(text("a1", "half an answer"));
  const reads = new Map<string, ThreadRead | undefined>();
  const resumes = new Map<string, ThreadRead | undefined>();
  for (const [threadId, log] of logs) {
    reads.set(threadId, await before.store.read(threadId));
    resumes.set(threadId, await before.store.read(threadId, log[1].cursor));
  }
  await before.store.close(); // the process goes away with a run still live
  await closeClient(before.client);

  clock.advance(1000); // its lease runs out while no instance is up
  const after = await open(clock);
  try {
    for (const [threadId, log] of logs) {
      expect(await after.store.read(threadId)).toEqual(reads.get(threadId));
      expect(await after.store.read(threadId, log[1].cursor)).toEqual(resumes.get(threadId)); // the same cursor, the same events
      const read = await after.store.read(threadId, log[log.length - 4].cursor);
      expect(read).toEqual({ kind: "resume", after: log[log.length - 4].cursor, events: log.slice(-3) });
    }
    const gone = await after.store.read(abandoned); // the first instance to look ends it
    if (gone?.kind !== "snapshot") throw new Error("expected the abandoned thread's snapshot");
    expect(gone.snapshot.messages.map((m) => m.id)).toEqual(["u1", "a1"]);
    expect(gone.snapshot.run).toMatchObject({ runId: "r1", status: "failed", errorCode: "ABANDONED" });

    // and the threads carry on: a new run's cursors come after the old ones, a tail from before the restart works
    const [threadId, log] = [...logs][0];
    const tail = lastValueFrom(after.store.tail(threadId, log[log.length - 1].cursor).pipe(toArray()));
    const next = await after.store.beginRun(runAgentInput(threadId, "r3"));
    const cursors = await next.append([...text("a3", "again"), ev.runFinished(threadId, "r3")]);
    expect((await tail).map((s) => s.cursor)).toEqual([next.started.cursor, ...cursors]);
    const read = await after.store.read(threadId, log[0].cursor);
    expect(read?.kind === "resume" && read.events).toEqual(log.slice(1, 5)); // through r1's terminal, as before
  } finally {
    await after.store.close();
    await closeClient(after.client);
  }
});
