/**
 * What the branch property tests' agent answers on its `run`-th run: one to two messages naming
 * the run (a text; a server tool call under it with its result; an activity message before or
 * after it), and a state change that depends on the run and on the state it started from, so that
 * siblings end with different states and a run given the wrong starting state shows it.
 */
import { ev } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { RunContext } from "../../../src/server/RunContext";

/** A message as the tests compare them: id, role and content, whatever else a client keeps. */
export interface PlainMessage {
  readonly id: string;
  readonly role: string;
  readonly content: unknown;
}

/** The shapes of an answer, by the run's number. */
type AnswerShape = "text" | "tool" | "activity-first" | "activity-last";
const SHAPES: readonly AnswerShape[] = ["text", "tool", "activity-first", "activity-last"];

/** One answer: its messages in path order, the state after it, and the state event the agent emits (none: the state is left as it was). */
export interface ScriptedAnswer {
  readonly run: number;
  readonly shape: AnswerShape;
  readonly messages: readonly PlainMessage[];
  readonly state: unknown;
  readonly stateEvent?: Event;
}

/** The state the agent keeps: the last run that changed it, and every run that did along the branch. */
interface RunLog {
  readonly turn: number;
  readonly log: readonly number[];
}

/**
 * The answer of run `run` (counted from 1) to the user message `question`, started from `start`.
 * Its text is `a{run}`; a tool call `c{run}` has its result in `r{run}`; an activity is `p{run}`.
 * Every third run leaves the state alone, the others add the run to the log, with a
 * STATE_SNAPSHOT when there is no log yet (or every third run after that) and a STATE_DELTA
 * otherwise.
 *
 * @example
 * answerOf(1, "hi", {}); // { shape: "tool", messages: [a1, r1], state: { turn: 1, log: [1] }, stateEvent: STATE_SNAPSHOT, … }
 */
export function answerOf(run: number, question: string, start: unknown): ScriptedAnswer {
  const shape = SHAPES[run % SHAPES.length];
  const text: PlainMessage = { id: `a${run}`, role: "assistant", content: `answer ${run} to ${question}` };
  const activity: PlainMessage = { id: `p${run}`, role: "activity", content: { run } };
  const messages =
    shape === "tool"
      ? [text, { id: `r${run}`, role: "tool", content: `${run} hits` }]
      : shape === "activity-first"
        ? [activity, text]
        : shape === "activity-last"
          ? [text, activity]
          : [text];
  if (run % 3 === 0) return { run, shape, messages, state: start };
  const before = runLogOf(start);
  const state: RunLog = { turn: run, log: [...(before?.log ?? []), run] };
  if (before === undefined || run % 3 === 1) return { run, shape, messages, state, stateEvent: ev.stateSnapshot(state) };
  const delta = ev.stateDelta([
    { op: "add", path: "/log/-", value: run },
    { op: "replace", path: "/turn", value: run },
  ]);
  return { run, shape, messages, state, stateEvent: delta };
}

/**
 * Plays `answer` on `ctx`: its messages, then its state event.
 *
 * @example
 * playAnswer(ctx, answerOf(n, ctx.lastUserText() ?? "", ctx.input.state));
 */
export function playAnswer(ctx: RunContext, answer: ScriptedAnswer): void {
  const { run, shape } = answer;
  const progress = () => ctx.activity("progress", { id: `p${run}` }).snapshot({ run });
  if (shape === "activity-first") progress();
  const text = answer.messages.find((message) => message.role === "assistant");
  ctx.say(String(text?.content), { id: `a${run}` });
  if (shape === "tool")
    ctx
      .toolCall("lookup", { id: `c${run}`, parentMessageId: `a${run}` })
      .argsJson({ run })
      .result(`${run} hits`, { messageId: `r${run}` });
  if (shape === "activity-last") progress();
  if (answer.stateEvent !== undefined) ctx.emit(answer.stateEvent);
}

function runLogOf(state: unknown): RunLog | undefined {
  if (typeof state !== "object" || state === null) return undefined;
  const { turn, log } = state as Partial<RunLog>; // test-only: the agent's own state, checked below
  return typeof turn === "number" && Array.isArray(log) && log.every((entry) => typeof entry === "number") ? { turn, log } : undefined;
}
