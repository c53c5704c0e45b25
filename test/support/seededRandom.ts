/** A small seeded pseudo-random sequence for tests and load scenarios: the same seed, the same cuts, so a failure replays. */

/**
 * mulberry32: a sequence of numbers in [0, 1) determined by `seed`.
 *
 * @example
 * const random = seededRandom(21);
 * const offset = Math.floor(random() * answerLength);
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
