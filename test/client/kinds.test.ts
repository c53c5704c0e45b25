/** Every Update kind and every ClientError kind, each produced by a real run. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import * as t from "io-ts";
import { throwError } from "rxjs";
import { ev } from "../../src/protocol/build";
import { stateSpec } from "../../src/protocol/stateSpec";
import type { ClientErrorKind } from "../../src/thread/ClientError";
import { Session } from "../../src/client/Session";
import { clientTool } from "../../src/client/tools/clientTool";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import type { Update } from "../../src/thread/Update";
import { collect, errorsOf, replaySession, sse } from "./support";

const T = "thread-1";

describe("Update kinds", () => {
  it("a run produces message, messages, state, reasoning, interrupt, subagent, error and done", async () => {
    const session = replaySession([
      ev.runStarted(T, "r"),
      ev.textMessageStart("m"),
      ev.messagesSnapshot([{ id: "m", role: "assistant", content: "" }]),
      ev.stateSnapshot({ a: 1 }),
      ev.reasoningStart("rs"), // a reasoning message opens inside a block (R22)
      ev.reasoningMessageStart("rs"),
      ev.subagentStarted("s", "helper"),
      ev.subagentFinished("s"),
      ev.stateDelta([{ op: "remove", path: "/nope" }]),
      ev.textMessageEnd("m"),
      ev.reasoningMessageEnd("rs"),
      ev.reasoningEnd("rs"),
      ev.runFinished(T, "r", { outcome: { type: "interrupt", interrupts: [{ id: "i", reason: "confirmation" }] } }),
    ]);
    const updates = await collect(session.send("go"));
    const all: Update["kind"][] = ["message", "messages", "state", "reasoning", "interrupt", "subagent", "error", "done"];
    expect(new Set(updates.map((update) => update.kind))).toEqual(new Set(all));
  });

  it("an exchange with a client tool call adds run, between its two runs", async () => {
    const events = [ev.runStarted(T, "r"), ev.toolCallStart("c1", "echo"), ev.toolCallArgs("c1", "{}"), ev.toolCallEnd("c1"), ev.runFinished(T, "r")];
    let runs = 0;
    const session = new Session(
      { run: (input) => new ReplayTransport(runs++ === 0 ? events : [ev.runStarted(T, input.runId), ev.runFinished(T, input.runId)]).run(input) },
      { threadId: T, tools: [clientTool({ name: "echo", description: "echoes", execute: () => "hi" })] },
    );
    const updates = await collect(session.send("go"));
    expect(updates.map((update) => update.kind).filter((kind) => kind === "run" || kind === "done")).toEqual(["run", "done"]);
  });
});

describe("ClientError kinds", () => {
  async function firstErrorKind(session: Session<unknown>, send = "go"): Promise<ClientErrorKind> {
    const errors = errorsOf(await collect(session.send(send)));
    expect(errors.length).toBeGreaterThan(0);
    return errors[0].kind;
  }

  it("protocol, patch, state, run, json, decode, transport, config, http, tool", async () => {
    const seen = new Set<ClientErrorKind>();
    seen.add(await firstErrorKind(replaySession([ev.runStarted(T, "r"), ev.textMessageEnd("ghost"), ev.runFinished(T, "r")])));
    seen.add(await firstErrorKind(replaySession([ev.runStarted(T, "r"), ev.stateDelta([{ op: "remove", path: "/x" }]), ev.runFinished(T, "r")])));
    seen.add(
      await firstErrorKind(
        replaySession([ev.runStarted(T, "r"), ev.stateSnapshot({ n: "x" }), ev.runFinished(T, "r")], { state: stateSpec(t.type({ n: t.number }), { n: 0 }) }),
      ),
    );
    seen.add(await firstErrorKind(replaySession([ev.runStarted(T, "r"), ev.runError("boom")])));
    seen.add(await firstErrorKind(replaySession(sse([ev.runStarted(T, "r")]) + "data: nope\n\n")));
    seen.add(await firstErrorKind(replaySession(sse([ev.runStarted(T, "r")]) + 'data: {"type":"NOPE"}\n\n')));
    seen.add(await firstErrorKind(new Session({ run: () => throwError(() => new Error("reset")) }, { threadId: T })));
    const interrupted = replaySession([
      ev.runStarted(T, "r"),
      ev.runFinished(T, "r", { outcome: { type: "interrupt", interrupts: [{ id: "i", reason: "x" }] } }),
    ]);
    await collect(interrupted.send("go"));
    seen.add(await firstErrorKind(interrupted));

    const server = createServer((_req, res) => {
      res.writeHead(401);
      res.end("who are you");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo; // listen(0, host) gives an AddressInfo
      seen.add(await firstErrorKind(new Session(new HttpTransport(`http://127.0.0.1:${port}/`), { threadId: T })));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    // tool: a replayed run that always leaves a call to a client tool, past a bound of 0 follow-up runs
    const calling = replaySession(
      [ev.runStarted(T, "r"), ev.toolCallStart("c1", "echo"), ev.toolCallArgs("c1", "{}"), ev.toolCallEnd("c1"), ev.runFinished(T, "r")],
      { tools: [clientTool({ name: "echo", description: "echoes", execute: () => "hi" })], maxToolRoundtrips: 0 },
    );
    seen.add(await firstErrorKind(calling));
    const all: ClientErrorKind[] = ["protocol", "patch", "state", "run", "json", "decode", "http", "transport", "config", "tool"];
    expect(seen).toEqual(new Set(all));
  });
});
