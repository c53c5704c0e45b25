/**
 * Property: whatever an agent does through the context (in any order, from the parent and from
 * nested subagents, misuse included), the driver's output is a stream that our strict verifier,
 * the official `verifyEvents` and `@ag-ui/core`'s schemas all accept, and it ends with exactly one
 * terminal event. Misuse surfaces as a `ProtocolError` at the call site, never in the stream.
 */
import fc from "fast-check";
import { runAgentInput } from "../../src/protocol/build";
import { ProtocolError } from "../../src/operators/ProtocolError";
import {
  AgentError,
  interrupted,
  run,
  sequentialIds,
  success,
  type Agent,
  type MessageHandle,
  type RunContext,
  type StepGuard,
  type SubagentContext,
  type ToolCallHandle,
} from "../../src/server";
import { collect, expectAccepted } from "./support";

type Op =
  | { kind: "say" | "open" | "tool" | "sub" | "publish" | "reasoning"; who: number; n: number }
  | { kind: "step"; who: number; name: string }
  | { kind: "delta" | "end" | "args" | "endTool" | "result" | "endStep" | "finish" | "fail"; which: number };

const who = fc.nat(7);
const which = fc.nat(7);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom("say" as const, "open" as const, "tool" as const, "sub" as const, "publish" as const, "reasoning" as const), who, n: fc.nat(3) }),
  fc.record({ kind: fc.constant("step" as const), who, name: fc.constantFrom("plan", "act") }),
  fc.record({
    kind: fc.constantFrom("delta" as const, "end" as const, "args" as const, "endTool" as const, "result" as const, "endStep" as const, "finish" as const, "fail" as const),
    which,
  }),
);
const ending = fc.constantFrom("success", "throw", "interrupt");

function scripted(ops: readonly Op[], end: string, misuse: { count: number }): Agent {
  return {
    async run(ctx) {
      const contexts: RunContext[] = [ctx];
      const subs: SubagentContext[] = [];
      const messages: MessageHandle[] = [];
      const calls: ToolCallHandle[] = [];
      const steps: StepGuard[] = [];
      const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
      for (const step of ops) {
        try {
          switch (step.kind) {
            case "say":
              pick(contexts, step.who)?.say(`text ${step.n}`);
              break;
            case "open":
              messages.push(contexts[step.who % contexts.length].assistantMessage());
              break;
            case "reasoning":
              contexts[step.who % contexts.length].reasoning().delta("hmm");
              break;
            case "tool":
              calls.push(contexts[step.who % contexts.length].toolCall(`tool${step.n}`));
              break;
            case "sub": {
              const sub = contexts[step.who % contexts.length].subagent(`agent${step.n}`);
              subs.push(sub);
              contexts.push(sub);
              break;
            }
            case "publish":
              contexts[step.who % contexts.length].setState({ n: step.n, big: "x".repeat(40) });
              break;
            case "step":
              steps.push(contexts[step.who % contexts.length].step(step.name));
              break;
            case "delta":
              pick(messages, step.which)?.delta("more");
              break;
            case "end":
              pick(messages, step.which)?.end();
              break;
            case "args":
              pick(calls, step.which)?.args("{}");
              break;
            case "endTool":
              pick(calls, step.which)?.end();
              break;
            case "result":
              pick(calls, step.which)?.result("ok");
              break;
            case "endStep":
              pick(steps, step.which)?.end();
              break;
            case "finish":
              pick(subs, step.which)?.finish();
              break;
            case "fail":
              pick(subs, step.which)?.fail("failed", "SUB");
              break;
          }
        } catch (error) {
          if (!(error instanceof ProtocolError)) throw error;
          misuse.count++;
        }
      }
      if (end === "throw") throw new AgentError("scripted failure", "SCRIPTED");
      if (end === "interrupt") return interrupted(pick(contexts, ops.length)!.interrupt({ reason: "confirmation" }));
      return success();
    },
  };
}

test("any sequence of writes gives a stream everyone accepts, with exactly one terminal event at the end", async () => {
  let runsWithMisuse = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 40 }), ending, async (ops, end) => {
      const misuse = { count: 0 };
      const events = await collect(run(scripted(ops, end, misuse), runAgentInput("t", "r"), { ids: sequentialIds() }));
      await expectAccepted(events);
      const terminals = events.filter((event) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR");
      expect(terminals).toHaveLength(1);
      expect(events[events.length - 1]).toBe(terminals[0]);
      expect(terminals[0].type).toBe(end === "throw" ? "RUN_ERROR" : "RUN_FINISHED");
      if (misuse.count > 0) runsWithMisuse++;
    }),
    { numRuns: 300 },
  );
  // the property covered misuse too, not only well-behaved agents
  expect(runsWithMisuse).toBeGreaterThan(0);
});
