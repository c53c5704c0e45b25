/**
 * `redis-cli --cluster reshard`, the operator's own tool, moving the slot of a live thread to
 * another primary while its run appends and another instance tails it (issue #28 §1;
 * docs/durability.md#redis-cluster). The tool takes the lowest slots of the node it moves from,
 * so the thread is named to hash to its primary's lowest slot, and `--cluster-slots 1` moves
 * exactly that one. Nothing the writer was told was logged is missing or doubled, and the tail
 * gets it all in order.
 */
import { ev } from "../../../src/protocol/build";
import { until } from "../support/until";
import { clusterNodes, clusterStores } from "./support/clusterClients";
import { primaries, slotOf } from "./support/slotMoves";
import { appendingRun } from "./support/liveRun";
import { cli } from "./support/redisCluster";

const stores = clusterStores("reshard-tool");

afterEach(() => stores.closeAll());

/** CRC16/XMODEM, the checksum Redis Cluster hashes keys with. */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A thread id (no `%`, `{` or `}`: its tag is the id itself) whose keys hash to `slot`. */
function threadInSlot(slot: number): string {
  for (let i = 0; i < 1_000_000; i++) if (crc16(`tool-${i}`) % 16_384 === slot) return `tool-${i}`;
  throw new Error(`expected a thread id in slot ${slot}`);
}

/** The lowest slot `node` (a primary's id) serves now. */
async function lowestSlot(nodeId: string): Promise<number> {
  const ranges = JSON.parse(await cli(clusterNodes()[0], "--json", "CLUSTER", "SLOTS")) as [number, number, [string, number, string]][];
  const own = ranges.filter((range) => range[2][2] === nodeId).map(([from]) => from);
  if (own.length === 0) throw new Error(`expected node ${nodeId} to serve slots`);
  return Math.min(...own);
}

test("redis-cli --cluster reshard moves a live thread's slot: every acknowledged append is logged once and tailed exactly", async () => {
  const [a, b] = [await stores.open(), await stores.open()];
  const { all } = await primaries(0);
  const [owner, target] = all;
  const slot = await lowestSlot(owner.id);
  const threadId = threadInSlot(slot);
  expect(await slotOf(`${stores.prefix}{${threadId}}:events`)).toBe(slot); // our checksum is the cluster's

  const run = await appendingRun(a, b, threadId);
  const { writer, seen, tail, appended } = run;
  const output = await cli(
    owner.address,
    "--cluster",
    "reshard",
    owner.address,
    "--cluster-from",
    owner.id,
    "--cluster-to",
    target.id,
    "--cluster-slots",
    "1",
    "--cluster-yes",
  );
  await run.stop();
  expect(output).toContain(`Moving slot ${slot} from`);
  expect(Number(await cli(owner.address, "CLUSTER", "COUNTKEYSINSLOT", String(slot)))).toBe(0);
  expect(Number(await cli(target.address, "CLUSTER", "COUNTKEYSINSLOT", String(slot)))).toBeGreaterThanOrEqual(3); // events, meta, snapshot at least

  await writer.append([ev.textMessageContent("m1", "~")]);
  await until(
    () => seen.some((stored) => stored.event.type === "TEXT_MESSAGE_CONTENT" && stored.event.delta === "~"),
    "the tail to see the append after the move",
    15_000,
  );
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished(threadId, "r1")]);
  const log = await tail;
  expect(log.map((stored) => stored.event)).toEqual(run.expected(["~"]));
  const read = await b.read(threadId);
  expect(read?.kind === "snapshot" && read.snapshot.messages.at(-1)?.content).toBe(`${appended.join("")}~`);
  console.log(`redis-cli --cluster reshard moved slot ${slot} of thread "${threadId}" under ${appended.length} appends`);
});
