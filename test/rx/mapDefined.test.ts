/** `mapDefined` (src/rx/mapDefined.ts): `map` then `filter(defined)` in one step, in marbles. */
import { filter, map } from "rxjs";
import { TestScheduler } from "rxjs/testing";
import { mapDefined } from "../../src/rx/mapDefined";

function scheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

/** Odd numbers times ten; even ones dropped; 0 throws. */
function tensOfOdd(n: number): number | undefined {
  if (n === 0) throw new Error("zero");
  return n % 2 === 1 ? n * 10 : undefined;
}

const values = { a: 1, b: 2, c: 3, z: 0, A: 10, C: 30 };

describe("mapDefined", () => {
  test("emits each projection but the undefined ones, then completes with the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-b-c-|", values);
      expectObservable(source.pipe(mapDefined(tensOfOdd))).toBe("-A---C-|", values);
      expectSubscriptions(source.subscriptions).toBe("^------!");
    });
  });

  test("emits what map then filter(defined) emit, at the same frames", () => {
    scheduler().run(({ cold, expectObservable }) => {
      const source = cold("-a-b--c-b-a-#", values, new Error("upstream"));
      const chained = source.pipe(
        map(tensOfOdd),
        filter((n): n is number => n !== undefined),
      );
      expectObservable(source.pipe(mapDefined(tensOfOdd))).toEqual(chained);
    });
  });

  test("a throw from the projection errors the output and unsubscribes the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-z-c-|", values);
      expectObservable(source.pipe(mapDefined(tensOfOdd))).toBe("-A-#", values, new Error("zero"));
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });

  test("unsubscribing the output unsubscribes the source", () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold("-a-c-a-|", values);
      expectObservable(source.pipe(mapDefined(tensOfOdd)), "^--!").toBe("-A-", values);
      expectSubscriptions(source.subscriptions).toBe("^--!");
    });
  });
});
