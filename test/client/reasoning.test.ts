/**
 * Reasoning is bracketed like any other span (issue #14 A4, docs/rules.md#R22, AG-UI 1.1 reasoning): the
 * client's verifier reports a broken bracket in-band and goes on (report mode); the server's
 * emitters, which run the same verifier strictly, refuse it at the call site.
 */
import { ev } from "../../src/protocol/build";
import { ProtocolError } from "../../src/operators/ProtocolError";
import type { Agent } from "../../src/server/Agent";
import { Session } from "../../src/client/Session";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import { collect, counter, endOf, errorsOf, replaySession } from "./support";

const RS = ev.runStarted("thread-1", "run-1");
const RF = ev.runFinished("thread-1", "run-1");

describe("in the client: report mode", () => {
  test("a second REASONING_START while the span is open and an orphaned content are reported and skipped; the run ends as the agent says", async () => {
    const session = replaySession([
      RS,
      ev.reasoningStart("s1"),
      ev.reasoningStart("s1"),
      ev.reasoningMessageContent("ghost", "no referent"),
      ev.reasoningMessageStart("r1"),
      ev.reasoningMessageContent("r1", "thinking"),
      ev.reasoningMessageEnd("r1"),
      ev.reasoningEnd("s1"),
      RF,
    ]);
    const updates = await collect(session.send("go"));
    expect(errorsOf(updates).map((error) => [error.kind, error.code])).toEqual([
      ["protocol", "R22"],
      ["protocol", "R22"],
    ]);
    expect(errorsOf(updates)[1].message).toContain("no reasoning message ghost is open");
    expect(session.messages.map((message) => message.id)).toEqual(["id-1", "r1"]); // no message invented for "ghost"
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  test("a reasoning message opened outside a block of its owner is reported (R22) and not applied; the run goes on", async () => {
    const session = replaySession([
      RS,
      ev.reasoningMessageStart("r0"), // no block at all
      ev.reasoningMessageContent("r0", "lost"),
      ev.reasoningStart("b", { subagentRunId: "s1" }),
      ev.reasoningMessageStart("r1"), // the parent's message in a subagent's block
      ev.reasoningEnd("b", { subagentRunId: "s1" }),
      ev.reasoningStart("p"),
      ev.reasoningMessageStart("r2"),
      ev.reasoningMessageContent("r2", "kept"),
      ev.reasoningMessageEnd("r2"),
      ev.reasoningEnd("p"),
      RF,
    ]);
    const updates = await collect(session.send("go"));
    const errors = errorsOf(updates);
    expect(errors.map((error) => [error.kind, error.code])).toEqual([
      ["protocol", "R22"],
      ["protocol", "R22"],
      ["protocol", "R22"],
    ]);
    expect(errors[0].message).toContain("the parent agent has no open reasoning block");
    expect(errors[2].message).toContain(`open: b (subagent "s1")`);
    expect(session.messages.map((message) => message.id)).toEqual(["id-1", "r2"]);
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  test("REASONING_MESSAGE_CHUNK stays legal: the normalizer brackets the messages it makes, so nothing is reported", async () => {
    const session = replaySession([
      RS,
      ev.reasoningMessageChunk({ messageId: "c1", delta: "first" }),
      ev.reasoningMessageChunk({ delta: " thought" }),
      ev.reasoningMessageChunk({ messageId: "c2", subagentRunId: "s1", delta: "theirs" }),
      { type: "THINKING_START" },
      ev.reasoningMessageChunk({ messageId: "c3", delta: "in a step" }),
      { type: "THINKING_END" },
      RF,
    ]);
    const updates = await collect(session.send("go"));
    expect(errorsOf(updates)).toEqual([]);
    expect(session.messages.map((message) => [message.id, message.role === "reasoning" ? message.content : ""])).toEqual([
      ["id-1", ""],
      ["c1", "first thought"],
      ["c2", "theirs"],
      ["c3", "in a step"],
    ]);
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  test("reasoning left open at RUN_FINISHED blocks it, like any open span (the run then ends truncated)", async () => {
    const updates = await collect(replaySession([RS, ev.reasoningStart("s1"), ev.reasoningMessageStart("r1"), RF]).send("go"));
    const [violation] = errorsOf(updates);
    expect([violation.kind, violation.code]).toEqual(["protocol", "R7"]);
    expect(violation.message).toContain("reasoning messages are still open: r1");
  });
});

describe("in the server: strict, at the call site", () => {
  test("an agent that opens a reasoning message outside a block gets a ProtocolError (R22), nothing is sent; chunks and ctx.reasoning() need no block of the agent's", async () => {
    let thrown: unknown;
    const agent: Agent = {
      async run(ctx) {
        try {
          ctx.emit(ev.reasoningMessageStart("r0"));
        } catch (error) {
          thrown = error;
        }
        ctx.emit(ev.reasoningMessageChunk({ messageId: "c1", delta: "bracketed by the normalizer" }));
        ctx.reasoning({ id: "h1" }).delta("a block of its own").end();
        return { type: "success" };
      },
    };
    const session = new Session(inProcessTransport(agent), { threadId: "thread-1", newId: counter() });
    const updates = await collect(session.send("go"));
    expect(thrown).toMatchObject({ code: "reasoning", rule: "R22" });
    expect(errorsOf(updates)).toEqual([]);
    expect(session.messages.map((message) => message.id)).toEqual(["id-1", "c1", "h1"]);
    expect(endOf(updates)).toEqual({ kind: "success" });
  });

  test("an agent that opens the same reasoning span twice gets a ProtocolError (R22) and nothing is sent", async () => {
    let thrown: unknown;
    const agent: Agent = {
      async run(ctx) {
        ctx.emit(ev.reasoningStart("s1"));
        try {
          ctx.emit(ev.reasoningStart("s1"));
        } catch (error) {
          thrown = error;
        }
        ctx.emit(ev.reasoningEnd("s1"));
        return { type: "success" };
      },
    };
    const session = new Session(inProcessTransport(agent), { threadId: "thread-1", newId: counter() });
    const updates = await collect(session.send("go"));
    expect(thrown).toBeInstanceOf(ProtocolError);
    expect(thrown).toMatchObject({ code: "reasoning", rule: "R22" });
    expect(errorsOf(updates)).toEqual([]); // the refused event never reached the client
    expect(endOf(updates)).toEqual({ kind: "success" });
  });
});
