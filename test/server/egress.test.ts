/**
 * Issue #14 C5, strict egress (rule S10): what the server sends must reach a client as it is sent.
 * `checkEgress` is checked against the client's own decoder, and `ctx.emit` refuses with a
 * `ProtocolError` (nothing sent, the run goes on) whatever a client would refuse, strip or rewrite.
 */
import * as E from "fp-ts/Either";
import { ev, runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { ProtocolError } from "../../src/operators/ProtocolError";
import { decodeEvent } from "../../src/wire/decodeEvent";
import { checkEgress, createRunContext, run, type Agent, type RunContext } from "../../src/server";
import { ALL_EVENTS } from "../protocol/samples";
import { collect, expectAccepted } from "./support";

/** Test-only: values the `Event` type rules out, as plain JavaScript callers may pass them. */
const loose = (value: unknown): Event => value as Event;

function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = { name: "loop" };
  value.self = value;
  return value;
}

function nested(depth: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
}

describe("checkEgress agrees with the client's decoder", () => {
  test.each(ALL_EVENTS.map((event) => [event.type, event] as const))("a %s sample passes, and the decoder returns it unchanged", (_, event) => {
    expect(checkEgress(event, 512)).toBeUndefined();
    const decoded = decodeEvent(JSON.parse(JSON.stringify(event)));
    expect(E.isRight(decoded) && decoded.right).toEqual(JSON.parse(JSON.stringify(event)));
  });

  const refused: [string, unknown, string][] = [
    ["an unknown type", { type: "NOPE" }, 'got type "NOPE"'],
    ["a bare string", "hello", 'got "hello"'],
    ["null", null, "got null"],
    ["an array", [ev.textMessageEnd("m1")], "expected an event object"],
    ["a missing type", { messageId: "m1" }, 'a string "type"'],
    [
      "a STATE_DELTA with op frobnicate",
      { type: "STATE_DELTA", delta: [{ op: "frobnicate", path: "/a" }] },
      'a client strips part of it: STATE_DELTA: removed /delta/0: /delta/0/op holds unknown op "frobnicate"',
    ],
    ["a member of the wrong type", { type: "TEXT_MESSAGE_CONTENT", messageId: "m1", delta: 42 }, "at /delta: expected string, got 42"],
    [
      "a member the type does not declare",
      { ...ev.textMessageEnd("m1"), extra: 1 },
      'a client strips part of it: TEXT_MESSAGE_END: removed unknown property /extra (TEXT_MESSAGE_END has no member "extra")',
    ],
    [
      "an undeclared member inside a snapshot's message",
      ev.messagesSnapshot([{ id: "u1", role: "user", content: "hi", mood: "happy" } as never]),
      'removed unknown property /messages/0/mood (UserMessage has no member "mood")',
    ],
    ["a null for an absent member", { ...ev.textMessageContent("m1", "x"), timestamp: null }, "would rewrite /timestamp (null becomes nothing"],
    [
      "a missing member the decoder fills in",
      { type: "TEXT_MESSAGE_START", messageId: "m1" },
      'would rewrite /role (nothing (the member is missing) becomes "assistant")',
    ],
    ["an unknown role", { type: "TEXT_MESSAGE_START", messageId: "m1", role: "robot" }, 'removed /role: unknown value "robot"'],
    ["an outcome of an unknown type", ev.runFinished("t", "r", { outcome: { type: "paused" } as never }), 'unknown type "paused"'],
    ["a BigInt in a CUSTOM value", ev.custom("n", { count: 10n }), "/value/count is a BigInt"],
    ["a BigInt in metadata", ev.custom("n", 1, { metadata: { big: 1n } }), "/metadata/big is a BigInt"],
    ["a circular CUSTOM value", ev.custom("loop", circular()), "(or is circular)"],
    ["a state nested past the limit", ev.stateSnapshot(nested(600)), "nests deeper than the limit of 512 levels"],
    [
      "a member whose getter throws",
      Object.defineProperty({ type: "CUSTOM", name: "g" }, "value", {
        enumerable: true,
        get: () => {
          throw new Error("no value");
        },
      }),
      "reading it threw",
    ],
  ];
  test.each(refused)("refuses %s, naming what is wrong", (_, event, fragment) => {
    const error = checkEgress(event, 512);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: "field-sanity", rule: "S10" });
    expect(error?.message).toContain(fragment);
  });

  test("metadata is the extension point: any JSON members pass through", () => {
    expect(checkEgress(ev.textMessageEnd("m1", { metadata: { vendor: { anything: [1, { deep: true }] } } }), 512)).toBeUndefined();
  });

  test("an undeclared member whose value is undefined is left out by JSON, so it is no problem", () => {
    expect(checkEgress({ ...ev.textMessageEnd("m1"), extra: undefined }, 512)).toBeUndefined();
  });

  test("the depth limit is the caller's", () => {
    expect(checkEgress(ev.custom("n", nested(6)), 8)).toBeUndefined();
    expect(checkEgress(ev.custom("n", nested(8)), 8)?.message).toContain("limit of 8 levels");
  });
});

