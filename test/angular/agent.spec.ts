// agui-rx/angular under Angular's own TestBed (real Angular 17, the oldest supported; no mocks):
// the provider and its DestroyRef cleanup, the signals through a run, interrupts, client tools, stop,
// and a component that renders them. The library is the packed tarball installed in node_modules.
import { ChangeDetectionStrategy, Component, InjectionToken, computed, inject, VERSION } from "@angular/core";
import { TestBed } from "@angular/core/testing";
import * as t from "io-ts";
import { ev, stateSpec } from "agui-rx";
import { clientTool, Session, waitForResponse } from "agui-rx/client";
import { AGENT_SESSION, injectAgent, injectSession, provideAgent } from "agui-rx/angular";
import { FeedTransport } from "./support/FeedTransport";

const Board = t.type({ tasks: t.array(t.string) });
type Board = t.TypeOf<typeof Board>;
const BOARD = new InjectionToken<Session<Board>>("board");

const confirmDelete = clientTool({
  name: "confirm_delete",
  description: "Asks the user to confirm deleting a task",
  parameters: t.type({ id: t.number }),
  result: t.type({ confirmed: t.boolean }),
  execute: waitForResponse,
});

/** Provides a Board session over a fresh FeedTransport at the test module's root; signals refresh at once (frame null). */
function setup(): { transport: FeedTransport } {
  const transport = new FeedTransport();
  TestBed.configureTestingModule({
    providers: [
      provideAgent(() => new Session<Board>(transport, { threadId: "board", state: stateSpec(Board, { tasks: [] }), tools: [confirmDelete] }), {
        token: BOARD,
        frame: null,
      }),
    ],
  });
  return { transport };
}

const agentOfBoard = () => TestBed.runInInjectionContext(() => injectAgent(BOARD));
/** Lets the settled client tool's promise callbacks run. */
const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

afterEach(() => TestBed.resetTestingModule());

test("runs under the oldest supported Angular", () => {
  expect(VERSION.major).toBe("17");
});

describe("provideAgent and injectSession", () => {
  it("make one session per injector, lazily, from a factory that may inject", () => {
    const URL = new InjectionToken<string>("url", { factory: () => "/agent" });
    let made = 0;
    TestBed.configureTestingModule({
      providers: [
        provideAgent(() => {
          made++;
          return new Session(new FeedTransport(), { threadId: inject(URL) });
        }),
      ],
    });
    expect(made).toBe(0);
    const session = TestBed.runInInjectionContext(() => injectSession());
    expect(session).toBe(TestBed.inject(AGENT_SESSION));
    expect(made).toBe(1);
    expect(session.threadId).toBe("/agent");
  });

  it("without a provider, fails naming the token and how to provide it", () => {
    expect(() => TestBed.runInInjectionContext(() => injectAgent())).toThrow(/AGENT_SESSION \(provide it with provideAgent/);
  });

  it("injectAgent outside an injection context is Angular's own error", () => {
    setup();
    expect(() => injectAgent(BOARD)).toThrow(/NG0203/);
  });

  it("destroying the providing injector detaches the run: the transport's request is let go", () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    agent.send("add milk");
    transport.start();
    expect(agent.status()).toBe("running");
    TestBed.resetTestingModule(); // destroys the test module's injector, and with it its DestroyRef
    expect(transport.cancelled).toEqual([true]);
    expect(agent.status()).toBe("idle");
  });
});

describe("injectAgent's signals", () => {
  it("follow a run: status, messages (unchanged ones keep identity), typed state, end", () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    expect([agent.status(), agent.messages(), agent.state()]).toEqual(["idle", [], { tasks: [] }]);
    agent.send("add milk");
    expect(agent.status()).toBe("running");
    expect(transport.input.messages.map((m) => m.content)).toEqual(["add milk"]);
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Adding"));
    const user = agent.messages()[0];
    expect(agent.messages().map((m) => [m.role, m.content])).toEqual([
      ["user", "add milk"],
      ["assistant", "Adding"],
    ]);
    transport.emit(ev.textMessageContent("m1", " milk."), ev.textMessageEnd("m1"), ev.stateSnapshot({ tasks: ["milk"] }));
    expect(agent.messages()[0]).toBe(user);
    expect(agent.messages()[1]?.content).toBe("Adding milk.");
    const tasks: readonly string[] | undefined = agent.state()?.tasks; // typed by the token's Session<Board>
    expect(tasks).toEqual(["milk"]);
    transport.finish();
    expect([agent.status(), agent.end(), agent.error()]).toEqual(["idle", { kind: "success" }, undefined]);
  });

  it("keep a value's identity while nothing it reads changed, so computeds downstream do not rerun", () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    let counted = 0;
    const count = computed(() => {
      counted++;
      return agent.messages().length;
    });
    agent.send("add milk");
    transport.start();
    expect(count()).toBe(1);
    transport.emit(ev.stateSnapshot({ tasks: ["milk"] })); // a change, but not to the messages
    expect(count()).toBe(1);
    expect(counted).toBe(1);
  });

  it("show interrupts, and resume answers them in a new run", () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    agent.send("clear the board");
    transport.start();
    const clear = { id: "clear-1", reason: "confirmation", message: "Clear all tasks?" };
    transport.finish({ outcome: { type: "interrupt", interrupts: [clear] } });
    expect(agent.status()).toBe("interrupted");
    expect(agent.interrupts().map((interrupt) => interrupt.id)).toEqual(["clear-1"]);
    agent.resume([{ interruptId: "clear-1", status: "resolved", payload: { approved: true } }]);
    expect(transport.inputs).toHaveLength(2);
    expect(transport.input.resume).toEqual([{ interruptId: "clear-1", status: "resolved", payload: { approved: true } }]);
    transport.start();
    transport.finish();
    expect([agent.status(), agent.interrupts()]).toEqual(["idle", []]);
  });

  it("list the running calls of a client tool, typed; respond answers and the session runs the follow-up", async () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    const confirmations = agent.toolCalls(confirmDelete);
    const byName = agent.toolCalls("confirm_delete");
    agent.send("delete task 1");
    transport.start();
    transport.emit(ev.toolCallStart("ask-1", "confirm_delete"), ev.toolCallArgs("ask-1", '{"id":1}'), ev.toolCallEnd("ask-1"));
    transport.finish({ outcome: { type: "success", pendingToolCallIds: ["ask-1"] } });
    const [call] = confirmations();
    const id: number | undefined = call?.args.id;
    expect([id, byName().map((c) => c.toolCallId), agent.runningToolCalls().length]).toEqual([1, ["ask-1"], 1]);
    call?.respond({ confirmed: true });
    await flush();
    expect(confirmations()).toEqual([]);
    expect(transport.inputs).toHaveLength(2);
    expect(transport.input.messages.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(['{"confirmed":true}']);
  });

  it("stop, on a transport that cannot stop on the server, lets go and reports what it cut off", () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    agent.send("add milk");
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Add"));
    agent.stop();
    expect(transport.cancelled).toEqual([true]);
    expect(agent.status()).toBe("idle");
    expect([...agent.cutOff().messageIds]).toEqual(["m1"]);
  });
});

