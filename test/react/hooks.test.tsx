/** @jest-environment jsdom */
// No JSX syntax here: the project's tsconfig has no `jsx` setting, so elements are made with createElement.
import { act, render, screen } from "@testing-library/react";
import { createElement as h, memo, useEffect, type ReactElement } from "react";
import { animationFrameScheduler } from "rxjs";
import { Session } from "../../src/client/Session";
import { ev } from "../../src/protocol/build";
import type { Message } from "../../src/protocol/messages";
import { useAgentState, useInterrupts, useMessages, useRun, useSession, useSubagents } from "../../src/react";
import { defaultRenderFrame, type RenderFrame, type RunHandle } from "../../src/react";
import { TestScheduler } from "rxjs/testing";
import { ScriptedTransport } from "./support/ScriptedTransport";

/** Renders with a counter per message id, to see which memo rows React drew again. */
function setup(frame: RenderFrame = null) {
  const transport = new ScriptedTransport();
  const renders = new Map<string, number>();
  let session: Session<unknown> | undefined;
  let run: RunHandle | undefined;

  const Row = memo(function Row({ message }: { message: Message }) {
    renders.set(message.id, (renders.get(message.id) ?? 0) + 1);
    return h("li", { "data-testid": `row-${message.id}` }, typeof message.content === "string" ? message.content : "");
  });
  function App(): ReactElement {
    const made = useSession<unknown>(transport, { threadId: "thread-1", frame });
    const messages = useMessages(made);
    const handle = useRun(made);
    useEffect(() => {
      session = made;
    });
    run = handle;
    return h(
      "div",
      null,
      h("p", { "data-testid": "status" }, handle.status),
      h(
        "ul",
        null,
        messages.map((m) => h(Row, { key: m.id, message: m })),
      ),
    );
  }
  const view = render(h(App));
  const current = () => {
    if (!session || !run) throw new Error("expected the App to have rendered");
    return { session, run };
  };
  return { transport, renders, view, current, send: (text: string) => act(() => current().run.send(text)) };
}

describe("useMessages with memo rows", () => {
  it("re-renders only the row whose message changed", () => {
    const { transport, renders, send } = setup();
    send("hi");
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "Hello"), ev.textMessageEnd("m1"));
    const userId = transport.input.messages[transport.input.messages.length - 1].id;
    expect(screen.getByTestId("row-m1").textContent).toBe("Hello");
    const userRenders = renders.get(userId);
    const m1Renders = renders.get("m1");
    expect(userRenders).toBe(1);

    transport.emit(ev.textMessageStart("m2"));
    for (const delta of ["Wor", "ld", "!"]) transport.emit(ev.textMessageContent("m2", delta));
    transport.emit(ev.textMessageEnd("m2"));

    expect(screen.getByTestId("row-m2").textContent).toBe("World!");
    // m2 was drawn again for its start and each of its three deltas.
    expect(renders.get("m2")).toBeGreaterThanOrEqual(4);
    // Neither the user's message nor m1 changed, so their memo rows were not drawn again.
    expect(renders.get(userId)).toBe(userRenders);
    expect(renders.get("m1")).toBe(m1Renders);
  });

  it("renders forty deltas that arrive in one frame once, at the frame's end", () => {
    const frame = new TestScheduler(() => undefined);
    const { transport, renders, send } = setup(frame);
    send("hi");
    act(() => frame.flush());
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "0"));
    act(() => frame.flush());
    expect(screen.getByTestId("row-m1").textContent).toBe("0");
    const before = renders.get("m1") ?? 0;
    // forty deltas, each in its own task (as separate network chunks would be), all before the frame ends
    const deltas = Array.from({ length: 40 }, (_, i) => String((i + 1) % 10));
    for (const delta of deltas) transport.emit(ev.textMessageContent("m1", delta));
    expect(renders.get("m1")).toBe(before);
    expect(screen.getByTestId("row-m1").textContent).toBe("0");
    act(() => frame.flush());
    expect(renders.get("m1")).toBe(before + 1);
    expect(screen.getByTestId("row-m1").textContent).toBe(`0${deltas.join("")}`);
  });

  it("returns the same array until something changes", () => {
    const { transport, current, send } = setup();
    send("hi");
    transport.start();
    const before = current().session.messages;
    transport.emit(ev.stateSnapshot({ a: 1 }));
    expect(current().session.messages).toBe(before);
  });
});

describe("useAgentState", () => {
  it("follows snapshots and deltas, sharing untouched subtrees", () => {
    const transport = new ScriptedTransport();
    const seen: unknown[] = [];
    function Probe(): ReactElement {
      const session = useSession<unknown>(transport, { threadId: "t", frame: null });
      const state = useAgentState(session);
      const { send } = useRun(session);
      seen.push(state);
      useEffect(() => send("go"), [send]);
      return h("pre", { "data-testid": "state" }, JSON.stringify(state));
    }
    render(h(Probe));
    transport.start();
    transport.emit(ev.stateSnapshot({ left: { n: 1 }, right: { n: 2 } }));
    const first = seen[seen.length - 1] as { left: object; right: object };
    transport.emit(ev.stateDelta([{ op: "replace", path: "/right/n", value: 3 }]));
    expect(JSON.parse(screen.getByTestId("state").textContent ?? "null")).toEqual({ left: { n: 1 }, right: { n: 3 } });
    const second = seen[seen.length - 1] as { left: object; right: object };
    expect(second).not.toBe(first);
    expect(second.left).toBe(first.left);
    expect(second.right).not.toBe(first.right);
  });
});

