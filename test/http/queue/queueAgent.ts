/**
 * The queue property test's agent and client tool, both driven step by step by the test: each run
 * waits for the test's next `AgentAction` (say a message, listen to `ctx.incoming$`, finish, end
 * with an interrupt, call the client tool and end), and the client tool's `execute` waits until the
 * test answers the call. Nothing moves unless the test says so, so the model knows where every run is.
 */
import * as t from "io-ts";
import type { Subscription } from "rxjs";
import { interrupted, success, type Agent, type RunOutcome } from "../../../src/server/Agent";
import type { RunContext } from "../../../src/server/RunContext";
import { clientTool, type ClientTool } from "../../../src/client/tools/clientTool";
import { agentIds, type AgentAction } from "./queueModel";

/** The name of the client tool the sessions offer and the agent calls. */
export const ASK_TOOL = "ask";

/** A run waiting for its next action: `deliver` hands it one; it ends with `undefined` when the run was stopped. */
interface StepInbox {
  deliver(action: AgentAction): void;
}

/**
 * The agent, and the test's handle on its live runs: `step(runId, action)` makes run `runId` do
 * `action` (it must be waiting for one: the test steps only the run the model says is live).
 *
 * @example
 * const agent = new SteppedAgent();
 * createHandler(agent.agent, { store });
 * agent.step("r1", "say");
 */
export class SteppedAgent {
  private readonly inboxes = new Map<string, StepInbox>();
  /** The runs whose agent started, in order. */
  readonly runs: string[] = [];

  /** The agent the handler runs. */
  readonly agent: Agent = { run: (ctx) => this.play(ctx) };

  /** Whether run `runId`'s agent is waiting for an action. */
  waiting(runId: string): boolean {
    return this.inboxes.has(runId);
  }

  /** Makes run `runId` do `action`. */
  step(runId: string, action: AgentAction): void {
    const inbox = this.inboxes.get(runId);
    if (inbox === undefined) throw new Error(`expected the agent of run ${runId} to wait for an action (${action}), but it does not run`);
    this.inboxes.delete(runId);
    inbox.deliver(action);
  }

  /** Lets every run still waiting finish (a producer whose lease ran out comes back and finds its run over). */
  finishAll(): void {
    for (const runId of [...this.inboxes.keys()]) this.step(runId, "finish");
  }

  private async play(ctx: RunContext): Promise<RunOutcome> {
    const { runId } = ctx;
    this.runs.push(runId);
    let says = 0;
    let listening: Subscription | undefined;
    try {
      for (;;) {
        const action = await this.next(runId, ctx.signal);
        switch (action) {
          case undefined: // stopped: the runtime ends the run cancelled
          case "finish":
            return success();
          case "say":
            ctx.say(`said ${++says} in ${runId}`, { id: agentIds.say(runId, says) });
            break;
          case "listen":
            listening ??= ctx.incoming$.subscribe(); // taking is the handing over: the runtime records each steer then
            break;
          case "interrupt":
            return interrupted(ctx.interrupt({ id: agentIds.interrupt(runId), reason: "confirmation" }));
          case "clientTool":
            ctx.say("one question first", { id: agentIds.toolMessage(runId) });
            ctx
              .toolCall(ASK_TOOL, { id: agentIds.toolCall(runId), parentMessageId: agentIds.toolMessage(runId) })
              .argsJson({ run: runId })
              .end();
            return success(); // the call is left to the client: the outcome names it pending
        }
      }
    } finally {
      listening?.unsubscribe();
      this.inboxes.delete(runId);
    }
  }

  /** The next action for run `runId`; `undefined` once the run is stopped. */
  private next(runId: string, signal: AbortSignal): Promise<AgentAction | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const stopped = (): void => {
        this.inboxes.delete(runId);
        resolve(undefined);
      };
      signal.addEventListener("abort", stopped, { once: true });
      this.inboxes.set(runId, {
        deliver: (action) => {
          signal.removeEventListener("abort", stopped);
          resolve(action);
        },
      });
    });
  }
}

/**
 * The client tool every Session offers: its calls wait until the test answers them (`answer`),
 * and each execution is counted, so a call run twice (by two tabs) shows.
 *
 * @example
 * const tools = new AnsweredTools();
 * new Session(transport, { threadId, tools: [tools.tool(0)] });
 * tools.answer("c-r3");
 */
export class AnsweredTools {
  private readonly pending = new Map<string, (() => void)[]>();
  private readonly answered = new Set<string>();
  /** Each execution: the call and the Session (by index) that ran it. */
  readonly executions: { readonly toolCallId: string; readonly session: number }[] = [];

  /** The tool as Session `session` offers it. */
  tool(session: number): ClientTool {
    return clientTool({
      name: ASK_TOOL,
      description: "Asks the user; answered when the test says so",
      parameters: t.type({ run: t.string }),
      execute: (_args, { toolCallId }) => {
        this.executions.push({ toolCallId, session });
        if (this.answered.has(toolCallId)) return `answered ${toolCallId}`; // a late second execution (another tab's) gets the same answer at once
        return new Promise<string>((resolve) =>
          this.pending.set(toolCallId, [...(this.pending.get(toolCallId) ?? []), () => resolve(`answered ${toolCallId}`)]),
        );
      },
    });
  }

  /** Whether call `toolCallId` is being executed and waits for its answer. */
  waiting(toolCallId: string): boolean {
    return this.pending.has(toolCallId);
  }

  /** Answers call `toolCallId` (every execution of it waits on the same answer). */
  answer(toolCallId: string): void {
    const waiters = this.pending.get(toolCallId);
    if (waiters === undefined) throw new Error(`expected a Session to execute client tool call ${toolCallId}, but none does`);
    this.pending.delete(toolCallId);
    this.answered.add(toolCallId);
    for (const resolve of waiters) resolve();
  }
}
