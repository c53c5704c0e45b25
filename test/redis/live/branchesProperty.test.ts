/**
 * Property (docs/threads.md#the-tree) on a real redis-server: the seeded sequences of sends, edits,
 * regenerates, switches and history walks of test/http/branches/branchesProperty.test.ts, played
 * at once on a handler over a `redisStore` and one over a memory store; after every operation
 * each matches the model of the tree (agent input, client, `/connect`, `/history`), through the
 * official HttpAgent and through our Session, and both
 * stores' snapshots agree: the path's messages, the state and the sibling groups.
 */
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { plain } from "../../http/branches/branchModel";
import { playSeed, THREAD, type BranchClient, type BranchLane } from "../../http/branches/branchRunner";
import { serveBranches, USER, type BranchServer } from "../../http/branches/branchServer";
import { officialClient } from "../../http/branches/officialClient";
import { sessionClient } from "../../http/branches/sessionClient";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const SEEDS = [1, 2, 3, 4, 5, 6];
const STEPS = 12;

let client: TestClient;
let redis: RedisStore;
const servers: BranchServer[] = [];

beforeEach(async () => {
  client = await connectClient("branches-property");
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.served.close()));
  await redis.close();
  await closeClient(client);
});

/** What a store holds of the thread: the selected path, its state and its sibling groups. */
async function holding(store: ThreadStore) {
  const read = await store.read(THREAD, undefined, { owner: USER });
  if (read?.kind !== "snapshot") throw new Error(`expected the store to read thread ${THREAD} as a snapshot, got ${read?.kind ?? "nothing"}`);
  const { messages, state, branches } = read.snapshot;
  return { messages: messages.map(plain), state: state ?? null, groups: branches?.groups ?? [] };
}

/** A handler over a redisStore and one over a memory store, each with its own `client`. */
async function sideBySide(seed: number, clientOf: (url: string) => BranchClient): Promise<BranchLane[]> {
  redis = redisStore({ client, prefix: uniquePrefix(`branches-${seed}`) });
  const lanes: BranchLane[] = [];
  for (const [label, store] of [
    ["the redisStore", redis],
    ["the memory store", memoryStore()],
  ] as const) {
    const server = await serveBranches(store);
    servers.push(server);
    lanes.push({ server, client: clientOf(server.url), label });
  }
  return lanes;
}

/** After each operation the two stores hold the same path, state and groups. */
function storesAgree(lanes: readonly BranchLane[]): () => Promise<void> {
  return async () => {
    const [onRedis, inMemory] = await Promise.all(lanes.map((lane) => holding(lane.server.store)));
    expect(onRedis).toEqual(inMemory);
  };
}

test.each(SEEDS)(
  "seed %i through the official HttpAgent: a redisStore and a memory store hold the same path, state and groups after every operation",
  async (seed) => {
    const lanes = await sideBySide(seed, (url) => officialClient(url, THREAD));
    await playSeed(seed, STEPS, lanes, storesAgree(lanes));
  },
);

test.each(SEEDS)("seed %i through our Session: a redisStore and a memory store hold the same path, state and groups after every operation", async (seed) => {
  const lanes = await sideBySide(seed, (url) => sessionClient(url, THREAD));
  await playSeed(seed, STEPS, lanes, storesAgree(lanes));
});
