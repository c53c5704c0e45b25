/**
 * Test threads for the store and connect suites: runs made by the real driver (`run()` with
 * scripted agents, random ones included), logged into a store up to a cut, and what a fresh
 * client builds from any event list.
 */
import fc from "fast-check";
import { from, lastValueFrom, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { RunAgentInput } from "../../../src/protocol/input";
import type { Message } from "../../../src/protocol/messages";
import { ProtocolError } from "../../../src/operators/ProtocolError";
import { normalizeAndVerify } from "../../../src/operators/normalizeAndVerify";
import { applyEvent } from "../../../src/thread/reducers/applyEvent";
import { applyEvents } from "../../../src/client/applyEvents";
import { ClientState } from "../../../src/thread/reducers/ClientState";
import type { Update } from "../../../src/thread/Update";
import {
  AgentError,
  interrupted,
  run,
  sequentialIds,
  success,
  type Agent,
  type MessageHandle,
  type ReasoningHandle,
  type RunContext,
  type StepGuard,
  type SubagentContext,
  type ToolCallHandle,
} from "../../../src/server";
import type { RunWriter, StoredEvent, ThreadStore } from "../../../src/server/store/ThreadStore";

/** One run as the driver produced it: its input and every event, RUN_STARTED first, terminal last. */
export interface RecordedRun {
  readonly input: RunAgentInput;
  readonly events: readonly Event[];
}

/** A scripted agent's step: what to do, through which context or open handle. */
export type Op =
  | { kind: "say" | "open" | "tool" | "sub" | "publish" | "reasoning" | "activity"; who: number; n: number }
  | { kind: "step"; who: number; name: string }
  | { kind: "delta" | "end" | "args" | "endTool" | "result" | "think" | "endThinking" | "endStep" | "finish" | "fail"; which: number };

/** How a scripted run ends; `cancelled` is a success whose RUN_FINISHED is rewritten to 1.0.0's cancelled outcome (what /stop produces). */
export type Ending = "success" | "throw" | "interrupt" | "cancelled";

const index = fc.nat(7);
/** Any step. */
export const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("say" as const, "open" as const, "tool" as const, "sub" as const, "publish" as const, "reasoning" as const, "activity" as const),
    who: index,
    n: fc.nat(3),
  }),
  fc.record({ kind: fc.constant("step" as const), who: index, name: fc.constantFrom("plan", "act") }),
  fc.record({
    kind: fc.constantFrom(
      "delta" as const,
      "end" as const,
      "args" as const,
      "endTool" as const,
      "result" as const,
      "think" as const,
      "endThinking" as const,
      "endStep" as const,
      "finish" as const,
      "fail" as const,
    ),
    which: index,
  }),
);
export const endingArbitrary: fc.Arbitrary<Ending> = fc.constantFrom("success", "throw", "interrupt", "cancelled");

/** An agent that plays `ops` (misuse the verifier refuses is skipped, as an agent catching a ProtocolError would), then ends as told. */
export function scriptedAgent(ops: readonly Op[], ending: Ending): Agent {
  return {
    async run(ctx) {
      const contexts: RunContext[] = [ctx];
      const subs: SubagentContext[] = [];
      const messages: MessageHandle[] = [];
      const calls: ToolCallHandle[] = [];
      const thoughts: ReasoningHandle[] = [];
      const steps: StepGuard[] = [];
      const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
      const within = (who: number): RunContext => contexts[who % contexts.length];
      for (const op of ops) {
        try {
          switch (op.kind) {
            case "say":
              within(op.who).say(`text ${op.n}`);
              break;
            case "open":
              messages.push(within(op.who).assistantMessage().delta(`part ${op.n} `));
              break;
            case "tool":
              calls.push(within(op.who).toolCall(`tool${op.n}`).args('{"q":'));
              break;
            case "sub": {
              const sub = within(op.who).subagent(`agent${op.n}`);
              subs.push(sub);
              contexts.push(sub);
              break;
            }
            case "publish":
              within(op.who).setState({ n: op.n, tags: ["a", "b"].slice(0, op.n), big: "x".repeat(40) });
              break;
            case "reasoning":
              thoughts.push(within(op.who).reasoning().delta(`hmm ${op.n}`));
              break;
            case "activity":
              within(op.who)
                .activity("progress")
                .snapshot({ done: op.n })
                .delta([{ op: "replace", path: "/done", value: op.n + 1 }]);
              break;
            case "step":
              steps.push(within(op.who).step(op.name));
              break;
            case "delta":
              pick(messages, op.which)?.delta("more ");
              break;
            case "end":
              pick(messages, op.which)?.end();
              break;
            case "args":
              pick(calls, op.which)?.args('"x"}');
              break;
            case "endTool":
              pick(calls, op.which)?.end();
              break;
            case "result":
              pick(calls, op.which)?.result("ok");
              break;
            case "think":
              pick(thoughts, op.which)?.delta(" and more");
              break;
            case "endThinking":
              pick(thoughts, op.which)?.end();
              break;
            case "endStep":
              pick(steps, op.which)?.end();
              break;
            case "finish":
              pick(subs, op.which)?.finish({ done: true });
              break;
            case "fail":
              pick(subs, op.which)?.fail("failed", "SUB");
              break;
          }
        } catch (error) {
          if (!(error instanceof ProtocolError)) throw error;
        }
      }
      if (ending === "throw") throw new AgentError("scripted failure", "SCRIPTED");
      if (ending === "interrupt") return interrupted(ctx.interrupt({ reason: "confirmation" }));
      return success();
    },
  };
}

