/**
 * The client pipeline end to end (docs/client.md#session-and-updates), against a raw floor and the official client, on the
 * same SSE bytes in the same process. Workloads (bench/support/clientWorkloads.ts) at N = 1,000,
 * 10,000 and 50,000: `text`, `chat`, `state`, `state-wide`, `tools`, `mixed`.
 *
 * Lanes: `floor` (split the body into frames and JSON.parse each: the least any decoder does),
 * `decode` (decodeSse), `decode+norm+verify` (plus normalizeChunks and verifyEvents in report
 * mode), `+apply` (the Session's own pipeline without the Session: decode, its checked step and
 * `applyEvents`, bench/support/clientLanes.ts), `session` (a Session over a ReplayTransport:
 * everything, updates included), and `official` (@ag-ui/client 1.0.0 as its users run it:
 * `HttpAgent.runAgent` over an in-memory fetch answering with the same bytes, mutations written
 * back to the agent).
 *
 * Every lane's result is checked against the generator's expectation before its time counts, and
 * the last timed result again after (every official run is checked): the floor and the decoders
 * must read exactly the generated events (count, and types for the decoders); `+apply`, the
 * session and the official agent must end with exactly the generated messages and state
 * (bench/support/checkResult.ts). A mismatch, or a lane that built nothing, throws: the bench exits
 * non-zero.
 *
 * Our lanes are timed in alternation with the floor (`compare`: median of per-sample ratios,
 * robust to load from other processes); the official run is asynchronous, so each of its runs
 * alternates with a batch of the floor (`compareAsync`, median of at least 5 ratios, 3 when a run
 * takes over a second). Ratios are events/s as a multiple of the floor's.
 *
 * The official client copies its whole message list (and the state) on every event, so its cost
 * per event grows with the conversation: it runs only up to `OFFICIAL_REACH`'s size per workload,
 * plus a smaller size of its own where 1,000 is already out of reach; larger sizes print
 * "skipped" with a lower bound of one run's time (the largest measured per-event cost × events).
 *
 * Targets (issue #27, printed with bench/support/targets.ts): the session's events/s at 50,000 as a
 * share of the floor's, ≥ 0.5 on `text` and `chat`, ≥ 0.45 on `tools`, `mixed` and `state`, ≥ 0.3
 * on `state-wide`; and 10k → 50k time ratio ≤ 6 everywhere (`growthOf`: back-to-back runs of the
 * two sizes, median of 7 pairs). (They replace issue #20's: ≥ 1/3 on
 * `text`, `chat` and `state` per-event cost within 1.5× of `text`, which the shares now cover.)
 */
import { of, Subscription } from "rxjs";
import type { Event } from "../../src/protocol/events";
import { encodeSse } from "../../src/wire/encodeSse";
import { decodeSse } from "../../src/wire/decodeSse";
import { isInBandReport } from "../../src/operators/ProtocolError";
import { normalizeChunks } from "../../src/operators/normalizeChunks";
import { verifyEvents } from "../../src/operators/verifyEvents";
import { checkEventCount, checkEventTypes, checkThread, type Thread } from "../support/checkResult";
import { floor, reduceBody, sessionThread as session } from "../support/clientLanes";
import { WORKLOADS, type Workload } from "../support/clientWorkloads";
import { compare, compareAsync, type Comparison } from "../support/measure";
import { median } from "../support/pairs";
import { OFFICIAL_KNOWN_DIFFERENCES, runOfficialAgent } from "../support/officialLane";
import { fmt, fmtRatio, printTable } from "../support/table";
import { printTargets, recordTarget } from "../support/targets";

const SIZES = [1_000, 10_000, 50_000];

/** Issue #27: the least share of the floor's events/s the session must reach per workload, at 50,000. */
const SHARE_TARGETS: Readonly<Record<string, number>> = { text: 0.5, chat: 0.5, tools: 0.45, mixed: 0.45, state: 0.45, "state-wide": 0.3 };

