/**
 * Moving one slot between primaries of the suite's cluster the way `redis-cli --cluster reshard`
 * does it (CLUSTER SETSLOT … IMPORTING / MIGRATING, MIGRATE key by key, SETSLOT … NODE on every
 * primary), one key at a time with a pause of the test's between keys, so that live runs meet the
 * slot half moved (TRYAGAIN, ASK) and then moved (MOVED).
 */
import { clusterNodes } from "./clusterClients";
import { cli } from "./redisCluster";

/** One primary: its address and node id. */
export interface Primary {
  readonly address: string;
  readonly id: string;
}

/** The slot of `key`, as the cluster computes it. */
export async function slotOf(key: string): Promise<number> {
  return Number((await cli(clusterNodes()[0], "CLUSTER", "KEYSLOT", key)).trim());
}

/** The primaries now, and the one that serves `slot`, asked of a node that is a primary itself. */
export async function primaries(slot: number): Promise<{ all: Primary[]; owner: Primary }> {
  const all: Primary[] = [];
  for (const node of clusterNodes()) {
    if (!(await cli(node, "INFO", "replication")).includes("role:master")) continue;
    all.push({ address: node, id: (await cli(node, "CLUSTER", "MYID")).trim() });
  }
  const ranges = JSON.parse(await cli(all[0].address, "--json", "CLUSTER", "SLOTS")) as [number, number, [string, number, string]][];
  const range = ranges.find(([from, to]) => from <= slot && slot <= to);
  const owner = all.find((primary) => range !== undefined && primary.id === range[2][2]);
  if (owner === undefined) throw new Error(`expected slot ${slot} to have a primary`);
  return { all, owner };
}

/**
 * Moves `slot` from `from` to `to`, calling `between()` before each key moves and once more before
 * the move is made final, and resolves with how many keys moved.
 *
 * @example
 * await moveSlot(slot, owner, target, () => writer.append([ev.textMessageContent("m1", ".")]));
 */
export async function moveSlot(slot: number, from: Primary, to: Primary, all: readonly Primary[], between: () => Promise<void>): Promise<number> {
  const [toHost, toPort] = to.address.split(":");
  await cli(to.address, "CLUSTER", "SETSLOT", String(slot), "IMPORTING", from.id);
  await cli(from.address, "CLUSTER", "SETSLOT", String(slot), "MIGRATING", to.id);
  let moved = 0;
  for (;;) {
    await between();
    const keys = (await cli(from.address, "CLUSTER", "GETKEYSINSLOT", String(slot), "1")).split("\n").filter((key) => key !== "");
    if (keys.length === 0) break;
    const reply = await cli(from.address, "MIGRATE", toHost, toPort, "", "0", "5000", "KEYS", keys[0]);
    if (!reply.startsWith("OK") && !reply.startsWith("NOKEY")) throw new Error(`expected MIGRATE to move ${keys[0]}, but it answered ${reply}`);
    moved += 1;
  }
  await between();
  // the importing node first, then the migrating one, then the rest (as redis-cli does)
  for (const primary of [to, from, ...all.filter((p) => p.id !== to.id && p.id !== from.id)])
    await cli(primary.address, "CLUSTER", "SETSLOT", String(slot), "NODE", to.id);
  return moved;
}
