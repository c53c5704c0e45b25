/** ReplayTransport, decodeEvents and InProcessTransport on their own. */
import { firstValueFrom, from, toArray } from "rxjs";
import { ev, runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import { success, type Agent } from "../../../src/server/Agent";
import { sequentialIds } from "../../../src/server/ids";
import { inProcessTransport } from "../../../src/server/inProcessTransport";
import { run } from "../../../src/server/run";
import { decodeEvents } from "../../../src/client/transports/decodeEvents";
import { InProcessTransport } from "../../../src/client/transports/InProcessTransport";
import { ReplayTransport } from "../../../src/client/transports/ReplayTransport";
import { sse } from "../support";

const events: Event[] = [ev.runStarted("t", "r"), ev.textMessageStart("m"), ev.textMessageContent("m", "é✓"), ev.textMessageEnd("m"), ev.runFinished("t", "r")];
const input = runAgentInput("t", "r");

describe("ReplayTransport", () => {
  it("replays events, or an SSE body, for every run", async () => {
    const fromEvents = new ReplayTransport(events);
    expect(await firstValueFrom(fromEvents.run(input).pipe(toArray()))).toEqual(events);
    expect(await firstValueFrom(fromEvents.run(input).pipe(toArray()))).toEqual(events);
    expect(await firstValueFrom(new ReplayTransport(sse(events)).run(input).pipe(toArray()))).toEqual(events);
  });
});

describe("decodeEvents", () => {
  it("decodes bytes split anywhere, inside a character too", async () => {
    const bytes = new TextEncoder().encode(sse(events));
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) chunks.push(bytes.subarray(i, i + 3));
    expect(await firstValueFrom(decodeEvents(from(chunks)).pipe(toArray()))).toEqual(events);
  });

  it("errors with a message naming an unknown type, after the events before it", async () => {
    const seen: Event[] = [];
    const error = await new Promise<unknown>((resolve) =>
      decodeEvents(from([sse(events.slice(0, 2)), 'data: {"type":"TELEPATHY_START"}\n\n'])).subscribe({ next: (e) => seen.push(e), error: resolve }),
    );
    expect(seen).toEqual(events.slice(0, 2));
    expect(String(error)).toContain("TELEPATHY_START");
  });
});

describe("InProcessTransport", () => {
  it("runs the agent with the server driver", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.say(`hello ${ctx.threadId}`);
        return success();
      },
    };
    const received = await firstValueFrom(new InProcessTransport((given) => run(agent, given, { ids: sequentialIds() })).run(input).pipe(toArray()));
    expect(received.map((event) => event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
  });

  it("inProcessTransport(agent, options) from the server runs the agent with those options, for every input", async () => {
    const agent: Agent = {
      async run(ctx) {
        ctx.say(`hello ${ctx.threadId}`);
        return success();
      },
    };
    const transport = inProcessTransport(agent, { ids: sequentialIds("m") });
    const opened: unknown[] = [];
    for (const threadId of ["t1", "t2"]) {
      const received = await firstValueFrom(transport.run(runAgentInput(threadId, "r1")).pipe(toArray()));
      opened.push(received.find((event) => event.type === "TEXT_MESSAGE_START"));
      expect(received.find((event) => event.type === "TEXT_MESSAGE_CONTENT")).toMatchObject({ delta: `hello ${threadId}` });
    }
    // One id source for every run: the options are the factory's, not one run's.
    expect(opened).toEqual([expect.objectContaining({ messageId: "m-1" }), expect.objectContaining({ messageId: "m-2" })]);
  });

  it("refuses an agent, the argument it took before the client stopped importing the server, naming the fix", () => {
    const agent: Agent = { run: async () => success() };
    // @ts-expect-error: the old call does not compile any more; JavaScript callers get the TypeError.
    expect(() => new InProcessTransport(agent)).toThrow(
      new TypeError(
        "InProcessTransport: expected a run function (input) => Observable<Event>, but got an object with a run method (an Agent?): use inProcessTransport(agent) from agui-rx/server, or new InProcessTransport((input) => run(agent, input))",
      ),
    );
    // @ts-expect-error: not a function
    expect(() => new InProcessTransport(undefined)).toThrow("expected a run function (input) => Observable<Event>, but got undefined");
    // @ts-expect-error: not a function
    expect(() => new InProcessTransport(null)).toThrow("expected a run function (input) => Observable<Event>, but got null");
  });
});
