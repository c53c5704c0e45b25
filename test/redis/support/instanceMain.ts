/**
 * One server instance of the multi-instance tests, run as a child process (bundled by
 * `instances.ts`): the task-board agent behind `createHandler` with a `redisStore` on the shared
 * Redis, on its own loopback port, with `Connection: close` (so that each request is a connection
 * of its own, routed anew by the test's balancer). Configured by the JSON in `AGUI_INSTANCE`
 * (`InstanceConfig`); prints one line `{"port":…,"store":…}` once it listens; SIGTERM closes the
 * server, the store and the client, then exits 0.
 */
import { openRedisStore } from "../../../examples/task-board/redis";
import { createTaskBoardServer } from "../../../examples/task-board/server";
import type { InstanceConfig } from "./instanceConfig";

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- written by instances.ts, the test support that starts this process
  const config: InstanceConfig = JSON.parse(process.env.AGUI_INSTANCE ?? "{}"); // test-only: written by instances.ts
  const redis = await openRedisStore(config.redisUrl, { prefix: config.prefix, lease: config.leaseMs, timeout: config.timeoutMs, clientName: config.name });
  const server = await createTaskBoardServer({
    port: config.port ?? 0,
    typingDelayMs: config.typingDelayMs,
    researchDelayMs: config.researchDelayMs,
    store: redis.store,
    headers: { Connection: "close" },
    ...(config.queueRecheckMs === undefined ? {} : { queueRecheckMs: config.queueRecheckMs }),
  });
  process.stdout.write(`${JSON.stringify({ port: server.port, store: redis.store.instance })}\n`);
  process.once("SIGTERM", () => {
    void server
      .close()
      .then(() => redis.close())
      .then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`instance failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
