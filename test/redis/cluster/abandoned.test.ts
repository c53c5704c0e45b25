/**
 * A producer process killed with `kill -9` on a Redis Cluster: its runs, on threads spread over
 * the primaries, are ended ABANDONED for another instance's tails once their leases run out.
 */
import { lastValueFrom, toArray } from "rxjs";
import { clusterNodes, clusterStores } from "./support/clusterClients";
import { startProducer } from "./support/clusterProducer";

const stores = clusterStores("abandoned");
afterEach(() => stores.closeAll());

test("kill -9 of a producer with six live runs: each ends RUN_ERROR ABANDONED for the other instance's tail within its lease", async () => {
  const lease = 1500;
  const threadIds = Array.from({ length: 6 }, (_, i) => `killed-${i}`);
  const producer = await startProducer({ nodes: clusterNodes(), prefix: stores.prefix, threadIds, lease });
  const watcher = await stores.open({ lease });
  const tails = threadIds.map((threadId) => lastValueFrom(watcher.tail(threadId, producer.cursors[threadId]).pipe(toArray())));
  await producer.kill();
  const killed = Date.now();
  const logs = await Promise.all(tails);
  const elapsed = Date.now() - killed;
  for (const log of logs) expect(log.map((stored) => stored.event)).toEqual([expect.objectContaining({ type: "RUN_ERROR", code: "ABANDONED" })]);
  expect(elapsed).toBeLessThan(lease + 2000); // the lease from the last append, and the watcher's check right after
});
