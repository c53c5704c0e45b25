/** @jest-environment jsdom */
// useClientTool: every running call of a human-in-the-loop tool renders with its toolCallId and
// typed args (CopilotKit #3741, #3041), respond answers it and the session starts the follow-up
// run, and unmounting aborts the waiting call. No JSX syntax (the project's tsconfig has no `jsx`).
import { act, fireEvent, render, screen } from "@testing-library/react";
import * as t from "io-ts";
import { createElement as h, type ReactElement } from "react";
import { map } from "rxjs";
import { clientTool } from "../../src/client/tools/clientTool";
import { callsOf } from "../../src/client/tools/RunningToolCalls";
import { waitForResponse } from "../../src/client/tools/waitForResponse";
import type { Session } from "../../src/client/Session";
import { ev } from "../../src/protocol/build";
import { useClientTool, useMessages, useRun, useRunningToolCalls, useSession, type RunHandle } from "../../src/react";
import { ScriptedTransport } from "./support/ScriptedTransport";

const confirmDelete = clientTool({
  name: "confirm_delete",
  description: "Asks the user to confirm deleting a task",
  parameters: t.type({ id: t.number, title: t.string }),
  result: t.type({ confirmed: t.boolean }),
  execute: waitForResponse,
});

/** A page with the confirmation cards (by tool) and a plain list of the same calls (by name). */
function setup() {
  const transport = new ScriptedTransport();
  let handle: RunHandle | undefined;
  let session: Session<unknown> | undefined;
  function Page(): ReactElement {
    session = useSession<unknown>(transport, { threadId: "board", frame: null, tools: [confirmDelete] });
    handle = useRun(session);
    const messages = useMessages(session);
    // eslint-disable-next-line @typescript-eslint/unbound-method -- respond is an arrow bound to its call (src/client/tools/RunningToolCalls.ts)
    const cards = useClientTool(session, confirmDelete, ({ toolCallId, args, respond }) =>
      h(
        "div",
        { "data-testid": "card", "data-call": toolCallId },
        h("span", null, `Delete task ${args.id} (${args.title})?`),
        h("button", { onClick: () => respond({ confirmed: true }) }, `delete ${args.id}`),
        h("button", { onClick: () => respond({ confirmed: false }) }, `keep ${args.id}`),
      ),
    );
    const byName = useClientTool(session, "confirm_delete", (call) => h("li", { "data-testid": "by-name" }, call.toolCallId));
    const running = useRunningToolCalls(session);
    return h(
      "div",
      null,
      h("p", { "data-testid": "status" }, handle.status),
      h("p", { "data-testid": "running" }, String(running.length)),
      h(
        "p",
        { "data-testid": "tools" },
        messages
          .filter((m) => m.role === "tool")
          // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the tool answers in this test are text
          .map((m) => String(m.content))
          .join(" | "),
      ),
      cards,
      h("ul", null, byName),
    );
  }
  const view = render(h(Page));
  const run = () => {
    if (!handle) throw new Error("expected the Page to have rendered");
    return handle;
  };
  /** The agent asks to delete tasks 1 and 2 in one assistant message, and ends the run. */
  const askTwice = () => {
    act(() => run().send("delete 1; delete 2"));
    transport.start();
    transport.emit(
      ev.textMessageStart("m1"),
      ev.textMessageContent("m1", "Deleting once you confirm."),
      ev.textMessageEnd("m1"),
      ev.toolCallStart("ask-1", "confirm_delete", { parentMessageId: "m1" }),
      ev.toolCallArgs("ask-1", '{"id":1,"title":"buy milk"}'),
      ev.toolCallEnd("ask-1"),
      ev.toolCallStart("ask-2", "confirm_delete", { parentMessageId: "m1" }),
      ev.toolCallArgs("ask-2", '{"id":2,"title":"call mom"}'),
      ev.toolCallEnd("ask-2"),
    );
    transport.finish({ outcome: { type: "success", pendingToolCallIds: ["ask-1", "ask-2"] } });
  };
  return { transport, run, askTwice, view, session: () => session };
}

