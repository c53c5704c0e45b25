/**
 * Shared state on the server and the client (docs/server.md#run-and-context, docs/client.md#session-and-updates): `StateManager.publish` for one small
 * change on a board of 10,000 tasks (about 1 MB of JSON), as a ratio to one `JSON.stringify` of the
 * same state (the cost a publish cannot avoid: the snapshot's size decides; target ≤ 3×), and
 * `applyPatch` of a one-operation delta against a `structuredClone` of the state (what a naive
 * immutable client would pay per event).
 *
 * The state is edited in place between publishes, as `ctx.stateMut` does, so the manager compares
 * against its own baseline and shares nothing with the caller (the worst case for the diff walk).
 * The push and removal cases alternate with their inverse (pop, re-insertion) so the state stays
 * the same size; each publish is still exactly one change.
 *
 * Every lane is checked before its time counts: each publish must be a one-operation delta, and
 * the deltas of every publish (the timed ones included), applied by the checker's own applier to
 * a fresh copy of the generated board, must give the edited state; `JSON.stringify` must write the
 * whole state, `structuredClone` copy it, and `applyPatch` give the board with that one title
 * changed (built by the generator, not by a patch) while leaving the input untouched.
 */
import { isLeft } from "fp-ts/Either";
import { applyPatch } from "../../src/patch/apply";
import { StateManager } from "../../src/operators/StateManager";
import type { JsonPatchOperation } from "../../src/protocol/common";
import { applyOpsInPlace, firstDifference } from "../support/checkResult";
import { compare, type Comparison } from "../support/measure";
import { fmt, printTable } from "../support/table";
import { recordTarget } from "../support/targets";

interface Task {
  id: string;
  title: string;
  done: boolean;
  assignee: string;
  priority: number;
  tags: string[];
}

interface Board {
  name: string;
  version: number;
  tasks: Task[];
}

function board(count: number): Board {
  const tasks: Task[] = [];
  for (let i = 0; i < count; i++) {
    tasks.push({
      id: `task-${String(i).padStart(5, "0")}`,
      title: `Follow up on customer call ${i}`,
      done: i % 3 === 0,
      assignee: `user-${i % 17}`,
      priority: i % 5,
      tags: ["board", i % 2 === 0 ? "even" : "odd"],
    });
  }
  return { name: "Quarterly planning", version: 1, tasks };
}

/** Throws unless `actual` equals `expected` as JSON values, naming the lane. */
function checkEqual(lane: string, actual: unknown, expected: unknown): void {
  const difference = firstDifference(actual, expected, "state");
  if (difference !== undefined) throw new Error(`${lane}: ${difference}`);
}

/**
 * One publish case on a fresh board: the edit is applied in place, then the state is published
 * (one-op delta). Checked once before timing and over every timed publish after.
 */
function publishCase(name: string, edit: (state: Board, i: number) => void): Comparison {
  const state = board(TASKS);
  const states = new StateManager();
  states.publish(state);
  // The generator's own copy, moved forward only by the published deltas.
  const mirror = board(TASKS);
  const published: (readonly JsonPatchOperation[])[] = [];
  const check = () => {
    for (const delta of published.splice(0)) applyOpsInPlace(mirror, delta);
    checkEqual(`${name}: the published deltas applied to the board`, mirror, state);
  };
  let i = 0;
  const publishOne = () => {
    edit(state, i++);
    const decision = states.publish(state);
    if (decision.kind !== "delta" || decision.delta.length !== 1) {
      throw new Error(`${name}: expected a one-op delta, got ${JSON.stringify(decision).slice(0, 200)}`);
    }
    published.push(decision.delta);
    return decision;
  };
  publishOne();
  check();
  checkEqual("JSON.stringify(state)", JSON.parse(JSON.stringify(state)), state);
  const comparison = compare("JSON.stringify(state)", () => JSON.stringify(state), name, publishOne);
  check();
  return comparison;
}

const TASKS = 10_000;

export default async function run(): Promise<void> {
  const state = board(TASKS);
  const bytes = JSON.stringify(state).length;
  const middle = TASKS / 2;
  const extra: Task = { ...state.tasks[0], id: "task-extra", tags: ["new"] };
  let removed: Task | undefined;

  const cases = [
    publishCase("publish: one field change", (s) => {
      s.tasks[middle].done = !s.tasks[middle].done;
    }),
    publishCase("publish: one push", (s, i) => {
      if (i % 2 === 0) s.tasks.push(extra);
      else s.tasks.pop();
    }),
    publishCase("publish: one middle removal", (s, i) => {
      if (i % 2 === 0) removed = s.tasks.splice(middle, 1)[0];
      else s.tasks.splice(middle, 0, removed!);
    }),
  ];

  printTable(
    `StateManager.publish on ${TASKS.toLocaleString("en-US")} tasks (${(bytes / 1e6).toFixed(2)} MB of JSON), each timed in alternation with JSON.stringify of the same state; target ≤ 3×`,
    [
      ["case", "ms/op", "ops/s", "JSON.stringify ms/op", "× JSON.stringify", "within 3×"],
      ...cases.map((c) => [
        c.candidate.name,
        fmt(c.candidate.msPerOp, 3),
        fmt(c.candidate.opsPerSecond),
        fmt(c.baseline.msPerOp, 3),
        fmt(c.ratio),
        c.ratio <= 3 ? "yes" : "NO",
      ]),
    ],
  );

  for (const c of cases)
    recordTarget("state", `${c.candidate.name} ≤ 3× JSON.stringify (${TASKS.toLocaleString("en-US")} tasks)`, `${fmt(c.ratio)}×`, c.ratio <= 3);

  const delta = [{ op: "replace" as const, path: `/tasks/${middle}/title`, value: "renamed" }];
  const renamed = board(TASKS);
  renamed.tasks[middle].title = "renamed";
  const original = board(TASKS);
  let patched: unknown;
  let cloned: unknown;
  const applyOnce = () => {
    const result = applyPatch(state, delta);
    if (isLeft(result)) throw result.left;
    return (patched = result.right);
  };
  const checkApplying = () => {
    checkEqual("applyPatch", patched, renamed);
    checkEqual("applyPatch's input", state, original);
    checkEqual("structuredClone", cloned, original);
  };
  applyOnce();
  cloned = structuredClone(state);
  checkApplying();
  const applying = compare("structuredClone(state)", () => (cloned = structuredClone(state)), "applyPatch (one op, structural sharing)", applyOnce);
  checkApplying();
  printTable("Applying a one-op STATE_DELTA to that state, timed in alternation with a structuredClone of it", [
    ["case", "ms/op", "ops/s", "speed-up vs structuredClone"],
    [applying.baseline.name, fmt(applying.baseline.msPerOp, 3), fmt(applying.baseline.opsPerSecond), "1.00"],
    [applying.candidate.name, fmt(applying.candidate.msPerOp, 4), fmt(applying.candidate.opsPerSecond), `${fmt(1 / applying.ratio, 0)}×`],
  ]);
}
