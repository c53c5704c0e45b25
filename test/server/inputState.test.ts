/**
 * Issue #14 C2 (run part): an `input.state` nested past the depth limit, circular, or impossible to
 * copy ends the run with RUN_STARTED then RUN_ERROR SERIALIZATION naming the path and the limit,
 * where the Observable used to error with a RangeError and no event at all.
 */
import * as t from "io-ts";
import { runAgentInput } from "../../src/protocol/build";
import { stateSpec } from "../../src/protocol/stateSpec";
import { AgentError, createRunContext, run, type Agent } from "../../src/server";
import { decodeState } from "../../src/server/decodeState";
import { collect, expectAccepted } from "./support";

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

function spy(): { agent: Agent; calls: number } {
  const probe = {
    calls: 0,
    agent: {
      async run() {
        probe.calls++;
      },
    } as Agent,
  };
  return probe;
}

const withState = (state: unknown) => ({ ...runAgentInput("t", "r"), state });

describe("a state the run cannot take", () => {
  test("100,000 levels deep: RUN_STARTED, then RUN_ERROR SERIALIZATION naming the path and the limit; the agent is not called", async () => {
    const probe = spy();
    const events = await collect(run(probe.agent, withState({ v: nested(100_000) })));
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(events[1]).toMatchObject({ code: "SERIALIZATION", message: expect.stringContaining("deeper than the limit of 512 levels") });
    expect(events[1].type === "RUN_ERROR" && events[1].message).toContain("at state.v.0.0.0");
    expect(probe.calls).toBe(0);
    await expectAccepted(events);
  });

  test("the same with a typed state spec", async () => {
    const agent: Agent<unknown> = { state: stateSpec(t.unknown, {}), run: async () => undefined };
    const events = await collect(run(agent, withState(nested(600))));
    expect(events[1]).toMatchObject({ type: "RUN_ERROR", code: "SERIALIZATION" });
  });

  test("maxJsonDepth sets the limit: a state at it runs, one level more does not", async () => {
    const at = await collect(run(spy().agent, withState({ a: { b: { c: {} } } }), { maxJsonDepth: 4 }));
    expect(at.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
    const over = await collect(run(spy().agent, withState({ a: { b: { c: { d: {} } } } }), { maxJsonDepth: 4 }));
    expect(over[1]).toMatchObject({ type: "RUN_ERROR", code: "SERIALIZATION", message: expect.stringContaining("limit of 4 levels") });
    expect(over[1].type === "RUN_ERROR" && over[1].message).toContain("at state.a.b.c.d");
  });

  test("circular (an in-process caller's value): refused the same way", async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const events = await collect(run(spy().agent, withState(cycle)));
    expect(events[1]).toMatchObject({ type: "RUN_ERROR", code: "SERIALIZATION", message: expect.stringContaining("(or is circular)") });
  });

  test("one that decodes but cannot be copied (a function): RUN_ERROR SERIALIZATION, not an Observable error", async () => {
    const events = await collect(run(spy().agent, withState({ callback: () => 1 })));
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_ERROR"]);
    expect(events[1]).toMatchObject({ code: "SERIALIZATION", message: expect.stringContaining("state could not be copied") });
  });

  test("one whose getter throws while the codec reads it: RUN_ERROR SERIALIZATION", async () => {
    const hostile = Object.defineProperty({}, "clicks", {
      enumerable: true,
      get: () => {
        throw new Error("no clicks");
      },
    });
    const agent: Agent<{ clicks: number }> = { state: stateSpec(t.type({ clicks: t.number }), { clicks: 0 }), run: async () => undefined };
    const events = await collect(run(agent, withState(hostile)));
    expect(events[1]).toMatchObject({ type: "RUN_ERROR", code: "SERIALIZATION", message: expect.stringContaining("no clicks") });
  });

  test("decodeState and createRunContext refuse it with an AgentError instead of overflowing", () => {
    const decoded = decodeState(undefined, nested(100_000));
    expect(decoded._tag === "Left" && decoded.left).toBeInstanceOf(AgentError);
    expect(() => createRunContext(undefined, withState(nested(100_000)))).toThrow(/deeper than the limit of 512 levels/);
  });
});
