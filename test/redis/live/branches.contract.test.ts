/** The branches contract suite (forks, switches, reads after a switch) against `redisStore()` on a real redis-server: the same suite memoryStore passes. */
import { redisStore, type RedisStore } from "../../../src/redis/redisStore";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { describeBranches } from "../../server/store/branchesContract";
import { closeClient, connectClient, uniquePrefix, type TestClient } from "../support/clients";

const clients = new Map<ThreadStore, { store: RedisStore; client: TestClient }>();
const prefix = uniquePrefix("branches");

describeBranches(
  "redisStore",
  async ({ clock, lease, maxRunsPerThread }) => {
    const client = await connectClient("branches");
    const store = redisStore({ client, prefix, clock, lease, maxRunsPerThread });
    clients.set(store, { store, client });
    return store;
  },
  async (store) => {
    const entry = clients.get(store);
    clients.delete(store);
    if (entry === undefined) return;
    await entry.store.close();
    await closeClient(entry.client);
  },
);
