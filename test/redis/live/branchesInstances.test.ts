/**
 * Branches across several store instances on one real redis-server (docs/threads.md#the-tree,
 * #redis-keys): a fork made on one is read on another, a switch made on one is what every other
 * reads and hears, and the switch's compare-and-set keeps every interleaving whole — a switch that
 * lost to another switch, to a fork or to a run that started meanwhile reads again and answers for
 * the thread as it now is; a run whose begin lost to a switch starts on the switched path.
 */
import { firstValueFrom, lastValueFrom, take, toArray } from "rxjs";
import { forkMarkerOf } from "../../../src/protocol/branchMeta";
import { createHash } from "node:crypto";
import { runAgentInput } from "../../../src/protocol/build";
import { nodeRedisPort } from "../../../src/redis/nodeRedisPort";
import type { RedisPort } from "../../../src/redis/RedisPort";
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { selectScript } from "../../../src/redis/scripts/selectBranch";
import { beginScript } from "../../../src/redis/scripts/beginRun";
import { answer, answered, chat, current, ids, postForked, postWhole, type BranchThread } from "../../server/store/branchesSupport";
import { newOwner, newThreadId, user } from "../../server/store/ownedThreadsSupport";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";
import { asLogged } from "../../support/storedEvents";

const prefix = uniquePrefix("branches-instances");
const opened: { store: RedisStore; client: TestClient }[] = [];

afterEach(async () => {
  for (const { store, client } of opened.splice(0)) {
    await store.close();
    await closeClient(client);
  }
});

/** A port whose next call of `script` first runs `meanwhile` (another instance's work between this one's read and its write). */
interface PausingPort extends RedisPort {
  before(script: { readonly source: string }, meanwhile: () => Promise<void>): void;
}

function pausingPort(client: TestClient): PausingPort {
  const inner = nodeRedisPort(client);
  const armed: { digest: string; source: string; meanwhile: () => Promise<void> }[] = [];
  return {
    before: (script, meanwhile) => armed.push({ digest: createHash("sha1").update(script.source).digest("hex"), source: script.source, meanwhile }),
    send: async (args, signal) => {
      const index = armed.findIndex(({ digest, source }) => args[1] === digest || args[1] === source);
      if (index >= 0) await armed.splice(index, 1)[0].meanwhile();
      return inner.send(args, signal);
    },
    connect: (name, signal) => inner.connect(name, signal),
    subscribe: (name, channel, listener, signal) => inner.subscribe(name, channel, listener, signal),
  };
}

async function instance(): Promise<{ store: RedisStore; port: PausingPort }> {
  const client = await connectClient("branches-instances");
  const port = pausingPort(client);
  const store = redisStore({ port, prefix });
  opened.push({ store, client });
  return { store, port };
}

/** Instances A and B, and one thread of one owner as each sees it. */
async function twoInstances(): Promise<{ a: BranchThread; b: BranchThread; portA: PausingPort; portB: PausingPort }> {
  const [first, second] = [await instance(), await instance()];
  const [owner, threadId] = [newOwner(), newThreadId()];
  return { a: { store: first.store, owner, threadId }, b: { store: second.store, owner, threadId }, portA: first.port, portB: second.port };
}

const select = (t: BranchThread, messageId: string, index: number) => t.store.selectBranch(t.threadId, messageId, index, { owner: t.owner });

