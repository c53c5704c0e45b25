/**
 * A real Redis Cluster on loopback for the cluster suite (docs/durability.md#redis-cluster): six
 * `redis-server --cluster-enabled yes` children (three primaries, three replicas) without
 * persistence, each with its node file in a directory of the cluster's own, joined by
 * `redis-cli --cluster create … --cluster-replicas 1 --cluster-yes`, ready once every node reports
 * `cluster_state:ok`, knows all six nodes, and every replica's link to its primary is up.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort, startRedisServer, type RedisServer } from "../../support/redisServer";

const run = promisify(execFile);
const CLI = process.env.REDIS_CLI ?? "redis-cli";

/** A started cluster. */
export interface RedisCluster {
  /** `127.0.0.1:<port>` of every node, primaries first as created. */
  readonly nodes: readonly string[];
  /** The node processes by address, to kill or stop one. */
  readonly servers: ReadonlyMap<string, RedisServer>;
  readonly dir: string;
  /** Stops every node (SIGTERM) and removes the cluster's directory. */
  stop(): Promise<void>;
}

/**
 * Runs `redis-cli -h 127.0.0.1 -p <port> <args…>` and resolves with its output.
 *
 * @example
 * await cli("127.0.0.1:7000", "CLUSTER", "INFO");
 */
export async function cli(node: string, ...args: string[]): Promise<string> {
  const [host, port] = node.split(":");
  const { stdout } = await run(CLI, ["-h", host, "-p", port, ...args], { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/**
 * Polls `ready` every 100 ms until it holds, failing after `ms` with `what`.
 *
 * @example
 * await settle(() => allOk(nodes), 20_000, "cluster_state:ok on every node");
 */
export async function settle(ready: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await ready().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`expected ${what} within ${ms} ms, but it did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether every node in `nodes` reports `cluster_state:ok`, knows `nodes.length` nodes, and every replica's link is up. */
export async function clusterReady(nodes: readonly string[]): Promise<boolean> {
  for (const node of nodes) {
    const info = await cli(node, "CLUSTER", "INFO");
    if (!info.includes("cluster_state:ok") || !info.includes(`cluster_known_nodes:${nodes.length}`)) return false;
    const replication = await cli(node, "INFO", "replication");
    if (replication.includes("role:slave") && !replication.includes("master_link_status:up")) return false;
  }
  return true;
}

/**
 * Starts six nodes and joins them into three primaries with a replica each; resolves once ready (within 60 s).
 *
 * @example
 * const cluster = await startRedisCluster();
 * process.env.REDIS_CLUSTER_NODES = cluster.nodes.join(",");
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), "agui-cluster-"));
  const servers = new Map<string, RedisServer>();
  const stop = async (): Promise<void> => {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 6; i++) {
      const port = await freePort();
      const server = await startRedisServer({
        port,
        extraArgs: [
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          join(dir, `nodes-${port}.conf`),
          "--dir",
          dir,
          // a primary that stops answering is replaced within seconds (the failover tests)
          "--cluster-node-timeout",
          "2000",
        ],
      });
      servers.set(`127.0.0.1:${port}`, server);
    }
    const nodes = [...servers.keys()];
    await run(CLI, ["--cluster", "create", ...nodes, "--cluster-replicas", "1", "--cluster-yes"], { maxBuffer: 16 * 1024 * 1024 });
    await settle(() => clusterReady(nodes), 60_000, "every node of the new cluster to report cluster_state:ok");
    return { nodes, servers, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
