/**
 * What the branch property tests' agent answers on its `run`-th run: a text naming the run, and a
 * state change that depends on the run and on the state it started from, so that siblings end
 * with different states and a run given the wrong starting state shows it.
 */
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";

/** One answer: the assistant message, the state after it, and the state event the agent emits (none: the state is left as it was). */
export interface ScriptedAnswer {
  readonly id: string;
  readonly content: string;
  readonly state: unknown;
  readonly stateEvent?: Event;
}

/** The state the agent keeps: the last run that changed it, and every run that did along the branch. */
interface RunLog {
  readonly turn: number;
  readonly log: readonly number[];
}

/**
 * The answer of run `run` (counted from 1) to the user message `question`, started from `start`:
 * every third run leaves the state alone, the others add the run to the log, with a
 * STATE_SNAPSHOT when there is no log yet (or every third run after that) and a STATE_DELTA
 * otherwise.
 *
 * @example
 * answerOf(1, "hi", {}); // { id: "a1", content: "answer 1 to hi", state: { turn: 1, log: [1] }, stateEvent: STATE_SNAPSHOT }
 */
export function answerOf(run: number, question: string, start: unknown): ScriptedAnswer {
  const id = `a${run}`;
  const content = `answer ${run} to ${question}`;
  if (run % 3 === 0) return { id, content, state: start };
  const before = runLogOf(start);
  const state: RunLog = { turn: run, log: [...(before?.log ?? []), run] };
  if (before === undefined || run % 3 === 1) return { id, content, state, stateEvent: ev.stateSnapshot(state) };
  const delta = ev.stateDelta([
    { op: "add", path: "/log/-", value: run },
    { op: "replace", path: "/turn", value: run },
  ]);
  return { id, content, state, stateEvent: delta };
}

function runLogOf(state: unknown): RunLog | undefined {
  if (typeof state !== "object" || state === null) return undefined;
  const { turn, log } = state as Partial<RunLog>; // test-only: the agent's own state, checked below
  return typeof turn === "number" && Array.isArray(log) && log.every((entry) => typeof entry === "number") ? { turn, log } : undefined;
}