/**
 * How far the official client is run, per workload: every size up to `max`, and the `extra`
 * sizes (rows of their own, all lanes measured) where even 1,000 takes too long. Measured on the
 * development machine (2 cores, loaded), one run: text 10k 1.3 s, 20k 1.4–1.9 s, 50k over 3 minutes (12–14 s on the machine of issue #20);
 * chat 1k 1.4 s, 5k 6 s; state and state-wide about 150 ms per delta (a 1,000-delta run:
 * 125 s); tools 1k 8–9 s, 3k 98 s; mixed 1k 0.9 s, 3k 4.7 s.
 */
const OFFICIAL_REACH: Readonly<Record<string, { readonly max: number; readonly extra?: readonly number[] }>> = {
  text: { max: 10_000 },
  chat: { max: 1_000 },
  state: { max: 20, extra: [20] },
  "state-wide": { max: 20, extra: [20] },
  tools: { max: 300, extra: [300] },
  mixed: { max: 1_000 },
};

/** Runs a synchronous pipeline to completion (and checks that it was synchronous). */
function runSync(run: (done: () => void) => Subscription): void {
  let finished = false;
  run(() => (finished = true));
  if (!finished) throw new Error("the pipeline did not finish synchronously");
}

/** Decodes `body` (and normalizes and verifies it when `verify`), handing each output to `next`. */
function decode(body: string, verify: boolean, next: (value: Event | { readonly type?: undefined }) => void): void {
  runSync((done) =>
    verify
      ? of(body)
          .pipe(decodeSse(), normalizeChunks({ mode: "report" }), verifyEvents({ mode: "report" }))
          .subscribe({ next: (value) => next(isInBandReport(value) ? {} : value), complete: done })
      : of(body).pipe(decodeSse()).subscribe({ next, complete: done }),
  );
}

/** The timed decoding lanes: how many values came out (a counter is all they add to the pipeline). */
function decodeCount(body: string, verify: boolean): number {
  let count = 0;
  decode(body, verify, () => count++);
  return count;
}

/** The checked decoding run: values per type (an in-band report counts as the type "in-band report"). */
function decodeTypes(body: string, verify: boolean): Record<string, number> {
  const types: Record<string, number> = {};
  decode(body, verify, (value) => {
    const type = value.type ?? "in-band report";
    types[type] = (types[type] ?? 0) + 1;
  });
  return types;
}

function reachOf(workload: Workload): { readonly max: number; readonly extra?: readonly number[] } {
  const reach = OFFICIAL_REACH[workload.name];
  if (reach === undefined) throw new Error(`expected OFFICIAL_REACH to have an entry for the workload ${workload.name}, but it has none`);
  return reach;
}

/** One row's measurements. */
interface Row {
  readonly events: number;
  readonly decode: Comparison;
  readonly verify: Comparison;
  readonly apply: Comparison;
  readonly session: Comparison;
  readonly official?: Comparison;
}

