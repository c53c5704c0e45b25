/** runInBatch / atBatchEnd: callbacks run at the end of the innermost batch, in order, also after a throw. */
import { atBatchEnd, runInBatch } from "../../src/rx/runInBatch";

describe("runInBatch", () => {
  test("outside a batch atBatchEnd registers nothing and says so", () => {
    const calls: string[] = [];
    expect(atBatchEnd(() => calls.push("late"))).toBe(false);
    expect(calls).toEqual([]);
  });

  test("callbacks run after the delivery, in registration order, and the batch's value is returned", () => {
    const calls: string[] = [];
    const value = runInBatch(() => {
      expect(atBatchEnd(() => calls.push("first"))).toBe(true);
      expect(atBatchEnd(() => calls.push("second"))).toBe(true);
      calls.push("delivered");
      return 42;
    });
    expect(value).toBe(42);
    expect(calls).toEqual(["delivered", "first", "second"]);
    expect(atBatchEnd(() => calls.push("after"))).toBe(false);
  });

  test("a callback registered while the callbacks run joins them; a nested batch runs its own at its own end", () => {
    const calls: string[] = [];
    runInBatch(() => {
      atBatchEnd(() => {
        calls.push("outer");
        atBatchEnd(() => calls.push("joined"));
      });
      runInBatch(() => {
        atBatchEnd(() => calls.push("inner"));
      });
      calls.push("after inner");
    });
    expect(calls).toEqual(["inner", "after inner", "outer", "joined"]);
  });

  test("a delivery that throws still runs the callbacks, then rethrows; the batch is closed", () => {
    const calls: string[] = [];
    expect(() =>
      runInBatch(() => {
        atBatchEnd(() => calls.push("ran"));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(calls).toEqual(["ran"]);
    expect(atBatchEnd(() => calls.push("outside"))).toBe(false);
  });
});
