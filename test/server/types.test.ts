/** Type-level checks of the server API (checked by `tsc` in test/types/typecheck.test.ts); the runtime asserts are trivial. */
import * as t from "io-ts";
import { stateSpec } from "../../src/protocol/stateSpec";
import { interrupt, interrupted, success, type Agent, type RunOutcome } from "../../src/server";

const Counter = t.type({ clicks: t.number });

test("the agent's state type flows from its spec into the context", () => {
  const agent: Agent<t.TypeOf<typeof Counter>> = {
    state: stateSpec(Counter, { clicks: 0 }),
    async run(ctx) {
      const clicks: number = ctx.state.clicks;
      ctx.stateMut.clicks = clicks + 1;
      // @ts-expect-error clicks is a number
      ctx.stateMut.clicks = "three";
      // @ts-expect-error setState takes the whole typed state
      ctx.setState({ click: 1 });
      return success();
    },
  };
  expect(agent.state?.defaultValue).toEqual({ clicks: 0 });
});

test("a spec of another type does not fit", () => {
  const Other = t.type({ name: t.string });
  const agent: Agent<t.TypeOf<typeof Counter>> = {
    // @ts-expect-error the spec decodes { name } but the agent's state is { clicks }
    state: stateSpec(Other, { name: "" }),
    run: async () => success(),
  };
  expect(agent).toBeDefined();
});

test("outcomes are the wire's: success or interrupt with at least one interrupt", () => {
  const ok: RunOutcome = { type: "success", result: 1 };
  const paused: RunOutcome = interrupted(interrupt({ reason: "confirmation" }));
  // @ts-expect-error there is no "error" outcome: throw instead
  const failed: RunOutcome = { type: "error", message: "x" };
  // @ts-expect-error an interrupt outcome needs at least one interrupt
  const empty: RunOutcome = { type: "interrupt", interrupts: [] };
  // @ts-expect-error interrupted() needs at least one interrupt
  interrupted();
  expect([ok.type, paused.type, failed, empty]).toHaveLength(4);
});