describe("ctx.emit refuses what a client would not receive as sent", () => {
  /** Runs an agent that tries `attempt`, records what it threw, then says "after" and succeeds. */
  async function attempt(write: (ctx: RunContext) => void, options: { maxJsonDepth?: number } = {}) {
    let thrown: unknown;
    const agent: Agent = {
      async run(ctx) {
        try {
          write(ctx);
        } catch (error) {
          thrown = error;
        }
        ctx.say("after");
      },
    };
    const events = await collect(run(agent, runAgentInput("t", "r"), options));
    return { thrown, events };
  }

  test.each([
    ["{ type: NOPE }", (ctx: RunContext) => ctx.emit(loose({ type: "NOPE" }))],
    ["a bare string", (ctx: RunContext) => ctx.emit(loose("hello"))],
    ["a STATE_DELTA with op frobnicate", (ctx: RunContext) => ctx.emit(loose({ type: "STATE_DELTA", delta: [{ op: "frobnicate", path: "/a" }] }))],
    ["an undeclared member", (ctx: RunContext) => ctx.emit(loose({ ...ev.custom("n", 1), extra: true }))],
    ["a BigInt", (ctx: RunContext) => ctx.emit(ev.custom("n", 1n))],
    ["a value too deep for the run's limit", (ctx: RunContext) => ctx.emit(ev.custom("n", nested(20)))],
    ["a state with a BigInt", (ctx: RunContext) => ctx.setState({ n: 1n })],
    ["a circular state", (ctx: RunContext) => ctx.setState(circular())],
    ["an activity snapshot with a BigInt", (ctx: RunContext) => ctx.activity("plan").snapshot({ n: 1n })],
    ["a subagent result that is circular", (ctx: RunContext) => ctx.subagent("worker").finish(circular())],
  ])("%s: a ProtocolError at the call site, nothing sent, and the run goes on", async (_, write) => {
    const { thrown, events } = await attempt(write, { maxJsonDepth: 16 });
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: "field-sanity", rule: "S10" });
    const types = events.map((event) => event.type);
    // a refused subagent finish leaves the subagent open, and the driver finishes it
    expect(types.filter((type) => !type.startsWith("SUBAGENT_"))).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    await expectAccepted(events);
  });

  test("createRunContext applies the same check", () => {
    const { ctx, events } = createRunContext(undefined, runAgentInput("t", "r"));
    expect(() => ctx.emit(loose({ type: "NOPE" }))).toThrow(ProtocolError);
    expect(events).toEqual([]);
  });

  test("RUN_STARTED declares protocolVersion 1.0, and the stream passes EventSchemas and the official verifier", async () => {
    const events = await collect(
      run(
        {
          async run(ctx) {
            ctx.say("hi");
          },
        },
        runAgentInput("t", "r"),
      ),
    );
    expect(events[0]).toEqual({ type: "RUN_STARTED", threadId: "t", runId: "r", protocolVersion: "1.0" });
    await expectAccepted(events);
  });
});