test("A forks and B's tail and read show it; B switches: A reads the switched path and its listEvents hear it; while A has a live run B's switch is run-active", async () => {
  const { a, b } = await twoInstances();
  const path = await chat(a);
  const tailOnB = lastValueFrom(b.store.tail(b.threadId, (await current(b)).cursor, { owner: b.owner }).pipe(toArray()));
  const fork = await postForked(a, "u2");
  await answer(fork.writer, "a2b", { state: { n: 3 } });
  const [started] = await tailOnB; // a tab on B hears the fork from A's run
  expect(asLogged(started)).toEqual(fork.writer.started);
  expect(forkMarkerOf(started.event.metadata)).toEqual({ after: "u2", siblingIds: ["a2"] });
  expect((await current(b)).branches?.groups).toEqual([{ after: "u2", selected: 1, siblingIds: ["a2", "a2b"] }]);
  const heard = firstValueFrom(a.store.listEvents({ owner: a.owner }).pipe(take(1), toArray()));
  expect(await select(b, "a2b", 0)).toBe("switched");
  expect((await heard).map((event) => ("thread" in event ? [event.type, event.thread.threadId] : event.type))).toEqual([["path-selected", a.threadId]]);
  const onA = await current(a);
  expect(onA.messages).toEqual(path);
  expect(onA.state).toEqual({ n: 2 });
  expect(onA.branches?.groups).toEqual([{ after: "u2", selected: 0, siblingIds: ["a2", "a2b"] }]);
  expect(ids((await current(a, 1)).messages)).toEqual(["a2"]);

  const live = await postWhole(a, [user("u3", "and then")]);
  expect(await select(b, "a2", 1)).toBe("run-active");
  await answer(live.writer, "a3");
  expect(await select(b, "a2", 1)).toBe("switched");
  expect((await current(a)).messages).toEqual([...path.slice(0, 3), answered("a2b")]);
});

test("a switch that lost to another instance's switch reads again and answers for the thread as it now is; no sibling is lost", async () => {
  const { a, b, portB } = await twoInstances();
  await chat(a);
  await answer((await postForked(a, "u2")).writer, "a2b");
  await answer((await postForked(a, "u2")).writer, "a2c");
  expect(await select(a, "a2c", 1)).toBe("switched"); // a2b shown
  // B read a2b on the path and means to show a2; before its write, A shows a2c
  portB.before(selectScript, async () => expect(await select(a, "a2b", 2)).toBe("switched"));
  expect(await select(b, "a2b", 0)).toBe("unknown-message"); // a2b is no longer on the path
  const now = await current(b);
  expect(ids(now.messages)).toEqual(["u1", "a1", "u2", "a2c"]);
  expect(now.branches?.groups).toEqual([{ after: "u2", selected: 2, siblingIds: ["a2", "a2b", "a2c"] }]);
});

test("a switch that lost to a fork, or to a run that started meanwhile, reads again: the fork is kept, the run makes it run-active", async () => {
  const { a, b, portB } = await twoInstances();
  await chat(a);
  await answer((await postForked(a, "u2")).writer, "a2b");
  portB.before(selectScript, async () => answer((await postForked(a, "u2")).writer, "a2c"));
  expect(await select(b, "a2b", 0)).toBe("unknown-message"); // the fork showed a2c in a2b's place
  expect((await current(b)).branches?.groups).toEqual([{ after: "u2", selected: 2, siblingIds: ["a2", "a2b", "a2c"] }]);

  let live: Awaited<ReturnType<typeof postWhole>> | undefined;
  portB.before(selectScript, async () => {
    live = await postWhole(a, [user("u3", "and then")]);
  });
  expect(await select(b, "a2c", 0)).toBe("run-active");
  if (live === undefined) throw new Error("expected the run to have started");
  await answer(live.writer, "a3");
  expect(ids((await current(b)).messages)).toEqual(["u1", "a1", "u2", "a2c", "u3", "a3"]);
});

test("a run whose begin lost to a switch on another instance starts on the switched path; the sibling it left stays whole", async () => {
  const { a, b, portA } = await twoInstances();
  const path = await chat(a);
  await answer((await postForked(a, "u2")).writer, "a2b");
  portA.before(beginScript, async () => expect(await select(b, "a2b", 0)).toBe("switched"));
  const writer = await a.store.beginRun(runAgentInput(a.threadId, "r-next"), { owner: a.owner });
  await answer(writer, "a9");
  const now = await current(b);
  expect(now.messages).toEqual([...path, answered("a9")]);
  expect(now.branches?.groups).toEqual([{ after: "u2", selected: 0, siblingIds: ["a2", "a2b"] }]);
  expect(await select(b, "a2", 1)).toBe("switched");
  expect(ids((await current(a)).messages)).toEqual(["u1", "a1", "u2", "a2b"]);
});
