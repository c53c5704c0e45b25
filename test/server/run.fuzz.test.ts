/**
 * Fuzz (issue #14 D): random agent scripts through `run()`. Whatever an agent does through the
 * context (in any order, from the parent and from nested subagents, misuse included, with random
 * state, activity content, hand-made events through `emit` and odd outcomes), the driver's output
 * is a stream that our strict verifier, the official `verifyEvents` and `@ag-ui/core`'s
 * `EventSchemas` all accept, that the client's decoder reads back unchanged, and that ends with
 * exactly one terminal event. Misuse surfaces as a `ProtocolError` at the call site, never in the
 * stream. Fixed seed under `npm test`, random under `npm run fuzz` (test/support/fuzz.ts).
 */
import fc from "fast-check";
import * as E from "fp-ts/Either";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { ProtocolError } from "../../src/operators/ProtocolError";
import { decodeEvent } from "../../src/wire/decodeEvent";
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
import { fuzzParameters } from "../support/fuzz";
import { collect, expectAccepted } from "./support";

type Op =
  | { kind: "say" | "open" | "tool" | "sub" | "reasoning"; who: number; n: number }
  | { kind: "step"; who: number; name: string }
  | { kind: "delta" | "end" | "args" | "endTool" | "result" | "endStep" | "finish" | "fail"; which: number }
  | { kind: "state" | "activity"; who: number; value: unknown }
  | { kind: "emit"; who: number; event: unknown }
  | { kind: "emitAll"; who: number; events: readonly unknown[] }
  | { kind: "pause"; ready: boolean };

/** JSON as agents hold it: small, with the keys producers really use and a few awkward ones. */
const json = fc.jsonValue({ maxDepth: 4 });
const who = fc.nat(7);
const which = fc.nat(7);

/** Events an agent might hand to `emit`: valid ones, and the near misses a client would refuse. */
const foreignEvent: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ name: fc.constantFrom("highlight", "progress"), value: json }).map(({ name, value }) => ev.custom(name, value)),
  json.map((value) => ev.raw(value, { source: "fuzz" })),
  fc.string().map((delta) => ({ type: "TEXT_MESSAGE_CHUNK", messageId: "chunk-1", delta })),
  // Reasoning the normalizer brackets (R22), in whichever lane, continued or not.
  fc.record({ messageId: fc.constantFrom("think-1", "think-2", undefined), delta: fc.constantFrom("hm", "") }).map(({ messageId, delta }) => ({
    type: "REASONING_MESSAGE_CHUNK",
    ...(messageId === undefined ? {} : { messageId }),
    delta,
  })),

  fc.constantFrom<unknown>(
    { type: "NOPE" },
    "a bare string",
    null,
    { type: "STATE_DELTA", delta: [{ op: "frobnicate", path: "/a" }] },
    { type: "CUSTOM", name: "x", value: 1, extra: true },
    { type: "CUSTOM", name: "x", value: 10n },
    { type: "TEXT_MESSAGE_START", messageId: "m-x" },
    { type: "STEP_STARTED", stepName: "s", timestamp: null },
    { type: "RUN_FINISHED", threadId: "t", runId: "r" },
  ),
);

/**
 * Balanced reasoning an agent emits by hand, one op at a time: blocks of its own with chunk or
 * explicit messages inside (R22), and the legacy THINKING_* the normalizer maps, with and without
 * the message's own end (THINKING_END then ends it).
 */
const reasoningSequence: fc.Arbitrary<readonly unknown[]> = fc.constantFrom<readonly unknown[]>(
  [ev.reasoningStart("block-1"), { type: "REASONING_MESSAGE_CHUNK", messageId: "think-3", delta: "inside" }, ev.reasoningEnd("block-1")],
  [ev.reasoningStart("block-2"), ev.reasoningMessageStart("think-4"), ev.reasoningEnd("block-2"), ev.reasoningMessageEnd("think-4")],
  [
    { type: "THINKING_START" },
    { type: "THINKING_TEXT_MESSAGE_START" },
    { type: "THINKING_TEXT_MESSAGE_CONTENT", delta: "mm" },
    { type: "THINKING_TEXT_MESSAGE_END" },
    { type: "THINKING_END" },
  ],
  [{ type: "THINKING_START" }, { type: "THINKING_TEXT_MESSAGE_START" }, { type: "THINKING_END" }],
  [{ type: "THINKING_START" }, { type: "REASONING_MESSAGE_CHUNK", messageId: "think-5", delta: "in a step" }, { type: "THINKING_END" }],
);

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom("say" as const, "open" as const, "tool" as const, "sub" as const, "reasoning" as const), who, n: fc.nat(3) }),
  fc.record({ kind: fc.constant("step" as const), who, name: fc.constantFrom("plan", "act") }),
  fc.record({
    kind: fc.constantFrom(
      "delta" as const,
      "end" as const,
      "args" as const,
      "endTool" as const,
      "result" as const,
      "endStep" as const,
      "finish" as const,
      "fail" as const,
    ),
    which,
  }),
  fc.record({ kind: fc.constantFrom("state" as const, "activity" as const), who, value: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 }) }),
  fc.record({ kind: fc.constant("emit" as const), who, event: foreignEvent }),
  fc.record({ kind: fc.constant("emitAll" as const), who, events: reasoningSequence }),
  fc.record({ kind: fc.constant("pause" as const), ready: fc.boolean() }),
);

