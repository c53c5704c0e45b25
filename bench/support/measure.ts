/**
 * A small timing helper for `npm run bench`: warm up, then time batches until at least `minTimeMs`
 * has been spent measuring, and report the median time per call (ops/s). The median of several
 * samples resists the odd GC pause better than a single long loop's mean.
 */

/** One timed function. */
export interface Measurement {
  readonly name: string;
  /** Median calls per second over the samples. */
  readonly opsPerSecond: number;
  /** Median milliseconds per call. */
  readonly msPerOp: number;
  readonly samples: number;
}

export interface MeasureOptions {
  /** Time spent measuring, after warm-up (default 200 ms). */
  readonly minTimeMs?: number;
  /** Time spent warming up, so the JIT has optimized the code (default 100 ms). */
  readonly warmUpMs?: number;
  /** At least this many samples (default 7). */
  readonly minSamples?: number;
}

const now = (): number => performance.now();

/** Collects garbage when node runs with `--expose-gc`, so one measurement does not pay for the last one's garbage. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc; // set by --expose-gc
  if (typeof gc === "function") gc();
}

/**
 * Times `fn` (called with no arguments, repeatedly; it should do one unit of work per call).
 *
 * @example
 * const m = measure("JSON.stringify", () => JSON.stringify(state));
 * console.log(m.opsPerSecond);
 */
export function measure(name: string, fn: () => unknown, options: MeasureOptions = {}): Measurement {
  const { minTimeMs = 200, warmUpMs = 100, minSamples = 7 } = options;
  let sink: unknown;
  // Warm-up, which also finds a batch size that takes about 1/10 of the budget per sample.
  let batch = 1;
  const warmUpEnd = now() + warmUpMs;
  let perCall: number;
  do {
    const start = now();
    for (let i = 0; i < batch; i++) sink = fn();
    const elapsed = now() - start;
    perCall = elapsed / batch;
    if (elapsed < minTimeMs / 20) batch *= 2;
  } while (now() < warmUpEnd);
  batch = Math.max(1, Math.round(minTimeMs / 10 / Math.max(perCall, 1e-6)));

  collectGarbage();
  const perCallSamples: number[] = [];
  let spent = 0;
  while (spent < minTimeMs || perCallSamples.length < minSamples) {
    const start = now();
    for (let i = 0; i < batch; i++) sink = fn();
    const elapsed = now() - start;
    spent += elapsed;
    perCallSamples.push(elapsed / batch);
  }
  if (sink === Symbol.for("never")) console.log(sink); // keeps the results alive, so nothing is optimized away
  perCallSamples.sort((a, b) => a - b);
  const msPerOp = perCallSamples[Math.floor(perCallSamples.length / 2)];
  return { name, opsPerSecond: 1000 / msPerOp, msPerOp, samples: perCallSamples.length };
}

/** Two functions timed in alternation, and the median ratio of their per-call times. */
export interface Comparison {
  readonly baseline: Measurement;
  readonly candidate: Measurement;
  /** Median over samples of (candidate time / baseline time), each sample timing both back to back. */
  readonly ratio: number;
}

/**
 * Times `candidate` against `baseline` in alternating batches, so that load from other processes
 * hits both alike; the ratio is the median of the per-sample ratios. A sample times each side
 * twice, in the order baseline, candidate, candidate, baseline, so that each side once follows the
 * other and once itself: whatever one side leaves behind (garbage to collect) weighs on both alike.
 *
 * @example
 * const { ratio } = compare("stringify", () => JSON.stringify(s), "publish", () => states.publish(s));
 */
