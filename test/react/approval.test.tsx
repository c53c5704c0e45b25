/** @jest-environment jsdom */
// Issue 15, item 1: typing while asked to approve. A refused send ends inside `send` itself; the
// controller must not throw, and the pending approval must stay visible and answerable.
// No JSX syntax here (the project's tsconfig has no `jsx` setting): elements come from createElement.
import { act, render, screen } from "@testing-library/react";
import { createElement as h, type ReactElement } from "react";
import { ev } from "../../src/protocol/build";
import { useInterrupts, useRun, useSession, type RunHandle } from "../../src/react";
import { ScriptedTransport } from "./support/ScriptedTransport";
import { failOnUnhandledRxErrors } from "./support/noUnhandledErrors";

const CLEAR = { id: "clear-1", reason: "confirmation", message: "Clear all 2 tasks from the board?" };

/** The page's approval bar and status line, reduced to what the test reads. */
function setup() {
  const transport = new ScriptedTransport();
  let handle: RunHandle | undefined;
  function Page(): ReactElement {
    const session = useSession<unknown>(transport, { threadId: "board", frame: null });
    handle = useRun(session);
    const interrupts = useInterrupts(session);
    return h(
      "div",
      null,
      h("p", { "data-testid": "status" }, handle.status),
      h("p", { "data-testid": "error" }, handle.error?.message ?? ""),
      h(
        "ul",
        null,
        interrupts.map((interrupt) => h("li", { key: interrupt.id, "data-testid": "interrupt" }, interrupt.message)),
      ),
    );
  }
  render(h(Page));
  const run = () => {
    if (!handle) throw new Error("expected the Page to have rendered");
    return handle;
  };
  const askToClear = () => {
    act(() => run().send("clear"));
    transport.start();
    transport.finish({ outcome: { type: "interrupt", interrupts: [CLEAR] } });
  };
  return { transport, run, askToClear };
}

failOnUnhandledRxErrors();

describe("typing while asked to approve", () => {
  it("a refused send does not throw, reports why, and keeps the approval visible", () => {
    const { transport, run, askToClear } = setup();
    askToClear();
    expect(screen.getByTestId("status").textContent).toBe("interrupted");
    expect(screen.getAllByTestId("interrupt").map((li) => li.textContent)).toEqual([CLEAR.message]);

    // Before the fix this threw `ReferenceError: Cannot access 'subscription' before initialization`.
    expect(() => act(() => run().send("add buy bread"))).not.toThrow();

    expect(transport.inputs).toHaveLength(1); // refused before any request
    expect(screen.getByTestId("status").textContent).toBe("failed");
    expect(screen.getByTestId("error").textContent).toContain("pending interrupt");
    expect(screen.getAllByTestId("interrupt").map((li) => li.textContent)).toEqual([CLEAR.message]);
    // The refused run is over: nothing is left active for stop() to reset.
    act(() => run().stop());
    expect(screen.getByTestId("status").textContent).toBe("failed");
  });

  it("the approval can still be answered after a refused send", () => {
    const { transport, run, askToClear } = setup();
    askToClear();
    act(() => run().send("add buy bread"));
    act(() => run().resume([{ interruptId: CLEAR.id, status: "resolved", payload: { approved: true } }]));
    expect(screen.getByTestId("status").textContent).toBe("running");
    expect(screen.getByTestId("error").textContent).toBe("");
    expect(transport.inputs).toHaveLength(2);
    expect(transport.input.resume).toEqual([{ interruptId: CLEAR.id, status: "resolved", payload: { approved: true } }]);
    transport.start();
    transport.finish();
    expect(screen.getByTestId("status").textContent).toBe("idle");
    expect(screen.queryAllByTestId("interrupt")).toHaveLength(0);
  });
});

describe("useRun's cutOff", () => {
  it("names the message that stop() cut off mid-text, and keeps it over later runs", () => {
    const { transport, run } = setup();
    act(() => run().send("research rxjs"));
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "On it."), ev.textMessageEnd("m1"));
    transport.emit(ev.textMessageStart("m2"), ev.textMessageContent("m2", "Notes on rx"));
    act(() => run().stop());
    expect([...run().cutOff.messageIds]).toEqual(["m2"]);
    expect(run().cutOff.toolCallIds.size).toBe(0);

    act(() => run().send("list"));
    transport.start();
    transport.emit(ev.textMessageStart("m3"), ev.textMessageContent("m3", "Nothing."), ev.textMessageEnd("m3"));
    transport.finish();
    expect(run().status).toBe("idle");
    expect([...run().cutOff.messageIds]).toEqual(["m2"]);
  });

  it("names a tool call stopped before its result, and its message", () => {
    const { transport, run } = setup();
    act(() => run().send("add milk"));
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Adding."), ev.textMessageEnd("m1"));
    transport.emit(ev.toolCallStart("tc-1", "add_task", { parentMessageId: "m1" }), ev.toolCallArgs("tc-1", '{"title":"milk"}'));
    transport.emit(ev.toolCallEnd("tc-1"), ev.toolCallResult("r-1", "tc-1", '{"id":1}'));
    transport.emit(ev.toolCallStart("tc-2", "add_task", { parentMessageId: "m1" }), ev.toolCallArgs("tc-2", '{"title":"eggs"}'), ev.toolCallEnd("tc-2"));
    act(() => run().stop());
    expect([...run().cutOff.toolCallIds]).toEqual(["tc-2"]);
    expect([...run().cutOff.messageIds]).toEqual(["m1"]);
  });

  it("is empty after runs that finish, fail or are stopped with nothing open", () => {
    const { transport, run } = setup();
    act(() => run().send("hi"));
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hel"));
    act(() => {
      transport.feeds[0].next(ev.runError("model unavailable"));
      transport.feeds[0].complete();
    });
    expect(run().status).toBe("failed");
    act(() => run().send("again"));
    transport.start();
    transport.emit(ev.textMessageStart("m2"), ev.textMessageContent("m2", "Done."), ev.textMessageEnd("m2"));
    act(() => run().stop());
    expect(run().cutOff.messageIds.size).toBe(0);
    expect(run().cutOff.toolCallIds.size).toBe(0);
  });
});
