/**
 * Timing in pairs (the lanes of `threads` and `branches`): percentiles of a sample, and two
 * measures alternated from a collected heap, so that what one side leaves behind (garbage, a warm
 * cache) does not land on the other.
 */
import { collectGarbage } from "./measure";

/**
 * The `p`th percentile of `values` (nearest rank, from the sorted copy).
 *
 * @example
 * percentile([3, 1, 2], 50); // 2
 */
export function percentile(values: readonly number[], p: number): number {
  return [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];
}

/**
 * The median of `values`.
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * Runs `measure` from a collected heap: a request right after a collection pays for it, so each side of a pair starts alike.
 *
 * @example
 * const ms = await afterGc(() => timeOneRequest());
 */
export async function afterGc(measure: () => Promise<number>): Promise<number> {
  collectGarbage();
  return measure();
}

/**
 * `samples` pairs of `first` and `second` (each from a collected heap, their order swapped every
 * sample): the medians of each and the median of the per-pair ratios.
 *
 * @example
 * const { ratio } = await alternate(41, () => connectOnce(long), () => connectOnce(short));
 */
export async function alternate(
  samples: number,
  first: () => Promise<number>,
  second: () => Promise<number>,
): Promise<{ first: number; second: number; ratio: number }> {
  const [ones, twos, ratios]: number[][] = [[], [], []];
  for (let sample = 0; sample < samples; sample++) {
    let one: number;
    let two: number;
    if (sample % 2 === 0) {
      one = await afterGc(first);
      two = await afterGc(second);
    } else {
      two = await afterGc(second);
      one = await afterGc(first);
    }
    ones.push(one);
    twos.push(two);
    ratios.push(one / two);
  }
  return { first: median(ones), second: median(twos), ratio: median(ratios) };
}
