/** Steered messages on the agent side (docs/queue.md#steer): ctx.incoming$, ctx.offers$, recorded when taken, never after the terminal. */
import { firstValueFrom, Observable, Subject, toArray, lastValueFrom } from "rxjs";
import { runAgentInput } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import type { UserMessage } from "../../src/protocol/messages";
import { createRunContext, run, sequentialIds, steerText, type Agent, type IncomingOffer } from "../../src/server";
import { expectAccepted } from "./support";

const input = runAgentInput("t", "r");
const user = (id: string, content: UserMessage["content"] = `text of ${id}`): UserMessage => ({ id, role: "user", content });
const recorded = (id: string, text: string = `text of ${id}`): Event[] => [
  { type: "TEXT_MESSAGE_START", messageId: id, role: "user" },
  { type: "TEXT_MESSAGE_CONTENT", messageId: id, delta: text },
  { type: "TEXT_MESSAGE_END", messageId: id },
];
const harness = (incoming: Observable<UserMessage> | undefined) => createRunContext(undefined, input, { ids: sequentialIds(), incoming });

describe("ctx.incoming$", () => {
  test("a message is recorded at the moment it is handed over, not when it arrives", () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    source.next(user("u1"));
    expect(events).toEqual([]); // arrived, not taken: nothing recorded
    const seenAtDelivery: Event[][] = [];
    ctx.incoming$.subscribe((message) => {
      expect(message).toEqual(user("u1"));
      seenAtDelivery.push([...events]);
    });
    expect(seenAtDelivery).toEqual([recorded("u1")]);
    expect(events).toEqual(recorded("u1"));
  });

  test("messages that arrived before the agent subscribed wait for it and come first, in order", () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    source.next(user("u1"));
    source.next(user("u2"));
    const received: string[] = [];
    ctx.incoming$.subscribe((message) => received.push(message.id));
    source.next(user("u3"));
    expect(received).toEqual(["u1", "u2", "u3"]);
    expect(events).toEqual([...recorded("u1"), ...recorded("u2"), ...recorded("u3")]);
  });

  test("two subscribers both receive each message, which is recorded once", () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    const first: string[] = [];
    const second: string[] = [];
    ctx.incoming$.subscribe((message) => first.push(message.id));
    ctx.incoming$.subscribe((message) => second.push(message.id));
    source.next(user("u1"));
    source.next(user("u2"));
    expect(first).toEqual(["u1", "u2"]);
    expect(second).toEqual(["u1", "u2"]);
    expect(events).toEqual([...recorded("u1"), ...recorded("u2")]);
  });

  test("a message withdrawn (cancelled) before it is taken is dropped: never offered, never recorded, not received again; one taken stays taken", () => {
    const source = new Subject<UserMessage>();
    const withdrawn = new Subject<string>();
    const { ctx, events } = createRunContext(undefined, input, { ids: sequentialIds(), incoming: source, withdrawn });
    source.next(user("u1"));
    source.next(user("u2"));
    withdrawn.next("u1"); // cancelled while it waited for the agent
    withdrawn.next("u3"); // cancelled before it even arrived
    source.next(user("u3"));
    const offered: IncomingOffer[] = [];
    ctx.offers$.subscribe((offer) => offered.push(offer));
    expect(offered.map((offer) => offer.message.id)).toEqual(["u2"]);
    source.next(user("u4"));
    withdrawn.next("u4"); // offered, not taken yet
    expect(offered.map((offer) => offer.message.id)).toEqual(["u2", "u4"]);
    expect(offered[1].take()).toBe(false); // withdrawn
    expect(offered[0].take()).toBe(true);
    withdrawn.next("u2"); // too late: taken
    const received: string[] = [];
    ctx.incoming$.subscribe((message) => received.push(message.id));
    expect(received).toEqual([]);
    expect(events).toEqual(recorded("u2"));
  });

  test("a late subscriber does not receive what an earlier one took", () => {
    const source = new Subject<UserMessage>();
    const { ctx } = harness(source);
    const early = ctx.incoming$.subscribe();
    source.next(user("u1"));
    early.unsubscribe();
    const late: string[] = [];
    ctx.incoming$.subscribe((message) => late.push(message.id));
    source.next(user("u2"));
    expect(late).toEqual(["u2"]);
  });

  test("text parts are joined; an empty text records START and END only; content that is not text only is skipped; a repeated id is skipped", () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    const received: string[] = [];
    ctx.incoming$.subscribe((message) => received.push(message.id));
    source.next(
      user("parts", [
        { type: "text", text: "in " },
        { type: "text", text: "French" },
      ]),
    );
    source.next(user("empty", ""));
    source.next(user("image", [{ type: "image", source: { type: "url", value: "https://example.com/a.png" } }]));
    source.next(user("parts", "again"));
    expect(received).toEqual(["parts", "empty"]);
    expect(events).toEqual([
      ...recorded("parts", "in French"),
      { type: "TEXT_MESSAGE_START", messageId: "empty", role: "user" },
      { type: "TEXT_MESSAGE_END", messageId: "empty" },
    ]);
  });

  test("completes at once without a source, and when the source completes after what it sent was taken", async () => {
    expect(await lastValueFrom(harness(undefined).ctx.incoming$.pipe(toArray()))).toEqual([]);
    const source = new Subject<UserMessage>();
    const { ctx } = harness(source);
    source.next(user("u1"));
    source.complete();
    expect((await lastValueFrom(ctx.incoming$.pipe(toArray()))).map((message) => message.id)).toEqual(["u1"]);
  });

  test("a subagent's context completes at once and takes nothing", async () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    source.next(user("u1"));
    const sub = ctx.subagent("helper");
    expect(await lastValueFrom(sub.incoming$.pipe(toArray()))).toEqual([]);
    expect(await lastValueFrom(sub.offers$.pipe(toArray()))).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(["SUBAGENT_STARTED"]);
    expect((await firstValueFrom(ctx.incoming$)).id).toBe("u1"); // still there for the run's own agent
  });

  test("aborting ends taking: the held offer refuses and subscribers complete", () => {
    const source = new Subject<UserMessage>();
    const context = harness(source);
    const { ctx, events } = context;
    let offer: IncomingOffer | undefined;
    let completed = false;
    ctx.offers$.subscribe({ next: (next) => (offer = next), complete: () => (completed = true) });
    source.next(user("u1"));
    context.abort();
    expect(completed).toBe(true);
    expect(offer?.take()).toBe(false);
    expect(source.observed).toBe(false); // the source was let go
    expect(events).toEqual([]);
  });
});

