/** @jest-environment ./test/testing/support/jsdomWithFetch.cjs */
/**
 * A component test over an in-process endpoint (docs/testing.md#an-in-process-endpoint): a React
 * chat rendered with Testing Library, its Session on `inProcessEndpoint` over the real handler with
 * a store, no socket. Sending shows the agent's answer; a second mount joins the thread and shows
 * its history; a stop reaches the server.
 */
// No JSX syntax here: the project's tsconfig has no `jsx` setting, so elements are made with createElement.
import { act, fireEvent, render, screen } from "@testing-library/react";
import { createElement as h, useState, type ReactElement } from "react";
import { Session } from "../../src/client/Session";
import type { Transport } from "../../src/client/transports/Transport";
import { useMessages, useRun, useSession } from "../../src/react";
import { createHandler } from "../../src/server/http/createHandler";
import { memoryStore } from "../../src/server/store/memory/memoryStore";
import { success, type Agent } from "../../src/server/Agent";
import { collectUpdates, inProcessEndpoint, summarize, transcript } from "../../src/testing";
import { greeter } from "./agents";

/** The component under test: the conversation, a status line and a composer. */
function Chat({ transport, threadId }: { transport: Transport; threadId: string }): ReactElement {
  const session = useSession(transport, { threadId });
  const messages = useMessages(session);
  const run = useRun(session);
  const [draft, setDraft] = useState("");
  return h(
    "main",
    null,
    h(
      "ol",
      { "aria-label": "conversation" },
      messages.map((message) => h("li", { key: message.id }, `${message.role}: ${typeof message.content === "string" ? message.content : ""}`)),
    ),
    h("p", { role: "status" }, run.status),
    h("input", { "aria-label": "message", value: draft, onChange: (event: { target: { value: string } }) => setDraft(event.target.value) }),
    h("button", { onClick: () => run.send(draft) }, "Send"),
  );
}

test("a chat component over an in-process endpoint sends, shows the answer, and a new mount joins the thread", async () => {
  const transport = inProcessEndpoint(createHandler(greeter, { store: memoryStore() }));
  const first = render(h(Chat, { transport, threadId: "t1" }));
  fireEvent.change(screen.getByLabelText("message"), { target: { value: "Ada" } });
  fireEvent.click(screen.getByText("Send"));
  expect(await screen.findByText("assistant: I know you.")).toBeTruthy();
  expect(screen.getByText("assistant: Hello, Ada!")).toBeTruthy();
  first.unmount();

  // Another tab: a new Session on the same endpoint joins the thread the server keeps.
  const joined = new Session(transport, { threadId: "t1" });
  await act(() => collectUpdates(joined.connect()));
  expect(transcript(joined.messages)).toEqual([
    "user: Ada",
    "assistant: Hello, Ada!",
    'assistant → lookup({"name":"Ada"})',
    'tool lookup: {"known":true}',
    "assistant: I know you.",
  ]);
});

test("a stop from the component's session reaches the agent through the handler (no socket)", async () => {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const waiter: Agent = {
    async run(ctx) {
      ctx.say("Working…");
      started();
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
      return success();
    },
  };
  const session = new Session(inProcessEndpoint(createHandler(waiter, { store: memoryStore() })), { threadId: "t2" });
  const updates = collectUpdates(session.send("go"));
  await running;
  expect(await session.stop()).toBe("stopping");
  expect(summarize(await updates).at(-1)).toBe("done cancelled");
});

test("an agent serves as it is (createHandler's defaults); anything but a handler or an agent is refused with what it got", async () => {
  const session = new Session(inProcessEndpoint(greeter), { threadId: "t3" });
  expect(summarize(await collectUpdates(session.send("Bob"))).at(-1)).toBe("done success");
  expect(transcript(session.messages).at(-1)).toBe("assistant: Nice to meet you.");
  expect(() => {
    Reflect.apply(inProcessEndpoint, undefined, [{}]);
  }).toThrow("inProcessEndpoint: expected a fetch handler or an agent (an object with a run method), but got an object without a run method");
});