/** How the agent ends: a normal outcome, a failure, or a value that is no outcome at all. */
const ending = fc.oneof(
  fc.constantFrom<unknown>("success", "throw", "interrupt", "reject-string", "bigint", "circular", "interrupt-42"),
  json.map((result) => ({ result })),
);

function scripted(ops: readonly Op[], end: unknown, misuse: { count: number }): Agent {
  return {
    async run(ctx) {
      const contexts: RunContext[] = [ctx];
      const subs: SubagentContext[] = [];
      const messages: MessageHandle[] = [];
      const calls: ToolCallHandle[] = [];
      const steps: StepGuard[] = [];
      const pick = <T>(list: readonly T[], i: number): T | undefined => (list.length === 0 ? undefined : list[i % list.length]);
      const at = (i: number): RunContext => contexts[i % contexts.length];
      for (const step of ops) {
        try {
          switch (step.kind) {
            case "say":
              at(step.who).say(`text ${step.n}`);
              break;
            case "open":
              messages.push(at(step.who).assistantMessage());
              break;
            case "reasoning":
              at(step.who).reasoning().delta("hmm");
              break;
            case "tool":
              calls.push(at(step.who).toolCall(`tool${step.n}`));
              break;
            case "sub": {
              const sub = at(step.who).subagent(`agent${step.n}`);
              subs.push(sub);
              contexts.push(sub);
              break;
            }
            case "state":
              at(step.who).setState({ ...(step.value as object), big: "x".repeat(40) });
              break;
            case "activity":
              at(step.who)
                .activity("plan")
                .snapshot(step.value as Record<string, unknown>);
              break;
            case "emit":
              at(step.who).emit(step.event as Event); // test-only: the point is events the type may rule out
              break;
            case "emitAll":
              for (const event of step.events) {
                try {
                  at(step.who).emit(event as Event); // test-only, as above
                } catch (error) {
                  if (!(error instanceof ProtocolError)) throw error;
                  misuse.count++;
                }
              }
              break;
            case "pause":
              await (step.ready ? ctx.ready() : Promise.resolve());
              break;
            case "step":
              steps.push(at(step.who).step(step.name));
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
            default: {
              const unreachable: never = step;
              throw new Error(`unknown op ${JSON.stringify(unreachable)}`);
            }
          }
        } catch (error) {
          if (!(error instanceof ProtocolError)) throw error;
          misuse.count++;
        }
      }
      return resolveEnding(end, ctx, contexts);
    },
  };
}

/** The value the scripted agent resolves with (or the error it throws) for an `ending`. */
function resolveEnding(end: unknown, ctx: RunContext, contexts: readonly RunContext[]): ReturnType<Agent["run"]> {
  if (typeof end === "object" && end !== null) return Promise.resolve(success((end as { result: unknown }).result));
  switch (end) {
    case "throw":
      throw new AgentError("scripted failure", "SCRIPTED");
    case "reject-string":
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- an agent that rejects with a non-Error on purpose: that is the case under test
      return Promise.reject("plain text");
    case "interrupt":
      return Promise.resolve(interrupted(contexts[contexts.length - 1].interrupt({ reason: "confirmation" })));
    case "bigint":
      return Promise.resolve(10n as never);
    case "circular": {
      const loop: Record<string, unknown> = { type: "success" };
      loop.result = loop;
      return Promise.resolve(loop as never);
    }
    case "interrupt-42":
      return Promise.resolve({ type: "interrupt", interrupts: [42] } as never);
    default:
      void ctx;
      return Promise.resolve(success());
  }
}

/** What the run must end with for an ending. */
const expectedTerminal = (end: unknown): "RUN_FINISHED" | "RUN_ERROR" =>
  end === "success" || end === "interrupt" || (typeof end === "object" && end !== null) ? "RUN_FINISHED" : "RUN_ERROR";

test("any agent script gives a stream every verifier and schema accepts, read back unchanged, with exactly one terminal event at the end", async () => {
  let runsWithMisuse = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { maxLength: 40 }), ending, async (ops, end) => {
      const misuse = { count: 0 };
      const events = await collect(run(scripted(ops, end, misuse), runAgentInput("t", "r"), { ids: sequentialIds() }));
      await expectAccepted(events);
      for (const event of events) {
        const wire = JSON.parse(JSON.stringify(event));
        const decoded = decodeEvent(wire);
        expect(E.isRight(decoded) && decoded.right).toEqual(wire);
      }
      const terminals = events.filter((event) => event.type === "RUN_FINISHED" || event.type === "RUN_ERROR");
      expect(terminals).toHaveLength(1);
      expect(events[events.length - 1]).toBe(terminals[0]);
      expect(terminals[0].type).toBe(expectedTerminal(end));
      if (misuse.count > 0) runsWithMisuse++;
    }),
    fuzzParameters(300),
  );
  // the property covered misuse too, not only well-behaved agents
  expect(runsWithMisuse).toBeGreaterThan(0);
});