describe("ctx.offers$", () => {
  test("take() records where the run is now and returns true the first time, false afterwards", () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    const offers: IncomingOffer[] = [];
    ctx.offers$.subscribe((offer) => offers.push(offer));
    source.next(user("u1"));
    expect(events).toEqual([]); // offered, not taken
    ctx.say("first");
    expect(offers[0]?.take()).toBe(true);
    expect(offers[0]?.take()).toBe(false);
    expect(events.slice(3)).toEqual(recorded("u1"));
    expect(events).toHaveLength(6);
  });

  test("each subscriber is offered each message once; one taken is not offered to a later subscriber", () => {
    const source = new Subject<UserMessage>();
    const { ctx } = harness(source);
    const a: IncomingOffer[] = [];
    const b: IncomingOffer[] = [];
    ctx.offers$.subscribe((offer) => a.push(offer));
    ctx.offers$.subscribe((offer) => b.push(offer));
    source.next(user("u1"));
    source.next(user("u2"));
    expect(a.map((offer) => offer.message.id)).toEqual(["u1", "u2"]);
    expect(b.map((offer) => offer.message.id)).toEqual(["u1", "u2"]);
    expect(b[0]?.take()).toBe(true);
    expect(a[0]?.take()).toBe(false); // the same message: already taken
    const late: string[] = [];
    ctx.offers$.subscribe((offer) => late.push(offer.message.id));
    expect(late).toEqual(["u2"]);
  });

  test("a take the verifier refuses where the run is now (the id of an open message) records nothing and can succeed later", () => {
    const source = new Subject<UserMessage>();
    const { ctx, events } = harness(source);
    let offer: IncomingOffer | undefined;
    ctx.offers$.subscribe((next) => (offer = next));
    const open = ctx.assistantMessage({ id: "same" });
    source.next(user("same"));
    expect(offer?.take()).toBe(false);
    expect(events).toHaveLength(1);
    open.end();
    expect(offer?.take()).toBe(true);
    expect(events.slice(2)).toEqual(recorded("same"));
  });

  test("taking through offers$ hands the message to incoming$ subscribers too", () => {
    const source = new Subject<UserMessage>();
    const { ctx } = harness(source);
    const handed: string[] = [];
    let offer: IncomingOffer | undefined;
    ctx.offers$.subscribe((next) => (offer = next));
    source.next(user("u1"));
    // Subscribed after the offer was made to the first subscriber: it takes it itself at once.
    ctx.incoming$.subscribe((message) => handed.push(message.id));
    expect(handed).toEqual(["u1"]);
    expect(offer?.take()).toBe(false);
  });
});

