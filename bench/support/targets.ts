/**
 * The targets a bench run checks (issue #27: "`npm run bench` prints every target with measured
 * value and yes/no"). Suites record each target as they measure it; `printTargets` prints them as
 * one table (`target | measured | met`). The records are kept for the whole process, so
 * `bench/index.ts` prints every suite's targets again at the end of a run, in one place.
 */
import { printTable } from "./table";

/** One checked target. */
export interface TargetResult {
  /** The suite that measured it (the file name under bench/suites/). */
  readonly suite: string;
  /** What is required, in words with the bound: "session ≥ 0.5× floor on text@50k". */
  readonly target: string;
  /** The measured value as printed: "0.54×". */
  readonly measured: string;
  readonly met: boolean;
}

const recorded: TargetResult[] = [];

/**
 * Records one target's outcome and returns it (so a suite can also print it in its own table).
 *
 * @example
 * recordTarget("client", "session ≥ 0.5× floor on text@50k", `${fmt(ratio)}×`, ratio >= 0.5);
 */
export function recordTarget(suite: string, target: string, measured: string, met: boolean): TargetResult {
  const result: TargetResult = { suite, target, measured, met };
  recorded.push(result);
  return result;
}

/** Every target recorded in this process so far, in recording order. */
export function recordedTargets(): readonly TargetResult[] {
  return recorded;
}

/**
 * Prints targets as a `target | measured | met` table (`met` is "yes" or "NO"); by default the
 * ones of `suite`, or every recorded one when `suite` is undefined.
 *
 * @example
 * printTargets("client targets", "client");
 */
export function printTargets(title: string, suite?: string): void {
  const rows = recorded.filter((result) => suite === undefined || result.suite === suite);
  if (rows.length === 0) return;
  printTable(title, [
    suite === undefined ? ["suite", "target", "measured", "met"] : ["target", "measured", "met"],
    ...rows.map((r) => (suite === undefined ? [r.suite, r.target, r.measured, r.met ? "yes" : "NO"] : [r.target, r.measured, r.met ? "yes" : "NO"])),
  ]);
}
