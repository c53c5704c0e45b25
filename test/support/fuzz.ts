/**
 * fast-check parameters shared by the `*.fuzz.test.ts` suites. Under `npm test` they run a fixed
 * seed and a modest number of cases, so a failure reproduces exactly; `npm run fuzz` sets
 * `FUZZ_SEED` (random unless given) and `FUZZ_RUNS` (many more cases) to explore. A failing run
 * prints its seed: rerun with `FUZZ_SEED=<seed> npm run fuzz -- <file>`.
 */
import type { Parameters } from "fast-check";

/** The seed `npm test` uses. */
export const FIXED_SEED = 20261201;

/**
 * `fc.assert` parameters: `numRuns` is `ciRuns` under `npm test`, `FUZZ_RUNS` (or ten times
 * `ciRuns`) under `npm run fuzz`; the seed is `FUZZ_SEED` or the fixed one.
 *
 * @example
 * fc.assert(fc.property(arbitrary, check), fuzzParameters(200));
 */
export function fuzzParameters<T>(ciRuns: number): Parameters<T> {
  const seed = process.env.FUZZ_SEED === undefined ? FIXED_SEED : Number(process.env.FUZZ_SEED);
  const fuzzing = process.env.FUZZ_RUNS !== undefined; // set (maybe empty) only by `npm run fuzz`
  const numRuns = fuzzing ? Number(process.env.FUZZ_RUNS) || ciRuns * 10 : ciRuns;
  return { seed, numRuns, verbose: fuzzing ? 1 : 0 };
}