/** Measures every lane on one workload at size `n`, each checked before and after it is timed. */
async function measureRow(workload: Workload, n: number): Promise<Row> {
  const { events, expected } = workload.generate(n);
  const body = events.map((event) => encodeSse(event)).join("");
  const lane = (name: string) => `${name} on ${workload.name}/${n.toLocaleString("en-US")}`;
  // Checked before timing: a lane that reads or builds the wrong thing never gets a figure.
  checkEventCount(lane("floor"), floor(body), expected);
  checkEventTypes(lane("decode"), decodeTypes(body, false), expected);
  checkEventTypes(lane("decode+norm+verify"), decodeTypes(body, true), expected);
  checkThread(lane("+apply"), reduceBody(body), expected);
  checkThread(lane("session"), session(body), expected);
  // Each stage is timed in alternation with the floor (bench/support/measure.compare), so a load
  // spike hits both; the last timed result of each is checked again.
  let floorCount = 0;
  let decoded = 0;
  let verified = 0;
  let reduced: Thread = { messages: [], state: undefined };
  let thread: Thread = { messages: [], state: undefined };
  const timedFloor = () => (floorCount = floor(body));
  const options = { minTimeMs: 300, warmUpMs: 100, minSamples: 7 };
  const decodeRun = compare("floor", timedFloor, "decode", () => (decoded = decodeCount(body, false)), options);
  const verifyRun = compare("floor", timedFloor, "decode+norm+verify", () => (verified = decodeCount(body, true)), options);
  const applyRun = compare("floor", timedFloor, "+apply", () => (reduced = reduceBody(body)), options);
  const sessionRun = compare("floor", timedFloor, "session", () => (thread = session(body)), options);
  checkEventCount(lane("floor"), floorCount, expected);
  checkEventCount(lane("decode"), decoded, expected);
  checkEventCount(lane("decode+norm+verify"), verified, expected);
  checkThread(lane("+apply"), reduced, expected);
  checkThread(lane("session"), thread, expected);
  if (n > reachOf(workload).max) return { events: expected.events, decode: decodeRun, verify: verifyRun, apply: applyRun, session: sessionRun };
  const bytes = new TextEncoder().encode(body);
  const official = await compareAsync(
    "floor",
    () => floor(body),
    "official",
    () => runOfficialAgent(bytes),
    {
      check: (result) => checkThread(lane("official"), result, expected),
    },
  );
  return { events: expected.events, decode: decodeRun, verify: verifyRun, apply: applyRun, session: sessionRun, official };
}

/**
 * The floor timed against itself on `text` at 50,000, as every share is timed: what the harness
 * reads for identical work, printed with the shares so that a bias in it shows (one fixed order
 * of the two lanes read 0.70–0.86× here; docs/benchmarks.md#pair-order).
 */
function harnessSpread(): string {
  const text = WORKLOADS.find((workload) => workload.name === "text");
  if (text === undefined) throw new Error("expected the text workload among WORKLOADS, but it is missing");
  const { events, expected } = text.generate(50_000);
  const body = events.map((event) => encodeSse(event)).join("");
  let first = 0;
  let second = 0;
  const { ratio } = compare(
    "floor",
    () => (first = floor(body)),
    "floor again",
    () => (second = floor(body)),
    { minTimeMs: 300, warmUpMs: 100, minSamples: 7 },
  );
  checkEventCount("floor on text/50,000 (harness check)", first, expected);
  checkEventCount("floor again on text/50,000 (harness check)", second, expected);
  return `the floor ÷ the floor on text/50,000 reads ${fmtRatio(1 / ratio)}`;
}

/** Pairs of a run at 50,000 and a run at 10,000 in the linear guard's measurement, after two for warm-up. */
const GROWTH_PAIRS = 7;

/**
 * The linear guard's figures for `workload`: the time of one session run (and of one floor run)
 * at 50,000 events ÷ at 10,000, the median of `GROWTH_PAIRS` pairs of back-to-back runs, which size
 * goes first alternating. In the share's alternation instead, a run at 50,000 paid for collecting
 * the other lane's garbage (a 50,000 session leaves tens of MB), and the floor's own growth read up
 * to 7.7× for 5× the work. Not from a forced collection either: after `gc()` V8 starts the next run
 * with its young generation shrunk, which cost a 10,000 text run 3× its time (35 ms against 11).
 * Each run's result is checked after its time is taken.
 */
function growthOf(workload: Workload): { readonly session: number; readonly floor: number } {
  const [small, large] = [10_000, 50_000].map((n) => {
    const { events, expected } = workload.generate(n);
    return { body: events.map((event) => encodeSse(event)).join(""), expected, lane: `${workload.name}/${n.toLocaleString("en-US")} (linear guard)` };
  });
  const timed = <R>(run: () => R, check: (result: R) => void): number => {
    const start = performance.now();
    const result = run();
    const ms = performance.now() - start;
    check(result);
    return ms;
  };
  const growth = (run: (size: typeof small) => number): number => {
    const ratios: number[] = [];
    for (let pair = -2; pair < GROWTH_PAIRS; pair++) {
      const largeFirst = pair % 2 === 0;
      const first = run(largeFirst ? large : small);
      const second = run(largeFirst ? small : large);
      if (pair >= 0) ratios.push(largeFirst ? first / second : second / first);
    }
    return median(ratios);
  };
  return {
    session: growth((size) =>
      timed(
        () => session(size.body),
        (thread) => checkThread(`session on ${size.lane}`, thread, size.expected),
      ),
    ),
    floor: growth((size) =>
      timed(
        () => floor(size.body),
        (count) => checkEventCount(`floor on ${size.lane}`, count, size.expected),
      ),
    ),
  };
}

