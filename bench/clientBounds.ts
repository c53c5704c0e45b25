/**
 * How much of issue #27's client targets the update contract itself uses up: the least lane
 * (bench/support/leastReducer.ts: the floor's parse, then one update per event carrying the
 * message as it now is, and nothing else) timed against the floor as the client bench times its
 * lanes (`compare`). Run it as
 *
 *   node --expose-gc -r ts-node/register/transpile-only bench/clientBounds.ts [n]
 *
 * (50,000 by default) on the workloads that lane covers: `text`, `chat` and `tools`; then the same
 * reducer behind this client's own decoding check and checked step (`checked + least`). Each lane
 * is checked before its time counts, and its last timed result again after. Printed per workload
 * and lane: its rate as a multiple of the floor's, the same as floor units per event (the floor's
 * time per event is one unit), and what the target's units (1 ÷ target) leave for everything the
 * lane leaves out (the least lane: decoding checks, verification, metadata, diagnostics and the
 * Session; behind the checks: the real reducer's extra work and the Session). A negative figure
 * is over the target. docs/benchmarks.md#bounds has a run.
 */
import { checkEventCount, checkThread, type Expected, type Thread } from "./support/checkResult";
import { checkedEvents, floor } from "./support/clientLanes";
import { WORKLOADS } from "./support/clientWorkloads";
import { LeastReducer, leastThread, type LeastEvent } from "./support/leastReducer";
import { compare } from "./support/measure";
import { fmt, fmtRatio, printTable } from "./support/table";
import { encodeSse } from "../src/wire/encodeSse";

/** Issue #27's share targets for the workloads the least lane covers. */
const TARGETS: Readonly<Record<string, number>> = { text: 0.5, chat: 0.5, tools: 0.45 };

/** The least reducer behind this client's own decoding check and checked step (report mode: normalize and verify). */
function checkedLeastThread(body: string, onUpdate: () => void): Thread {
  const least = new LeastReducer(onUpdate);
  checkedEvents(body, (event) => least.apply(event as unknown as LeastEvent));
  return least.thread();
}

/** One lane timed against the floor as the client bench times its own, checked before and after; its time per event in floor units. */
function floorUnits(lane: string, run: () => Thread, body: string, expected: Expected, label: string): number {
  checkThread(`${lane} on ${label}`, run(), expected);
  let last: Thread = { messages: [], state: undefined };
  let floorCount = 0;
  const timed = compare(
    "floor",
    () => (floorCount = floor(body)),
    lane,
    () => (last = run()),
    { minTimeMs: 300, warmUpMs: 100, minSamples: 9 },
  );
  checkEventCount(`floor on ${label}`, floorCount, expected);
  checkThread(`${lane} on ${label}`, last, expected);
  return timed.ratio;
}

function main(): void {
  const [size = "50000"] = process.argv.slice(2);
  const n = Number(size);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`expected a positive integer size, but got ${size}`);
  const rows: string[][] = [["workload", "target", "units allowed", "least", "units", "left", "checked + least", "units", "left"]];
  for (const [name, target] of Object.entries(TARGETS)) {
    const workload = WORKLOADS.find((w) => w.name === name);
    if (workload === undefined) throw new Error(`expected the client bench to have a workload ${name}, but it has none`);
    const { events, expected } = workload.generate(n);
    const body = events.map((event) => encodeSse(event)).join("");
    const label = `${name}/${n.toLocaleString("en-US")}`;
    let updates = 0;
    const least = floorUnits("least", () => leastThread(body, () => updates++), body, expected, label);
    const checked = floorUnits("checked + least", () => checkedLeastThread(body, () => updates++), body, expected, label);
    const allowed = 1 / target;
    rows.push([
      name,
      `≥ ${target}`,
      fmt(allowed),
      fmtRatio(1 / least),
      fmt(least),
      fmt(allowed - least),
      fmtRatio(1 / checked),
      fmt(checked),
      fmt(allowed - checked),
    ]);
  }
  printTable(
    `the update contract's least per-event work (docs/seeds.md#seed-001) against the floor at ${n.toLocaleString("en-US")}, alone and behind this client's checks (units: the floor's time per event; left: what the target leaves for the rest)`,
    rows,
  );
}

main();
