/**
 * Where the client's time goes against the floor, stage by stage, with no RxJS and no Session in
 * the way: each lane is one loop over the body's frames, split as the floor splits them, doing one
 * stage more than the lane before it. Run it to see what the pipeline's own plumbing costs:
 *
 *   node --expose-gc -r ts-node/register/transpile-only bench/clientStages.ts [workload] [n]
 *
 * (`text` and 50,000 by default; workloads of bench/support/clientWorkloads.ts.) Lanes, each timed
 * in alternation with the client bench's floor as it times its own (`compare`), each checked before
 * its time counts and its last timed result again after:
 *
 * - `parse`: the stage loop with no stage, which is the floor's work (timed against the floor: the
 *   pair's own spread);
 * - `+decode`: plus `decodeEventValue` (the codec check the decoder runs on every frame);
 * - `+verify`: plus the Session's checked step (`checkedStep`, report mode: normalize and verify);
 * - `+apply`: plus the reducer (`applyEvent` per event, to a state holding the user's message, as a
 *   Session's does once it sent it; STATE_DELTAs one at a time, not in SSE-read batches);
 * - `session`: the whole Session over a ReplayTransport, as the client bench's `session` lane.
 *
 * The decoding lanes must read exactly the generated events; `+apply` and `session` must build
 * exactly the generated thread (bench/support/checkResult.ts). Printed: each lane's events/s as a
 * multiple of the floor's, and its time per run beside the floor's in the same pairs (the floor's
 * own time moves with the garbage the other lane leaves). docs/benchmarks.md#stages has a run.
 */
import { encodeSse } from "../src/wire/encodeSse";
import { checkEventCount, checkThread, type Thread } from "./support/checkResult";
import { appliedThread, checkedEvents, decodedEvent, eachFrame, sessionThread, timedAgainstFloor } from "./support/clientLanes";
import { WORKLOADS } from "./support/clientWorkloads";
import { fmt, fmtRatio, printTable } from "./support/table";

const lanes: Readonly<Record<string, (body: string) => number | Thread>> = {
  parse: (body) => {
    let count = 0;
    eachFrame(body, () => count++);
    return count;
  },
  "+decode": (body) => {
    let count = 0;
    eachFrame(body, (json, length) => {
      decodedEvent(json, length);
      count++;
    });
    return count;
  },
  "+verify": (body) => {
    let count = 0;
    checkedEvents(body, () => count++);
    return count;
  },
  "+apply": appliedThread,
  session: sessionThread,
};

function main(): void {
  const [name = "text", size = "50000"] = process.argv.slice(2);
  const workload = WORKLOADS.find((w) => w.name === name);
  if (workload === undefined) throw new Error(`expected a workload among ${WORKLOADS.map((w) => w.name).join(", ")}, but got ${name}`);
  const n = Number(size);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`expected a positive integer size, but got ${size}`);
  const { events, expected } = workload.generate(n);
  const body = events.map((event) => encodeSse(event)).join("");
  const check = (lane: string, result: number | Thread): void => {
    const label = `${lane} on ${name}/${n.toLocaleString("en-US")}`;
    if (typeof result === "number") checkEventCount(label, result, expected);
    else checkThread(label, result, expected);
  };
  const rows: string[][] = [["lane", "× floor's events/s", "ms a run", "floor's ms a run (same pairs)"]];
  for (const [lane, run] of Object.entries(lanes)) {
    const timed = timedAgainstFloor(
      body,
      () => run(body),
      (result) => check(lane, result),
      (count) => check("floor", count),
    );
    rows.push([lane, fmtRatio(1 / timed.ratio), fmt(timed.candidate.msPerOp), fmt(timed.baseline.msPerOp)]);
  }
  printTable(
    `client stages on ${name} at ${n.toLocaleString("en-US")} (${expected.events.toLocaleString("en-US")} events): each lane one stage more, timed in alternation with the floor`,
    rows,
  );
}

main();
