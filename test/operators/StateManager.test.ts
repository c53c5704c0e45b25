import { isRight } from "fp-ts/Either";
import * as fc from "fast-check";
import { applyPatch } from "../../src/patch/apply";
import { StateManager, type StatePublish } from "../../src/operators/StateManager";

describe("StateManager: the seed's examples (000, shared state)", () => {
  const notes = "the document the user is editing, at some length";

  test("first publish is a snapshot, a field of a large document a delta, the same again nothing", () => {
    const states = new StateManager();
    const first = states.publish({ step: 1, notes });
    expect(first).toEqual({ kind: "snapshot", snapshot: { step: 1, notes } });
    expect(states.publish({ step: 2, notes })).toEqual({ kind: "delta", delta: [{ op: "replace", path: "/step", value: 2 }] });
    expect(states.publish({ step: 2, notes })).toEqual({ kind: "unchanged" });
  });

  test("a small document changed whole is a snapshot again: the patch would be larger", () => {
    const small = new StateManager();
    small.publish({ a: 1 });
    expect(small.publish({ b: 2 })).toEqual({ kind: "snapshot", snapshot: { b: 2 } });
  });

  test("reset forgets the last publish: the next one is a snapshot", () => {
    const states = new StateManager();
    states.publish({ step: 1, notes });
    states.reset();
    expect(states.publish({ step: 1, notes })).toEqual({ kind: "snapshot", snapshot: { step: 1, notes } });
  });

  test("the seed's run: update, then edit in place and publish, then publish with nothing new", () => {
    const states = new StateManager();
    const doc = { step: 0, notes: [] as string[] };
    doc.step = 1;
    doc.notes.push("the document the user is editing".repeat(8));
    const kinds = [states.publish(doc).kind];
    doc.step = 2;
    kinds.push(states.publish(doc).kind);
    const last = states.publish(doc);
    expect(kinds).toEqual(["snapshot", "delta"]);
    expect(last).toEqual({ kind: "unchanged" });
  });
});

describe("StateManager: callers that mutate in place", () => {
  test("the baseline is the manager's own: in-place edits between publishes are seen as changes", () => {
    const states = new StateManager();
    const board = { tasks: [{ title: "a", done: false }], name: "a board with a long enough name to make deltas pay" };
    states.publish(board);
    board.tasks.push({ title: "b", done: false });
    expect(states.publish(board)).toEqual({ kind: "delta", delta: [{ op: "add", path: "/tasks/-", value: { title: "b", done: false } }] });
    board.tasks[0].done = true;
    expect(states.publish(board)).toEqual({ kind: "delta", delta: [{ op: "replace", path: "/tasks/0/done", value: true }] });
    board.tasks.splice(0, 1);
    expect(states.publish(board)).toEqual({ kind: "delta", delta: [{ op: "remove", path: "/tasks/0" }] });
  });

  test("what publish returns shares nothing with the caller's value", () => {
    const states = new StateManager();
    const state = { list: [{ n: 1 }], padding: "x".repeat(100) };
    const first = states.publish(state);
    state.list.push({ n: 3 });
    expect(first).toEqual({ kind: "snapshot", snapshot: { list: [{ n: 1 }], padding: "x".repeat(100) } });
    const second = states.publish(state);
    state.list[1].n = 99;
    expect(second).toEqual({ kind: "delta", delta: [{ op: "add", path: "/list/-", value: { n: 3 } }] });
    expect(states.publish(state)).toEqual({ kind: "delta", delta: [{ op: "replace", path: "/list/1/n", value: 99 }] });
  });

  test("mutating a returned snapshot or delta does not corrupt later decisions", () => {
    const states = new StateManager();
    const first = states.publish({ a: { n: 1 }, pad: "y".repeat(80) });
    if (first.kind === "snapshot") (first.snapshot as { a: { n: number } }).a.n = 42;
    const second = states.publish({ a: { n: 1, m: { k: 1 } }, pad: "y".repeat(80) });
    expect(second).toEqual({ kind: "delta", delta: [{ op: "add", path: "/a/m", value: { k: 1 } }] });
    if (second.kind === "delta") (second.delta[0] as { value: { k: number } }).value.k = 7;
    expect(states.publish({ a: { n: 1, m: { k: 1 } }, pad: "y".repeat(80) })).toEqual({ kind: "unchanged" });
  });

  test("the same JSON with another member order is unchanged", () => {
    const states = new StateManager();
    states.publish({ a: 1, b: [1, 2] });
    expect(states.publish({ b: [1, 2], a: 1 })).toEqual({ kind: "unchanged" });
  });

  test("a value that is not JSON is refused with a clear error", () => {
    expect(() => new StateManager().publish(undefined)).toThrow("a state must be a JSON value, got undefined");
  });
});

describe("StateManager.applyDelta", () => {
  test("moves the baseline forward, so the next publish of that state is unchanged", () => {
    const states = new StateManager();
    states.publish({ n: 1, pad: "p".repeat(50) });
    expect(states.applyDelta([{ op: "replace", path: "/n", value: 2 }])).toBe(true);
    expect(states.publish({ n: 2, pad: "p".repeat(50) })).toEqual({ kind: "unchanged" });
    expect(states.publish({ n: 3, pad: "p".repeat(50) })).toEqual({ kind: "delta", delta: [{ op: "replace", path: "/n", value: 3 }] });
  });

  test("a delta that does not apply forgets the baseline: the next publish is a snapshot", () => {
    const states = new StateManager();
    states.publish({ n: 1, pad: "p".repeat(50) });
    expect(states.applyDelta([{ op: "remove", path: "/missing" }])).toBe(false);
    expect(states.publish({ n: 1, pad: "p".repeat(50) }).kind).toBe("snapshot");
  });

  test("without a baseline it does nothing", () => {
    const states = new StateManager();
    expect(states.applyDelta([{ op: "add", path: "/n", value: 1 }])).toBe(false);
    expect(states.publish({ n: 1 }).kind).toBe("snapshot");
  });
});

describe("StateManager: property", () => {
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: "small" }, fc.oneof(fc.integer(), fc.string({ maxLength: 5 }), fc.boolean(), fc.constant(null)), tie("array"), tie("object")),
    array: fc.array(tie("value"), { maxLength: 5 }),
    object: fc.dictionary(fc.constantFrom("a", "b", "c/d", "~e", "ü"), tie("value"), { maxKeys: 4 }),
  })).value;

  test("a client applying what it receives always holds the published state; deltas are strictly smaller", () => {
    fc.assert(
      fc.property(fc.array(json, { minLength: 1, maxLength: 8 }), (sequence) => {
        const states = new StateManager();
        let client: unknown = undefined;
        let previous: string | undefined;
        sequence.forEach((value, i) => {
          const text = JSON.stringify(value);
          const decision: StatePublish = states.publish(value);
          if (i === 0) expect(decision.kind).toBe("snapshot");
          if (decision.kind === "snapshot") client = decision.snapshot;
          else if (decision.kind === "delta") {
            expect(JSON.stringify(decision.delta).length).toBeLessThan(text.length);
            const next = applyPatch(client, decision.delta);
            expect(isRight(next)).toBe(true);
            if (isRight(next)) client = next.right;
          } else expect(JSON.parse(text)).toEqual(JSON.parse(previous!));
          expect(client).toEqual(JSON.parse(text));
          previous = text;
        });
      }),
      { numRuns: 1000 },
    );
  });
});
