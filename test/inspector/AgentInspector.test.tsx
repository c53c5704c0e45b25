/** @jest-environment jsdom */
// No JSX syntax here: the project's tsconfig has no `jsx` setting, so elements are made with createElement.
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { createElement as h } from "react";
import { lastValueFrom, of, toArray } from "rxjs";
import { Session } from "../../src/client/Session";
import { ReplayTransport } from "../../src/client/transports/ReplayTransport";
import { InProcessTransport } from "../../src/client/transports/InProcessTransport";
import { ev } from "../../src/protocol/build";
import type { Event } from "../../src/protocol/events";
import { encodeSse } from "../../src/wire/encodeSse";
import { AgentInspector, Inspector } from "../../src/inspector";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

/** The panel redraws once per animation frame (jsdom has one): wait for the next. */
async function nextFrame(): Promise<void> {
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

async function feed(inspector: Inspector, events: readonly Event[], extra = ""): Promise<void> {
  inspector.stream({ at: 0 });
  inspector.chunk(events.map(encodeSse).join("") + extra, Date.UTC(2026, 0, 1, 12, 0, 0, 5));
  inspector.end(1);
  await nextFrame();
}

test("the page's own session: its run's events appear grouped, the trace id links through the template, the message tree shows", async () => {
  const session = new Session(
    new InProcessTransport((input) =>
      of(
        ev.runStarted(input.threadId, input.runId, { metadata: { "agui-rx": { traceId: TRACE } } }),
        ev.stepStarted("answer"),
        ev.textMessageStart("m1"),
        ev.textMessageContent("m1", "Hello!"),
        ev.textMessageEnd("m1"),
        ev.stepFinished("answer"),
        ev.runFinished(input.threadId, input.runId),
      ),
    ),
    { threadId: "t1" },
  );
  render(h(AgentInspector, { session, traceLink: "https://tracing.example/trace/{traceId}" }));
  expect(screen.getByText("No events yet.")).toBeTruthy();
  await act(async () => {
    await lastValueFrom(session.send("hi").pipe(toArray()));
  });
  await nextFrame();
  expect(screen.getByRole("heading", { name: "Events (7)" })).toBeTruthy();
  expect(screen.getByRole("link", { name: TRACE }).getAttribute("href")).toBe(`https://tracing.example/trace/${TRACE}`);
  const events = screen.getByRole("region", { name: /Events/ });
  expect(within(events).getByText(/^run /)).toBeTruthy();
  expect(within(events).getByText("step answer")).toBeTruthy();
  expect(within(events).getByText("message m1")).toBeTruthy();
  const messages = screen.getByRole("region", { name: /Messages/ });
  expect(within(messages).getByText("Hello!")).toBeTruthy();
  // What the stream built: the user's own message was never on the wire.
  expect(within(messages).queryByText("hi")).toBeNull();
});

test("a bad sequence: the findings are shown at their events, counted, and kept when filtering to events with findings", async () => {
  const inspector = new Inspector();
  render(h(AgentInspector, { inspector }));
  await feed(inspector, [ev.runStarted("t1", "r1"), ev.textMessageContent("m9", "orphan"), ev.runFinished("t1", "r1")], "data: {oops\n\n");
  expect(screen.getByText(/2 errors/)).toBeTruthy();
  const list = screen.getByRole("list", { name: "Findings of event 1" });
  expect(within(list).getByText("error R15")).toBeTruthy();
  expect(within(screen.getByRole("list", { name: "Findings of event 3" })).getByText("error json")).toBeTruthy();
  fireEvent.click(screen.getByRole("checkbox", { name: /only events with findings/ }));
  expect(screen.getByRole("heading", { name: "Events (2)" })).toBeTruthy();
  expect(screen.queryByRole("button", { name: /RUN_STARTED/ })).toBeNull();
});

test("selecting an event shows its JSON, raw SSE frame, size, time, and the state before and after with the diff", async () => {
  const inspector = new Inspector();
  render(h(AgentInspector, { inspector }));
  await feed(inspector, [
    ev.runStarted("t1", "r1"),
    ev.stateSnapshot({ count: 1 }),
    ev.stateDelta([{ op: "replace", path: "/count", value: 2 }]),
    ev.runFinished("t1", "r1"),
  ]);
  const delta = screen.getByRole("button", { name: /#2 STATE_DELTA/ });
  expect(delta.getAttribute("aria-pressed")).toBe("false");
  fireEvent.click(delta);
  expect(delta.getAttribute("aria-pressed")).toBe("true");
  const detail = screen.getByRole("region", { name: "Selected event" });
  const raw = encodeSse(ev.stateDelta([{ op: "replace", path: "/count", value: 2 }])); // ASCII: as many bytes as characters
  expect(within(detail).getByText(`${raw.length} bytes`)).toBeTruthy();
  expect(within(detail).getByText(/12:00:00\.005/)).toBeTruthy();
  const blocks = within(detail)
    .getAllByRole("heading", { level: 4 })
    .map((heading) => [heading.textContent, heading.nextElementSibling?.textContent]);
  expect(blocks.map(([name]) => name)).toEqual(["Event", "Raw SSE frame", "State before", "State after", "Diff (JSON Patch)"]);
  expect(blocks[1]?.[1]).toBe(raw);
  expect(JSON.parse(blocks[2]?.[1] ?? "")).toEqual({ count: 1 });
  expect(JSON.parse(blocks[3]?.[1] ?? "")).toEqual({ count: 2 });
  expect(JSON.parse(blocks[4]?.[1] ?? "")).toEqual([{ op: "replace", path: "/count", value: 2 }]);
});

test("filtering by type, and clearing", async () => {
  const inspector = new Inspector();
  render(h(AgentInspector, { inspector }));
  await feed(inspector, [ev.runStarted("t1", "r1"), ev.custom("a", 1), ev.custom("b", 2), ev.runFinished("t1", "r1")]);
  fireEvent.change(screen.getByRole("combobox", { name: /Type/ }), { target: { value: "CUSTOM" } });
  expect(screen.getAllByRole("button", { name: /CUSTOM/ })).toHaveLength(2);
  expect(screen.queryByRole("button", { name: /RUN_FINISHED/ })).toBeNull();
  fireEvent.click(screen.getByRole("button", { name: "Clear" }));
  await nextFrame();
  expect(screen.getByText("No events yet.")).toBeTruthy();
});

test("a stream that fails is a stream finding; a replayed session's stream is read from the session", async () => {
  const session = new Session(new ReplayTransport([ev.runStarted("t1", "r1"), ev.textMessageStart("m1")]), { threadId: "t1" });
  render(h(AgentInspector, { session }));
  await act(async () => {
    await lastValueFrom(session.send("hi").pipe(toArray()));
  });
  await nextFrame();
  const problems = screen.getByRole("region", { name: "Stream findings" });
  expect(within(problems).getByText("error E8")).toBeTruthy();
});
