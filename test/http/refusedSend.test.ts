/**
 * A refused send over real loopback HTTP (issue #20 A5): a send while the thread's run is active
 * is answered 409 by createHandler (a store, `refuse`), sent once, and its message leaves the
 * Session; the next send's input, as the server received it, does not carry it.
 */
import { lastValueFrom, toArray } from "rxjs";
import { Session } from "../../src/client/Session";
import { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { RunAgentInput } from "../../src/protocol/input";
import { success, type Agent } from "../../src/server/Agent";
import { createHandler, type FetchHandler } from "../../src/server/http/createHandler";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { serve } from "../../src/node/serve";
import { counter, endOf, errorsOf } from "../client/support";
import { gate, until } from "./durable/support";

test("a send refused with 409 (a run is active) is sent once and leaves the Session as it was; the next send does not carry it", async () => {
  const first = gate();
  let calls = 0;
  const agent: Agent = {
    async run(ctx) {
      calls++;
      if (calls === 1) await first.opened;
      ctx.say(`answer ${calls}`);
      return success();
    },
  };
  const inner = createHandler(agent, { onRunError: () => undefined, store: memoryStore() });
  const posted: RunAgentInput[] = [];
  const handler: FetchHandler = async (request) => {
    if (request.method === "POST" && new URL(request.url).pathname === "/agent") posted.push((await request.clone().json()) as RunAgentInput); // test-only: the body the client sent, read as it arrived
    return inner(request);
  };
  const served = await serve(handler);
  try {
    const url = `${served.url}agent`;
    const runner = new Session(new HttpTransport(url), { threadId: "busy", newId: counter("a") });
    const running = lastValueFrom(runner.send("first").pipe(toArray()));
    await until(() => calls === 1, "the first run to start");

    const other = new Session(new HttpTransport(url), { threadId: "busy", newId: counter("b") });
    const refused = await lastValueFrom(other.send("second").pipe(toArray()));
    expect(errorsOf(refused).map((error) => [error.kind, error.status])).toEqual([["http", 409]]);
    expect(endOf(refused)).toMatchObject({ kind: "failed", unsent: { role: "user", content: "second" } });
    expect(other.messages).toEqual([]);
    expect(posted.map((input) => input.messages.map((message) => message.content))).toEqual([["first"], ["second"]]); // one POST for the refused send: a 409 is not sent again

    first.open();
    expect(endOf(await running)).toEqual({ kind: "success" });
    const next = await lastValueFrom(other.send("third").pipe(toArray()));
    expect(endOf(next)).toEqual({ kind: "success" });
    expect(posted[2].messages.map((message) => message.content)).toEqual(["third"]);
    expect(other.messages.map((message) => message.content)).not.toContain("second");
  } finally {
    await served.close();
  }
});