describe("a component", () => {
  @Component({
    selector: "test-chat",
    standalone: true,
    changeDetection: ChangeDetectionStrategy.OnPush,
    template: `<p class="status">{{ agent.status() }}</p>
      @for (message of agent.messages(); track message.id) {
        <p class="message">{{ message.content }}</p>
      }`,
  })
  class ChatComponent {
    readonly agent = injectAgent(BOARD);
  }

  it("renders the signals, OnPush, as the run goes", async () => {
    const { transport } = setup();
    const fixture = TestBed.createComponent(ChatComponent);
    fixture.detectChanges();
    const text = (selector: string) => [...fixture.nativeElement.querySelectorAll(selector)].map((node: Element) => node.textContent);
    expect(text(".status")).toEqual(["idle"]);
    fixture.componentInstance.agent.send("hello");
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hi!"), ev.textMessageEnd("m1"));
    fixture.detectChanges();
    expect(text(".status")).toEqual(["running"]);
    expect(text(".message")).toEqual(["hello", "Hi!"]);
    transport.finish();
    fixture.detectChanges();
    expect(text(".status")).toEqual(["idle"]);
  });

  it("provided in the component's own providers, its session lives and is detached with the component", () => {
    const transport = new FeedTransport();
    @Component({
      selector: "test-own",
      standalone: true,
      providers: [provideAgent(() => new Session(transport, { threadId: "own" }), { frame: null })],
      template: `{{ agent.status() }}`,
    })
    class OwnSessionComponent {
      readonly agent = injectAgent();
    }
    const fixture = TestBed.createComponent(OwnSessionComponent);
    fixture.componentInstance.agent.send("hello");
    fixture.detectChanges();
    expect(fixture.nativeElement.textContent).toBe("running");
    fixture.destroy();
    expect(transport.cancelled).toEqual([true]);
  });
});

describe("branches (docs/client.md#branches)", () => {
  it("agent.branches(id) is a signal of where a message stands among its siblings; regenerate and edit start runs; selectBranch names what the transport lacks", async () => {
    const { transport } = setup();
    const agent = agentOfBoard();
    agent.send("add milk");
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Adding"), ev.textMessageEnd("m1"));
    transport.finish();
    const userId = agent.messages()[0]?.id ?? "";
    const first = agent.branches("m1");
    expect(first()).toEqual({ index: 0, count: 1, siblingIds: ["m1"] });

    agent.regenerate();
    expect(agent.status()).toBe("running");
    expect(agent.messages().map((m) => m.id)).toEqual([userId]);
    // a server that owns the history names the fork on RUN_STARTED (the wire form: metadata["agui-rx"].fork)
    transport.emit(ev.runStarted("board", transport.input.runId, { metadata: { "agui-rx": { fork: { after: userId, siblingIds: ["m1"] } } } }));
    transport.emit(ev.textMessageStart("m2"), ev.textMessageContent("m2", "Added"), ev.textMessageEnd("m2"));
    transport.finish();
    const second = agent.branches("m2");
    expect(second()).toEqual({ index: 1, count: 2, siblingIds: ["m1", "m2"] });
    const held = second();
    agent.session.messages$.subscribe(); // any other change leaves the value as it was
    expect(second()).toBe(held);

    agent.edit(userId, "add oat milk");
    expect(agent.status()).toBe("running");
    expect(transport.input.messages.map((m) => m.content)).toEqual(["add oat milk"]);
    transport.start();
    transport.finish();
    await expect(agent.selectBranch(userId, 0)).rejects.toThrow(/cannot select a branch \(it needs selectBranch and connect\)/);
  });
});
