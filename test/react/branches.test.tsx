/** @jest-environment jsdom */
// useBranches and useRun's edit/regenerate (docs/client.md#branches): a switcher re-renders when a run's fork marker makes a sibling, and keeps its value otherwise.
import { act, render, screen } from "@testing-library/react";
import { createElement as h, type ReactElement } from "react";
import type { Session } from "../../src/client/Session";
import { ev } from "../../src/protocol/build";
import { forkMetadata } from "../../src/protocol/branchMeta";
import type { BranchInfo } from "../../src/client";
import { useBranches, useMessages, useRun, useSession, type RunHandle } from "../../src/react";
import { ScriptedTransport } from "./support/ScriptedTransport";

function setup() {
  const transport = new ScriptedTransport();
  let session: Session<unknown> | undefined;
  let run: RunHandle | undefined;
  /** Each switcher's values, in order, a new entry only when the value is a new object. */
  const seen = new Map<string, BranchInfo[]>();
  function Switcher({ id }: { readonly id: string }): ReactElement {
    const info = useBranches(session as Session<unknown>, id);
    const values = seen.get(id) ?? [];
    if (values[values.length - 1] !== info) seen.set(id, [...values, info]);
    return h("span", { "data-testid": `branches-${id}` }, `${info.index + 1}/${info.count}`);
  }
  function App(): ReactElement {
    const made = useSession<unknown>(transport, { threadId: "t", frame: null, newId: () => `u${transport.inputs.length + 1}` });
    session = made;
    const messages = useMessages(made);
    run = useRun(made);
    return h(
      "ul",
      null,
      messages.map((message) => h("li", { key: message.id }, h(Switcher, { id: message.id }))),
    );
  }
  const view = render(h(App));
  const current = () => {
    if (!session || !run) throw new Error("expected the App to have rendered");
    return { session, run };
  };
  return { transport, view, current, seen };
}

test("useBranches shows a regenerated answer's place among its siblings, and useRun.regenerate/edit start the runs", () => {
  const { transport, current } = setup();
  act(() => current().run.send("first"));
  transport.start();
  transport.emit(ev.textMessageStart("a1"), ev.textMessageContent("a1", "one"), ev.textMessageEnd("a1"));
  transport.finish();
  expect(screen.getByTestId("branches-a1").textContent).toBe("1/1");

  act(() => current().run.regenerate());
  expect(current().run.status).toBe("running");
  expect(screen.queryByTestId("branches-a1")).toBeNull(); // the answer was cut at once
  const userId = current().session.messages[0].id;
  transport.emit(ev.runStarted("t", transport.input.runId, { metadata: forkMetadata({ after: userId, siblingIds: ["a1"] }) }));
  transport.emit(ev.textMessageStart("a2"), ev.textMessageContent("a2", "two"), ev.textMessageEnd("a2"));
  transport.finish();
  expect(screen.getByTestId("branches-a2").textContent).toBe("2/2");
  expect(current().session.branches("a2")).toEqual({ index: 1, count: 2, siblingIds: ["a1", "a2"] });

  act(() => current().run.edit(userId, "first, edited"));
  expect(current().run.status).toBe("running");
  expect(current().session.messages.map((message) => message.content)).toEqual(["first, edited"]);
  expect(transport.input.messages.map((message) => message.content)).toEqual(["first, edited"]); // no server-owned history here: the path, whole
});

test("useBranches keeps its value's identity while the path changes elsewhere", () => {
  const { transport, current, seen } = setup();
  act(() => current().run.send("first"));
  transport.start();
  transport.emit(ev.textMessageStart("a1"), ev.textMessageContent("a1", "o"));
  const userId = current().session.messages[0].id;
  transport.emit(ev.textMessageContent("a1", "ne"), ev.textMessageEnd("a1"));
  transport.finish();
  expect(screen.getByTestId(`branches-${userId}`).textContent).toBe("1/1");
  // the question's switcher re-rendered as the answer streamed, with the same value every time
  expect(seen.get(userId)).toEqual([{ index: 0, count: 1, siblingIds: [userId] }]);
  expect(seen.get("a1")).toHaveLength(1);
});