export default async function clientSuite(): Promise<void> {
  const rows: string[][] = [
    ["workload", "N", "events", "floor ev/s", "decode", "+norm+verify", "+apply", "session", "official", "session ev/s", "official ev/s", "session ÷ official"],
  ];
  const floorShare = new Map<string, number>();
  const asRate = (ratio: number) => fmtRatio(1 / ratio);
  for (const workload of WORKLOADS) {
    const reach = reachOf(workload);
    const sizes = [...new Set([...(reach.extra ?? []), ...SIZES])].sort((a, b) => a - b);
    // The official client's cost per event at the largest size it ran, for the skipped sizes' lower bound.
    let officialMsPerEvent: number | undefined;
    for (const n of sizes) {
      const row = await measureRow(workload, n);
      const floorRate = (row.events / row.session.baseline.msPerOp) * 1000;
      const sessionRate = (row.events / row.session.candidate.msPerOp) * 1000;
      const official = row.official;
      if (official !== undefined) officialMsPerEvent = official.candidate.msPerOp / row.events;
      const skipped = officialMsPerEvent === undefined ? "skipped" : `skipped (≥ ${fmt((officialMsPerEvent * row.events) / 1000, 0)} s a run)`;
      rows.push([
        workload.name,
        n.toLocaleString("en-US"),
        row.events.toLocaleString("en-US"),
        fmt(floorRate),
        asRate(row.decode.ratio),
        asRate(row.verify.ratio),
        asRate(row.apply.ratio),
        asRate(row.session.ratio),
        official === undefined ? skipped : asRate(official.ratio),
        fmt(sessionRate),
        official === undefined ? "-" : fmt((row.events / official.candidate.msPerOp) * 1000),
        official === undefined ? "-" : `${fmt(official.candidate.msPerOp / row.session.candidate.msPerOp)}×`,
      ]);
      floorShare.set(`${workload.name}/${n}`, 1 / row.session.ratio);
    }
  }
  printTable("client pipeline: events/s as a multiple of the raw floor's (higher is better); every lane checked against the generator's expected result", rows);
  console.log(`the harness against itself: ${harnessSpread()} (docs/benchmarks.md#pair-order)`);
  const differences = OFFICIAL_KNOWN_DIFFERENCES.map((difference) => difference.name);
  console.log(
    `official client's known differences undone before its check: ${differences.length === 0 ? "none (its messages and state equal the expected ones on every run)" : differences.join("; ")}`,
  );

  // Issue #27's targets: the session's events/s as a share of the floor's at 50,000 (the median of
  // at least 7 per-sample ratios, timed in alternation with the floor), and linear growth.
  for (const workload of WORKLOADS) {
    const share = floorShare.get(`${workload.name}/50000`) ?? NaN;
    const bound = SHARE_TARGETS[workload.name] ?? NaN;
    recordTarget("client", `${workload.name}: session ≥ ${fmt(bound)}× floor's events/s (50k)`, `${fmt(share)}×`, share >= bound);
  }
  for (const workload of WORKLOADS) {
    // The floor's own growth shows what the machine adds (GC, caches, load) to 5× the work.
    const { session: growth, floor: floorGrowth } = growthOf(workload);
    recordTarget("client", `${workload.name}: time 10k → 50k ≤ 6× (floor: ${fmt(floorGrowth)}×)`, `${fmt(growth)}×`, growth <= 6);
  }
  printTargets("client targets", "client");
}