describe("useRun", () => {
  it("goes idle → running → idle on success", () => {
    const { transport, send } = setup();
    expect(screen.getByTestId("status").textContent).toBe("idle");
    send("hi");
    expect(screen.getByTestId("status").textContent).toBe("running");
    transport.start();
    transport.finish();
    expect(screen.getByTestId("status").textContent).toBe("idle");
  });

  it("reports interrupted with the interrupts, and resume runs again", () => {
    const transport = new ScriptedTransport();
    let handle: RunHandle | undefined;
    function Probe(): ReactElement {
      const session = useSession<unknown>(transport, { threadId: "t", frame: null });
      handle = useRun(session);
      const interrupts = useInterrupts(session);
      return h("p", { "data-testid": "probe" }, `${handle.status}:${interrupts.map((i) => i.id).join(",")}`);
    }
    render(h(Probe));
    act(() => handle?.send("clear"));
    transport.start();
    transport.finish({ outcome: { type: "interrupt", interrupts: [{ id: "int-1", reason: "confirm", message: "Clear the board?" }] } });
    expect(screen.getByTestId("probe").textContent).toBe("interrupted:int-1");
    expect(handle?.end).toEqual({ kind: "interrupted", interrupts: [{ id: "int-1", reason: "confirm", message: "Clear the board?" }] });

    act(() => handle?.resume([{ interruptId: "int-1", status: "resolved", payload: { approved: true } }]));
    expect(screen.getByTestId("probe").textContent?.startsWith("running")).toBe(true);
    expect(transport.input.resume).toEqual([{ interruptId: "int-1", status: "resolved", payload: { approved: true } }]);
    transport.start();
    transport.finish();
    expect(screen.getByTestId("probe").textContent).toBe("idle:");
  });

  it("reports failed with the error that preceded it", () => {
    const { transport, current, send } = setup();
    send("hi");
    transport.start();
    act(() => {
      const feed = transport.feeds[0];
      feed.next(ev.runError("model unavailable", { code: "UPSTREAM" }));
      feed.complete();
    });
    expect(screen.getByTestId("status").textContent).toBe("failed");
    expect(current().run.error?.message).toContain("model unavailable");
    expect(current().run.end).toEqual({ kind: "failed", message: "model unavailable", code: "UPSTREAM" });
  });

  it("a run the agent reports cancelled (1.0.0's cancelled outcome) is idle, not failed, and has no error", () => {
    const { transport, current, send } = setup();
    send("hi");
    transport.start();
    transport.finish({ outcome: { type: "cancelled" } });
    expect(screen.getByTestId("status").textContent).toBe("idle");
    expect(current().run.end).toEqual({ kind: "cancelled" });
    expect(current().run.error).toBeUndefined();
  });

  it("stop unsubscribes (the transport sees the cancellation) and returns to idle", () => {
    const { transport, current, send } = setup();
    send("hi");
    transport.start();
    transport.emit(ev.textMessageStart("m1"), ev.textMessageContent("m1", "partial"));
    act(() => current().run.stop());
    expect(transport.cancelled).toEqual([true]);
    expect(screen.getByTestId("status").textContent).toBe("idle");
    expect(screen.getByTestId("row-m1").textContent).toBe("partial");
  });

  it("sending while running stops the active run first", () => {
    const { transport, send } = setup();
    send("first");
    transport.start();
    send("second");
    expect(transport.cancelled).toEqual([true, false]);
    expect(screen.getByTestId("status").textContent).toBe("running");
  });

  it("is shared by every component on the same session, and unmounting the session's owner stops its run", () => {
    const transport = new ScriptedTransport();
    let handle: RunHandle | undefined;
    function Status({ session }: { session: Session<unknown> }): ReactElement {
      return h("span", { "data-testid": "other" }, useRun(session).status);
    }
    function Owner(): ReactElement {
      const session = useSession<unknown>(transport, { threadId: "t", frame: null });
      handle = useRun(session);
      const subagents = useSubagents(session);
      return h("div", null, h(Status, { session }), h("i", { "data-testid": "subagents" }, subagents.map((s) => s.name).join(",")));
    }
    const view = render(h(Owner));
    act(() => handle?.send("research rxjs"));
    expect(screen.getByTestId("other").textContent).toBe("running");
    transport.start();
    transport.emit(ev.subagentStarted("sub-1", "researcher"));
    expect(screen.getByTestId("subagents").textContent).toBe("researcher");
    view.unmount();
    expect(transport.cancelled).toEqual([true]);
  });
});

describe("the render frame", () => {
  it("defaults to animation frames where requestAnimationFrame exists (here: jsdom)", () => {
    expect(typeof requestAnimationFrame).toBe("function");
    expect(defaultRenderFrame()).toBe(animationFrameScheduler);
  });
});