/** Lets the settled executes' promise callbacks run, inside act so React renders what follows. */
const flush = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

describe("useClientTool", () => {
  it("renders every pending call of the turn with its toolCallId and typed args, by tool and by name", () => {
    const { askTwice } = setup();
    askTwice();
    const cards = screen.getAllByTestId("card");
    expect(cards.map((card) => [card.getAttribute("data-call"), card.querySelector("span")?.textContent])).toEqual([
      ["ask-1", "Delete task 1 (buy milk)?"],
      ["ask-2", "Delete task 2 (call mom)?"],
    ]);
    expect(screen.getAllByTestId("by-name").map((li) => li.textContent)).toEqual(["ask-1", "ask-2"]);
    expect(screen.getByTestId("status").textContent).toBe("running"); // one exchange: still running while the user decides
  });

  it("respond answers each call; once both are answered, the results go out in the calls' order in the follow-up run", async () => {
    const { transport, askTwice } = setup();
    askTwice();
    fireEvent.click(screen.getByText("keep 2")); // the second answered first
    await flush();
    expect(screen.getAllByTestId("card").map((card) => card.getAttribute("data-call"))).toEqual(["ask-1"]);
    expect(transport.inputs).toHaveLength(1);
    fireEvent.click(screen.getByText("delete 1"));
    await flush();
    expect(screen.queryAllByTestId("card")).toHaveLength(0);
    expect(screen.getByTestId("tools").textContent).toBe('{"confirmed":true} | {"confirmed":false}');
    expect(transport.inputs).toHaveLength(2); // the follow-up run, started by the session itself
    const sent = transport.input.messages.filter((m) => m.role === "tool");
    expect(sent.map((m) => (m.role === "tool" ? [m.toolCallId, m.content] : []))).toEqual([
      ["ask-1", '{"confirmed":true}'],
      ["ask-2", '{"confirmed":false}'],
    ]);
    transport.start();
    transport.emit(ev.textMessageStart("m2"), ev.textMessageContent("m2", "Deleted task 1."), ev.textMessageEnd("m2"));
    transport.finish();
    expect(screen.getByTestId("status").textContent).toBe("idle");
  });

  it("stop removes the cards and aborts the waiting calls: nothing is answered, no follow-up run", async () => {
    const { transport, run, askTwice } = setup();
    askTwice();
    act(() => run().stop());
    expect(screen.queryAllByTestId("card")).toHaveLength(0);
    expect(screen.getByTestId("running").textContent).toBe("0");
    await flush();
    expect(screen.getByTestId("tools").textContent).toBe("");
    expect(transport.inputs).toHaveLength(1);
    expect(run().cutOff.toolCallIds).toEqual(new Set(["ask-1", "ask-2"]));
  });

  it("unmounting the page aborts the waiting calls", () => {
    const { askTwice, view, session } = setup();
    askTwice();
    expect(session()?.runningToolCalls).toHaveLength(2);
    view.unmount();
    expect(session()?.runningToolCalls).toEqual([]);
    expect(session()?.running).toBe(false);
  });

  it("is what the Angular service composes too: runningToolCalls$ through callsOf, one typed list per change", () => {
    const { askTwice, run, session } = setup();
    const seen: string[][] = [];
    const current = session();
    if (current === undefined) throw new Error("expected the Page to have rendered");
    const watch = current.runningToolCalls$
      .pipe(map((calls) => callsOf(calls, confirmDelete)))
      .subscribe((calls) => seen.push(calls.map((call) => `${call.toolCallId}:${call.args.title}`)));
    askTwice();
    act(() => run().stop());
    watch.unsubscribe();
    expect(seen).toEqual([[], ["ask-1:buy milk"], ["ask-1:buy milk", "ask-2:call mom"], ["ask-2:call mom"], []]);
  });
});
