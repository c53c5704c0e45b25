/**
 * Moving the slot of a live thread to another primary while its run appends and another instance
 * tails it (docs/durability.md#redis-cluster): scripts that meet the slot half moved (TRYAGAIN) are
 * sent again, ASK and MOVED are followed, the tail's sharded subscription follows the slot, and
 * nothing the writer was told was logged is missing or doubled.
 */
import { lastValueFrom, toArray } from "rxjs";
import { ev } from "../../../src/protocol/build";
import { until } from "../support/until";
import { clusterStores } from "./support/clusterClients";
import { moveSlot, primaries, slotOf } from "./support/slotMoves";
import { appendingRun } from "./support/liveRun";
import { cli } from "./support/redisCluster";

const stores = clusterStores("reshard");

/** The TRYAGAIN and ASK error replies `node` has given so far (INFO errorstats). */
async function errorCounts(node: string): Promise<{ TRYAGAIN: number; ASK: number }> {
  const stats = await cli(node, "INFO", "errorstats");
  const count = (name: string): number => Number(new RegExp(`errorstat_${name}:count=(\\d+)`).exec(stats)?.[1] ?? "0");
  return { TRYAGAIN: count("TRYAGAIN"), ASK: count("ASK") };
}

/** Resolves once `count()` grows, or after `ms` (polled every 2 ms). */
async function progressed(count: () => number, ms: number): Promise<void> {
  const from = count();
  const deadline = Date.now() + ms;
  while (count() === from && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 2));
}
afterEach(() => stores.closeAll());

test("a live thread's slot moves key by key to another primary mid-run: every acknowledged append is logged once and tailed exactly, before and after", async () => {
  const [a, b] = [await stores.open(), await stores.open()];
  const threadId = "moving";
  const slot = await slotOf(`${stores.prefix}{${threadId}}:events`);
  const { all, owner } = await primaries(slot);
  const target = all.find((primary) => primary.id !== owner.id);
  if (target === undefined) throw new Error("expected a second primary");
  // appends back to back, each awaited, for as long as the slot moves and a little after
  const run = await appendingRun(a, b, threadId);
  const { writer, seen, tail, appended } = run;
  const before = await errorCounts(owner.address);
  // between two keys, until one more append is acknowledged (at most 50 ms: one may be waiting for the move to go on)
  const moved = await moveSlot(slot, owner, target, all, () => progressed(() => appended.length, 50));
  await run.stop();
  const after = await errorCounts(owner.address);
  // the subscription stayed behind on the old primary: the poll finds what came since and subscribes again where the slot is
  await writer.append([ev.textMessageContent("m1", "~")]);
  await until(
    () => seen.some((stored) => stored.event.type === "TEXT_MESSAGE_CONTENT" && stored.event.delta === "~"),
    "the tail to see the append after the move",
    15_000,
  );
  // subscribed again on the new primary: the run's end arrives by its announcement, well before the next poll (10 s)
  const finished = Date.now();
  await writer.append([ev.textMessageEnd("m1"), ev.runFinished(threadId, "r1")]);
  const log = await tail;
  expect(Date.now() - finished).toBeLessThan(5_000);
  expect(moved).toBeGreaterThanOrEqual(3); // events, meta, snapshot at least: a real move
  // the runs met the move half done (TRYAGAIN, sent again) or done on the old node (ASK, followed)
  expect(after.TRYAGAIN + after.ASK).toBeGreaterThan(before.TRYAGAIN + before.ASK);
  console.log(
    `slot ${slot} moved (${moved} keys) under ${appended.length} appends: TRYAGAIN ${after.TRYAGAIN - before.TRYAGAIN}, ASK ${after.ASK - before.ASK}`,
  );
  expect(log.map((stored) => stored.event)).toEqual(run.expected(["~"]));
  // the thread lives on the target now, and reads there whole
  expect(Number(await cli(target.address, "CLUSTER", "COUNTKEYSINSLOT", String(slot)))).toBeGreaterThanOrEqual(3);
  expect(Number(await cli(owner.address, "CLUSTER", "COUNTKEYSINSLOT", String(slot)))).toBe(0);
  const read = await b.read(threadId);
  expect(read?.kind === "snapshot" && read.snapshot.messages.at(-1)?.content).toBe(`${appended.join("")}~`);
  // a tail that joins after the move, from the middle, gets the rest exactly
  const rest = await lastValueFrom(a.tail(threadId, log[3].cursor).pipe(toArray()));
  expect(rest.map((stored) => stored.cursor)).toEqual(log.slice(4).map((stored) => stored.cursor));
});
