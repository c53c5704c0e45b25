/**
 * `Session.ask` (docs/client.md#ask): the whole exchange as one promise, in process and over real
 * loopback HTTP. It resolves on every end once a run could start (client-tool follow-ups included,
 * failed, cancelled and interrupted too) and rejects only when nothing could start, with the
 * ClientError that says why.
 */
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import * as t from "io-ts";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import { clientTool } from "../../src/client/tools/clientTool";
import { ClientError } from "../../src/thread/ClientError";
import type { Update } from "../../src/thread/Update";
import { interrupted, type Agent } from "../../src/server/Agent";
import { inProcessTransport } from "../../src/server/inProcessTransport";
import { closeAll, gate, serveStored } from "../http/durable/support";
import { counter } from "./support";

afterEach(closeAll);

/** Asks for the user's clock once, then says what came back; "ask me" interrupts; "fail" throws. */
const clockAgent: Agent = {
  async run(ctx) {
    const text = ctx.lastUserText();
    if (text === "fail") throw new Error("the model is down");
    if (text === "ask me") return interrupted({ id: "i1", reason: "confirmation", message: "Sure?" });
    const [answer] = ctx.lastToolResults;
    if (answer === undefined) {
      ctx.toolCall("get_local_time").argsJson({}).end();
      return;
    }
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
    ctx.say(`It is ${String(answer.content)}.`);
  },
};
const clock = clientTool({ name: "get_local_time", description: "The user's clock", parameters: t.type({}), execute: () => "14:05" });

async function rejectionOf(promise: Promise<unknown>): Promise<ClientError> {
  const outcome: unknown = await promise.then(
    () => new Error("expected ask to reject"),
    (error: unknown) => error,
  );
  if (!ClientError.isInstance(outcome)) throw outcome;
  return outcome;
}

describe("in process", () => {
  test("one promise over the whole exchange: the client tool's follow-up run included, settled once at the done", async () => {
    const session = new Session(inProcessTransport(clockAgent), { threadId: "t", tools: [clock], newId: counter() });
    const heard: Update[] = [];
    const { end, messages } = await session.ask("what time is it?", { onUpdate: (update) => heard.push(update) });
    expect(end).toEqual({ kind: "success" });
    expect(messages).toBe(session.messages);
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(messages.at(-1)?.content).toBe("It is 14:05.");
    expect(heard.filter((update) => update.kind === "run")).toHaveLength(1);
    expect(heard.filter((update) => update.kind === "done")).toHaveLength(1);
    expect(heard[heard.length - 1]).toEqual({ kind: "done", end });
  });

  test("an interrupted run and a failed run resolve: the end says which", async () => {
    const session = new Session(inProcessTransport(clockAgent), { threadId: "t", newId: counter() });
    const asked = await session.ask("ask me");
    expect(asked.end).toMatchObject({ kind: "interrupted", interrupts: [{ id: "i1", reason: "confirmation" }] });
    expect(session.interrupts).toHaveLength(1);
    const other = new Session(inProcessTransport(clockAgent), { threadId: "t2", newId: counter() });
    const failed = await other.ask("fail");
    expect(failed.end).toMatchObject({ kind: "failed", message: expect.stringContaining("the model is down") });
    expect(failed.messages.map((message) => message.content)).toEqual(["fail"]);
  });

  test("nothing could start: a configuration error rejects with a config ClientError naming it", async () => {
    const session = new Session(inProcessTransport(clockAgent), { threadId: "t", newId: counter() });
    await session.ask("ask me"); // leaves an interrupt pending
    const uncovered = await rejectionOf(session.ask("and now?"));
    expect(uncovered).toMatchObject({ kind: "config", interruptIds: ["i1"] });
    const fresh = new Session(inProcessTransport(clockAgent), { threadId: "t3", newId: counter() });
    const badBound = await rejectionOf(fresh.ask("hi", { maxToolRoundtrips: -1 }));
    expect(badBound).toMatchObject({ kind: "config", message: expect.stringContaining("maxToolRoundtrips") });
  });

  test("an onUpdate that throws rejects with its error; an aborted signal rejects with code abort", async () => {
    const session = new Session(inProcessTransport(clockAgent), { threadId: "t", tools: [clock], newId: counter() });
    const boom = new Error("printer jammed");
    await expect(
      session.ask("what time is it?", {
        onUpdate: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect(session.running).toBe(false);
    const controller = new AbortController();
    controller.abort(new Error("too slow"));
    const given = await rejectionOf(session.ask("what time is it?", { signal: controller.signal }));
    expect(given).toMatchObject({ kind: "transport", code: "abort", message: expect.stringContaining("too slow") });
  });
});

describe("over loopback HTTP", () => {
  test("success, then a stopped run resolves cancelled", async () => {
    const started = gate();
    const parked: Agent = {
      async run(ctx) {
        if (ctx.lastUserText() !== "park") return void ctx.say("hello");
        ctx.say("parked");
        started.open();
        await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      },
    };
    const { url } = await serveStored(parked);
    const session = new Session(new HttpTransport(url), { threadId: "h1", newId: counter("h") });
    expect((await session.ask("hi")).end).toEqual({ kind: "success" });
    const asking = session.ask("park");
    await started.opened;
    expect(await session.stop()).toBe("stopping");
    const { end, messages } = await asking;
    expect(end).toEqual({ kind: "cancelled" });
    expect(messages.map((message) => message.content)).toEqual(["hi", "hello", "park", "parked"]);
  });

  test("a refusal before any run rejects with the http ClientError, and the message is taken back", async () => {
    const { url } = await serveStored(clockAgent, { authorize: () => false });
    const session = new Session(new HttpTransport(url), { threadId: "h2", newId: counter() });
    const refused = await rejectionOf(session.ask("hi"));
    expect(refused).toMatchObject({ kind: "http", status: 403, code: "forbidden" });
    expect(session.messages).toEqual([]);
  });

  test("a server that cannot be reached rejects with a transport ClientError (code refused): nothing started", async () => {
    // a port that was free a moment ago: nothing listens there now
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo; // listen(0, host) gives an AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const session = new Session(new HttpTransport(`http://127.0.0.1:${port}/agent`, { retry: false }), { threadId: "h3", newId: counter() });
    const refused = await rejectionOf(session.ask("hi"));
    expect(refused).toMatchObject({ kind: "transport", code: "refused" });
  });
});
