/**
 * Marble tests with any runner (docs/testing.md#asserting-on-updates): RxJS's `TestScheduler` needs
 * an equality assertion, which each runner spells differently (`expect().toEqual`, `assert.deepStrictEqual`);
 * this one throws a plain `Error` listing both sides, which every runner reports as a failure.
 */
import { TestScheduler } from "rxjs/testing";

/**
 * A `TestScheduler` whose assertion is a structural deep equality that needs no test runner: plain
 * objects by their own enumerable members (a member holding `undefined` counts as absent, as in
 * JSON), arrays by their elements, `Error`s by name and message, other values by `Object.is`. A
 * difference throws an `Error` naming the first path that differs and printing both sides as JSON.
 * Inside `scheduler.run(…)`, RxJS's own timers (`timer`, `delay`, a paced `replayRecording`) run
 * on virtual time.
 *
 * @example
 * marbleScheduler().run(({ cold, expectObservable }) => {
 *   expectObservable(cold("a-b|").pipe(map((x) => x.toUpperCase()))).toBe("A-B|");
 * });
 */
export function marbleScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => {
    const difference = firstDifference(actual, expected, "");
    if (difference !== undefined) {
      throw new Error(
        `expected the marbles to match, but they differ at ${difference === "" ? "the top" : difference}\nexpected: ${show(expected)}\nactual:   ${show(actual)}`,
      );
    }
  });
}

/** The path of the first place `actual` and `expected` differ (`""` at the top), or `undefined` when they are equal. */
function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (actual instanceof Error && expected instanceof Error) {
    return actual.name === expected.name && actual.message === expected.message ? undefined : path;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) return `${path}.length`;
    for (let i = 0; i < actual.length; i++) {
      const inner = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  if (isRecord(actual) && isRecord(expected) && !Array.isArray(actual) && !Array.isArray(expected)) {
    const keys = new Set([...definedKeys(actual), ...definedKeys(expected)]);
    for (const key of keys) {
      const inner = firstDifference(actual[key], expected[key], `${path}.${key}`);
      if (inner !== undefined) return inner;
    }
    return undefined;
  }
  return path;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The keys of the members that hold something (`undefined` reads as absent). */
function definedKeys(value: Record<string, unknown>): string[] {
  return Object.keys(value).filter((key) => value[key] !== undefined);
}

/** A value as JSON for the failure message, `Error`s as their name and message. */
function show(value: unknown): string {
  try {
    return JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Error ? `${inner.name}: ${inner.message}` : inner));
  } catch {
    return String(value);
  }
}