export function compare(
  baselineName: string,
  baseline: () => unknown,
  candidateName: string,
  candidate: () => unknown,
  options: MeasureOptions = {},
): Comparison {
  const { minTimeMs = 200, warmUpMs = 100, minSamples = 9 } = options;
  // Warm both up and size the batches from their single-function measurements.
  const first = measure(baselineName, baseline, { minTimeMs: warmUpMs, warmUpMs, minSamples: 3 });
  const second = measure(candidateName, candidate, { minTimeMs: warmUpMs, warmUpMs, minSamples: 3 });
  const batchOf = (m: Measurement) => Math.max(1, Math.round(minTimeMs / 20 / m.msPerOp));
  const baselineBatch = batchOf(first);
  const candidateBatch = batchOf(second);
  let sink: unknown;
  const baselineTimes: number[] = [];
  const candidateTimes: number[] = [];
  const ratios: number[] = [];
  let spent = 0;
  collectGarbage();
  const timeBatch = (fn: () => unknown, batch: number): number => {
    const start = now();
    for (let i = 0; i < batch; i++) sink = fn();
    return (now() - start) / batch;
  };
  while (spent < 2 * minTimeMs || ratios.length < minSamples) {
    // A sample is two rounds, one in each order, and its ratio their sums' (docs/benchmarks.md#pair-order):
    // the side that runs second pays for collecting the first's garbage, and with one fixed order that
    // was always the candidate (the floor timed against itself on a 50,000-delta body read 0.70–0.86×).
    const baselineFirst = timeBatch(baseline, baselineBatch);
    const candidateSecond = timeBatch(candidate, candidateBatch);
    const candidateFirst = timeBatch(candidate, candidateBatch);
    const baselineSecond = timeBatch(baseline, baselineBatch);
    const b = (baselineFirst + baselineSecond) / 2;
    const c = (candidateFirst + candidateSecond) / 2;
    spent += 2 * (b * baselineBatch + c * candidateBatch);
    baselineTimes.push(b);
    candidateTimes.push(c);
    ratios.push(c / b);
  }
  if (sink === Symbol.for("never")) console.log(sink);
  return comparison(baselineName, baselineTimes, candidateName, candidateTimes, ratios);
}

/** Options of `compareAsync`. */
export interface AsyncCompareOptions<T> {
  /** Time spent on the candidate's samples, after its warm-up (default 1,000 ms). */
  readonly minTimeMs?: number;
  /** At least this many samples (default 5; 3 when one call takes more than a second). */
  readonly minSamples?: number;
  /** At most this many samples (default 30). */
  readonly maxSamples?: number;
  /** Called with every result of the candidate, the warm-up's included, outside the timed span: throw to fail the comparison. */
  readonly check?: (result: T) => void;
}

/**
 * `compare` for an asynchronous candidate (the synchronous baseline stays as it is): after one
 * checked warm-up call each, samples alternate a batch of the baseline (at least ~20 ms, so the
 * timer's resolution does not matter) and one awaited call of the candidate; the ratio is the
 * median of the per-sample ratios of their per-call times, as in `compare`.
 *
 * @example
 * const { ratio } = await compareAsync("floor", () => floor(body), "official", () => runOfficialAgent(bytes), { check: (thread: Thread) => checkThread("official", thread, expected) });
 */
export async function compareAsync<T>(
  baselineName: string,
  baseline: () => unknown,
  candidateName: string,
  candidate: () => Promise<T>,
  options: AsyncCompareOptions<T> = {},
): Promise<Comparison> {
  const { minTimeMs = 1_000, maxSamples = 30 } = options;
  let sink: unknown;
  let start = now();
  sink = baseline();
  const baselineOnce = now() - start;
  start = now();
  const first = await candidate();
  const candidateOnce = now() - start;
  options.check?.(first);
  const minSamples = options.minSamples ?? (candidateOnce > 1_000 ? 3 : 5);
  const baselineBatch = Math.max(1, Math.round(20 / Math.max(baselineOnce, 1e-3)));
  const baselineTimes: number[] = [];
  const candidateTimes: number[] = [];
  const ratios: number[] = [];
  let spent = 0;
  while ((spent < minTimeMs || ratios.length < minSamples) && ratios.length < maxSamples) {
    collectGarbage();
    start = now();
    for (let i = 0; i < baselineBatch; i++) sink = baseline();
    const b = (now() - start) / baselineBatch;
    collectGarbage();
    start = now();
    const result = await candidate();
    const c = now() - start;
    options.check?.(result);
    spent += c;
    baselineTimes.push(b);
    candidateTimes.push(c);
    ratios.push(c / b);
  }
  if (sink === Symbol.for("never")) console.log(sink);
  return comparison(baselineName, baselineTimes, candidateName, candidateTimes, ratios);
}

/** The medians of alternated samples: each side's time per operation, and the median of the per-sample ratios. */
function comparison(baselineName: string, baselineTimes: number[], candidateName: string, candidateTimes: number[], ratios: number[]): Comparison {
  const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const result = (name: string, times: number[]): Measurement => {
    const msPerOp = median(times);
    return { name, msPerOp, opsPerSecond: 1000 / msPerOp, samples: times.length };
  };
  return { baseline: result(baselineName, baselineTimes), candidate: result(candidateName, candidateTimes), ratio: median(ratios) };
}