describe("in a run", () => {
  test("a steer taken while the agent streams an assistant message: both verifiers accept the log", async () => {
    const source = new Subject<UserMessage>();
    const agent: Agent = {
      async run(ctx) {
        const message = ctx.assistantMessage({ id: "a1" });
        message.delta("Writing a long ");
        const steer = firstValueFrom(ctx.incoming$);
        source.next(user("u1", "shorter please"));
        const taken = await steer;
        message.delta("answer.");
        message.end();
        ctx.say(`Noted: ${steerText(taken) ?? ""}`, { id: "a2" });
      },
    };
    const events = await lastValueFrom(run(agent, input, { incoming: source }).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual([
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    expect(events.slice(3, 6)).toEqual(recorded("u1", "shorter please"));
    expect(events[9]).toEqual({ type: "TEXT_MESSAGE_CONTENT", messageId: "a2", delta: "Noted: shorter please" });
    await expectAccepted(events);
  });

  test("a steer inside an open tool call and an open reasoning message: both verifiers accept the log", async () => {
    const source = new Subject<UserMessage>();
    const agent: Agent = {
      async run(ctx) {
        const thinking = ctx.reasoning({ id: "g1" });
        const call = ctx.toolCall("search", { id: "c1" });
        call.args('{"q":');
        source.next(user("u1"));
        await firstValueFrom(ctx.incoming$);
        call.args('"x"}');
        call.end();
        thinking.end();
      },
    };
    const events = await lastValueFrom(run(agent, input, { incoming: source }).pipe(toArray()));
    expect(events.filter((event) => "messageId" in event && event.messageId === "u1")).toEqual(recorded("u1"));
    await expectAccepted(events);
  });

  test("after the terminal nothing is taken: a held offer refuses, a late arrival is not recorded, incoming$ completed", async () => {
    const source = new Subject<UserMessage>();
    let held: IncomingOffer | undefined;
    let completed = false;
    const agent: Agent = {
      async run(ctx) {
        ctx.offers$.subscribe({ next: (offer) => (held = offer), complete: () => (completed = true) });
        source.next(user("u1"));
        ctx.incoming$.subscribe(); // a lingering subscription: it takes u1 now, and nothing after the end
      },
    };
    const events = await lastValueFrom(run(agent, input, { incoming: source }).pipe(toArray()));
    expect(completed).toBe(true);
    expect(source.observed).toBe(false);
    source.next(user("u2"));
    expect(held?.take()).toBe(false);
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
    await expectAccepted(events);
  });

  test("an agent that never subscribes takes nothing", async () => {
    const source = new Subject<UserMessage>();
    const agent: Agent = {
      async run(ctx) {
        source.next(user("u1"));
        ctx.say("done");
      },
    };
    const events = await lastValueFrom(run(agent, input, { incoming: source }).pipe(toArray()));
    expect(events.some((event) => "messageId" in event && event.messageId === "u1")).toBe(false);
  });

  test("a stop ends taking before RUN_FINISHED cancelled", async () => {
    const source = new Subject<UserMessage>();
    const stop = new AbortController();
    let held: IncomingOffer | undefined;
    const agent: Agent = {
      run: (ctx) =>
        new Promise<void>(() => {
          ctx.offers$.subscribe((offer) => (held = offer));
          source.next(user("u1"));
          queueMicrotask(() => stop.abort());
        }),
    };
    const events = await lastValueFrom(run(agent, input, { incoming: source, stop: stop.signal }).pipe(toArray()));
    expect(held?.take()).toBe(false);
    expect(events.map((event) => event.type)).toEqual(["RUN_STARTED", "RUN_FINISHED"]);
  });

  test("the source is subscribed when the agent is called, so a hot source's early messages wait for the agent", async () => {
    const source = new Subject<UserMessage>();
    let subscribedBeforeAgent = false;
    const agent: Agent = {
      async run(ctx) {
        subscribedBeforeAgent = source.observed;
        source.next(user("u1"));
        await Promise.resolve();
        expect((await firstValueFrom(ctx.incoming$)).id).toBe("u1");
      },
    };
    const events = await lastValueFrom(run(agent, input, { incoming: source }).pipe(toArray()));
    expect(subscribedBeforeAgent).toBe(true);
    expect(events.at(-1)?.type).toBe("RUN_FINISHED");
    await expectAccepted(events);
  });
});
