/** @jest-environment jsdom */
// useThreads (docs/client.md#thread-list): the rows render live while mounted, re-render on events, and the events stream closes on unmount.
import { act, render, screen } from "@testing-library/react";
import { createElement as h, type ReactElement } from "react";
import { threadList } from "../../src/client/threads/threadList";
import { useThreads, type ThreadsHandle } from "../../src/react";
import { row, ScriptedThreads } from "../client/threads/ScriptedThreads";

const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));

test("useThreads shows the first page, then each change, and lets the events stream go on unmount", async () => {
  const server = new ScriptedThreads();
  server.rows = [row("a", 9, { title: "Alpha" }), row("b", 8, { title: "Beta", running: true })];
  const list = threadList(server);
  let handle: ThreadsHandle | undefined;
  function Sidebar(): ReactElement {
    handle = useThreads(list);
    return h(
      "ul",
      null,
      handle.threads.map((thread) => h("li", { key: thread.threadId, "data-testid": thread.threadId }, `${thread.title}${thread.running ? " (running)" : ""}`)),
    );
  }
  const view = render(h(Sidebar));
  expect(server.subscribers).toBe(1);
  act(() => server.events.next({ type: "opened", attempt: 0 }));
  await settle();
  expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Alpha", "Beta (running)"]);

  act(() => server.events.next({ type: "run-ended", thread: row("b", 10, { title: "Beta" }) }));
  expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Beta", "Alpha"]);

  await act(async () => {
    await handle?.rename("a", "Renamed");
  });
  expect(screen.getByTestId("a").textContent).toBe("Renamed");
  await act(async () => {
    await handle?.remove("b");
  });
  expect(screen.queryByTestId("b")).toBeNull();

  view.unmount();
  expect(server.subscribers).toBe(0);
});
