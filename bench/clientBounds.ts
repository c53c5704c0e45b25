/**
 * How much of issue #27's client targets the update contract itself uses up: the least lane
 * (bench/support/leastReducer.ts: the floor's parse, then one update per event carrying the
 * message as it now is, and nothing else) timed against the floor as the client bench times its
 * lanes (`compare`). Run it as
 *
 *   node --expose-gc -r ts-node/register/transpile-only bench/clientBounds.ts [n]
 *
 * (50,000 by default) on the workloads that lane covers: `text`, `chat` and `tools`; then the same
 * reducer behind this client's own decoding check and checked step (`checked + least`), and this
 * client's reducer behind them (`checked + reducer`). Each lane runs in a process of its own, is
 * checked before its time counts, and its last timed result again after. Printed per workload and
 * lane: its rate as a multiple of the floor's, the same as floor units per event (the floor's time
 * per event is one unit), and what the target's units (1 ÷ target) leave for everything the lane
 * leaves out (the least lane: decoding checks, verification, metadata, diagnostics and the
 * Session; behind the checks: the reducer's own cases and the Session). A negative figure is over
 * the target. docs/benchmarks.md#bounds has a run.
 */
import { execFileSync } from "node:child_process";
import { encodeSse } from "../src/wire/encodeSse";
import { checkEventCount, checkThread, type Thread } from "./support/checkResult";
import { appliedThread, checkedEvents, timedAgainstFloor } from "./support/clientLanes";
import { WORKLOADS } from "./support/clientWorkloads";
import { LeastReducer, leastThread, type LeastEvent } from "./support/leastReducer";
import { fmt, fmtRatio, printTable } from "./support/table";

/** Issue #27's share targets for the workloads the least lane covers. */
const TARGETS: Readonly<Record<string, number>> = { text: 0.5, chat: 0.5, tools: 0.45 };

/** The lanes, each building a thread from an SSE body. */
const LANES: Readonly<Record<string, (body: string) => Thread>> = {
  least: (body) => leastThread(body, () => undefined),
  // The least reducer behind this client's own decoding check and checked step (report mode: normalize and verify).
  "checked + least": (body) => {
    const least = new LeastReducer(() => undefined);
    checkedEvents(body, (event) => least.apply(event as unknown as LeastEvent));
    return least.thread();
  },
  // This client's reducer behind the same checks: bench/clientStages.ts's `+apply`.
  "checked + reducer": appliedThread,
};

/**
 * Times one lane on one workload against the floor as the client bench times its own, checked
 * before and after, and returns its time per event in floor units. Each call runs in a process of
 * its own (`unitsApart`): lanes timed one after another in one process share the JIT's feedback, and
 * the reducer of the second lane then runs on code fitted to the first one's objects (the least
 * lane behind the checks read 1.9–2.6 units after the least lane alone, 1.5–1.9 on its own).
 */
function measureLane(name: string, lane: string, n: number): number {
  const workload = WORKLOADS.find((w) => w.name === name);
  const run = LANES[lane];
  if (workload === undefined || run === undefined)
    throw new Error(
      `expected a workload among ${Object.keys(TARGETS).join(", ")} and a lane among ${Object.keys(LANES).join(", ")}, but got ${name} and ${lane}`,
    );
  const { events, expected } = workload.generate(n);
  const body = events.map((event) => encodeSse(event)).join("");
  const label = `${lane} on ${name}/${n.toLocaleString("en-US")}`;
  const timed = timedAgainstFloor(
    body,
    () => run(body),
    (thread) => checkThread(label, thread, expected),
    (count) => checkEventCount(`floor beside ${label}`, count, expected),
  );
  return timed.ratio;
}

/** `measureLane` in a child process of this script, with this process's Node flags. */
function unitsApart(name: string, lane: string, n: number): number {
  const output = execFileSync(process.execPath, [...process.execArgv, __filename, "--lane", name, lane, String(n)], { encoding: "utf8" });
  const units = Number(output.trim().split("\n").at(-1));
  if (!Number.isFinite(units) || units <= 0)
    throw new Error(`expected the ${lane} lane on ${name} to print its floor units, but it printed ${JSON.stringify(output)}`);
  return units;
}

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === "--lane") {
    const [, name = "", lane = "", size = ""] = args;
    console.log(measureLane(name, lane, Number(size)));
    return;
  }
  const [size = "50000"] = args;
  const n = Number(size);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`expected a positive integer size, but got ${size}`);
  const rows: string[][] = [["workload", "target", "units allowed", ...Object.keys(LANES).flatMap((lane) => [lane, "units", "left"])]];
  for (const [name, target] of Object.entries(TARGETS)) {
    const allowed = 1 / target;
    const cells = Object.keys(LANES).flatMap((lane) => {
      const units = unitsApart(name, lane, n);
      return [fmtRatio(1 / units), fmt(units), fmt(allowed - units)];
    });
    rows.push([name, `≥ ${target}`, fmt(allowed), ...cells]);
  }
  printTable(
    `the update contract's least per-event work (docs/seeds.md#seed-001) against the floor at ${n.toLocaleString("en-US")}, each lane in a process of its own: alone, behind this client's checks, and this client's reducer behind them (units: the floor's time per event; left: what the target leaves for the rest)`,
    rows,
  );
}

main();