/** Runs `agent` on `input` with the real driver and returns its events; `cancelled` rewrites the terminal's outcome. */
export async function recordRun(agent: Agent, input: RunAgentInput, ending: Ending = "success"): Promise<RecordedRun> {
  const events = await lastValueFrom(run(agent, input, { ids: sequentialIds(input.runId) }).pipe(toArray()));
  const last = events[events.length - 1];
  if (ending === "cancelled" && last.type === "RUN_FINISHED") {
    events[events.length - 1] = ev.runFinished(last.threadId, last.runId, { outcome: { type: "cancelled" } });
  }
  return { input, events };
}

/**
 * Records a thread of scripted runs on `threadId`, each with the messages a client would send:
 * everything so far (minus activity messages, A21) plus a new user message.
 */
export async function recordThread(threadId: string, scripts: readonly { ops: readonly Op[]; ending: Ending }[]): Promise<RecordedRun[]> {
  const runs: RecordedRun[] = [];
  for (let i = 0; i < scripts.length; i++) {
    const history = clientAfter(runs)
      .messages.snapshot()
      .filter((message) => message.role !== "activity");
    const input = runAgentInput(threadId, `run${i + 1}`, { messages: [...history, { id: `user-${i + 1}`, role: "user", content: `question ${i + 1}` }] });
    runs.push(await recordRun(scriptedAgent(scripts[i].ops, scripts[i].ending), input, scripts[i].ending));
  }
  return runs;
}

/** The client state after every event of `runs`, each RUN_STARTED applied with its input (what a client that sent them holds). */
export function clientAfter(runs: readonly RecordedRun[]): ClientState<unknown> {
  const state = ClientState.untyped();
  for (const recorded of runs) {
    recorded.events.forEach((event, i) => applyEvent(state, i === 0 && event.type === "RUN_STARTED" ? { ...event, input: recorded.input } : event));
  }
  return state;
}

/**
 * Logs `runs` into `store`: all of them whole, except that the last is logged only through its
 * event `upTo` (0: just its RUN_STARTED, which `beginRun` logs). Returns the last run's writer and
 * its stored events so far.
 */
export async function logThread(store: ThreadStore, runs: readonly RecordedRun[], upTo: number): Promise<{ writer: RunWriter; stored: StoredEvent[] }> {
  let writer: RunWriter | undefined;
  let stored: StoredEvent[] = [];
  for (let r = 0; r < runs.length; r++) {
    const { input, events } = runs[r];
    writer = await store.beginRun(input);
    stored = [writer.started];
    const through = r === runs.length - 1 ? upTo : events.length - 1;
    const batch = events.slice(1, through + 1);
    const cursors = await writer.append(batch);
    batch.forEach((event, i) => stored.push({ cursor: cursors[i], event }));
  }
  if (writer === undefined) throw new Error("logThread: expected at least one run");
  return { writer, stored };
}

/** A fresh client applying `events` through the Session's own pipeline: its state, and the problems it reported (a run's own RUN_ERROR aside). */
export async function freshClient(events: readonly Event[]): Promise<{ state: ClientState<unknown>; problems: string[] }> {
  const state = ClientState.untyped();
  const updates: Update<unknown>[] = await lastValueFrom(from(events).pipe(normalizeAndVerify(), applyEvents({ state }), toArray()));
  const problems = updates.flatMap((update) =>
    update.kind === "error" && update.error.kind !== "run" ? [`${update.error.kind}: ${update.error.message}`] : [],
  );
  return { state, problems };
}

export type { Message };
