/**
 * The producer child of clusterProducer.ts: begins run `r1` on each configured thread of the
 * cluster, appends a message start and some text to each, prints `{threadId: cursor}` as one JSON
 * line, then keeps the runs live (the writers renew their leases) until it is killed.
 */
import { createCluster } from "redis";
import { ev, runAgentInput } from "../../../../src/protocol/build";
import { redisStore } from "../../../../src/redis/redisStore";
import type { ProducerConfig } from "./clusterProducer";

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- written by clusterProducer.ts, the test support that starts this process
  const config: ProducerConfig = JSON.parse(process.env.AGUI_PRODUCER ?? "{}"); // test-only
  const cluster = createCluster({ rootNodes: config.nodes.map((node) => ({ url: `redis://${node}` })) });
  cluster.on("error", () => undefined);
  await cluster.connect();
  const store = redisStore({ client: cluster, prefix: config.prefix, lease: config.lease });
  const cursors: Record<string, string> = {};
  for (const threadId of config.threadIds) {
    const writer = await store.beginRun(runAgentInput(threadId, "r1"));
    const logged = await writer.append([ev.textMessageStart("m1"), ev.textMessageContent("m1", "half a sentence")]);
    cursors[threadId] = logged[logged.length - 1];
  }
  process.stdout.write(`${JSON.stringify(cursors)}\n`);
  setInterval(() => undefined, 60_000); // kept alive until killed
}

main().catch((error: unknown) => {
  process.stderr.write(`producer failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
