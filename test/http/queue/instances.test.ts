/**
 * Two handlers on one memory store (two instances of a server) and the official client on a thread
 * with waiting messages (docs/queue.md#who-starts-a-waiting-message, docs/queue.md#what-every-tab-sees).
 */
import { HttpAgent, runHttpRequest, transformHttpEventStream, type RunAgentInput as OfficialInput } from "@ag-ui/client";
import { memoryStore } from "../../../src/server/store/memory/memoryStore";
import { ManualClock } from "../../server/store/manualClock";
import { closeAll, openStream, serveStored } from "../durable/support";
import { noticeOf, post, readQueued, scriptedAgent, sendInput, statuses } from "./support";

afterEach(closeAll);

test("two instances on one store: each waiting message starts exactly once, whichever instance notices first", async () => {
  const store = memoryStore();
  const { agent, script } = scriptedAgent();
  const one = await serveStored(agent, { store, clock: new ManualClock() });
  const two = await serveStored(agent, { store, clock: new ManualClock() });
  const first = await post(one.url, sendInput("r1", "hold"));
  await script.reached("r1");
  const waiting = [
    await post(two.url, sendInput("r2", "a", "queue")),
    await post(one.url, sendInput("r3", "b", "queue")),
    await post(two.url, sendInput("r4", "c", "queue")),
  ];
  await Promise.all(waiting.map((stream) => stream.until(noticeOf("queued"))));
  // each instance also follows the other's messages (connect with queued), so both try every drain
  const followers = [
    await openStream(`${one.url}/connect`, { threadId: "t", queued: "r2" }),
    await openStream(`${two.url}/connect`, { threadId: "t", queued: "r3" }),
  ];
  await Promise.all(followers.map((stream) => stream.until(noticeOf("queued"))));

  script.release("r1");
  await first.rest();
  const reads = await Promise.all([...waiting, ...followers].map(async (stream) => readQueued(await stream.rest())));
  for (const read of reads) expect(statuses(read).slice(-1)).toEqual(["started"]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "r2", "r3", "r4"]);
});

/** The official HttpAgent that can join a stored thread: its `connect` posts `{ threadId }` to `{url}/connect`. */
class ConnectingHttpAgent extends HttpAgent {
  protected override connect(input: OfficialInput): ReturnType<HttpAgent["run"]> {
    const request = {
      method: "POST",
      headers: { ...this.headers, "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ threadId: input.threadId }),
    };
    return transformHttpEventStream(runHttpRequest(() => fetch(`${this.url}/connect`, request)));
  }
}

test("the official HttpAgent reads a thread with waiting messages as valid streams; its plain send gets 409, its tool result passes the queue", async () => {
  const { agent, script } = scriptedAgent();
  const { url } = await serveStored(agent, { clock: new ManualClock() });
  const askUser = { name: "ask_user", description: "asks the user", parameters: { type: "object" } };
  await post(url, sendInput("r1", "ask", "refuse", { tools: [askUser] })).then((stream) => stream.rest());
  const waiting = await post(url, sendInput("r2", "meanwhile", "queue"));
  await waiting.until(noticeOf("waiting"));

  const official = new ConnectingHttpAgent({ url, threadId: "t" });
  await official.connectAgent(); // the official verifier runs inside: the prelude with our queue metadata is a valid stream
  const call = official.messages.flatMap((message) => (message.role === "assistant" ? (message.toolCalls ?? []) : []))[0];
  expect(call?.function.name).toBe("ask_user");

  official.addMessage({ id: "u-o1", role: "user", content: "me too" });
  const quiet = jest.spyOn(console, "error").mockImplementation(() => undefined); // the official client logs the refusal it rejects with
  await expect(official.runAgent({ runId: "o1" })).rejects.toThrow(/409/);
  quiet.mockRestore();
  official.setMessages(official.messages.filter((message) => message.id !== "u-o1"));
  official.addMessage({ id: "res-o2", role: "tool", toolCallId: call.id, content: "this one" });
  await official.runAgent({ runId: "o2" });
  expect(statuses(await readQueued(await waiting.rest())).slice(-1)).toEqual(["started"]);
  expect(script.inputs.map((input) => input.runId)).toEqual(["r1", "o2", "r2"]);

  const joined = new ConnectingHttpAgent({ url, threadId: "t" });
  await joined.connectAgent();
  expect(joined.messages.some((message) => message.id === "u-r2")).toBe(true);
});
