/**
 * The official `@ag-ui/client` HttpAgent as a client of the branch property tests
 * (docs/threads.md#edit-and-regenerate): it posts the whole path, so an edit is the path with the
 * edited user message in place (same id, new content) and nothing after it, a regenerate is the
 * path up to the user message; a switch is our route, then a reload: a new HttpAgent whose
 * `connectAgent` reads `POST {url}/connect`.
 */
import { HttpAgent, runHttpRequest, transformHttpEventStream, type Message, type RunAgentInput } from "@ag-ui/client";
import { plain } from "./branchModel";
import type { BranchOp } from "./branchOps";
import type { BranchClient } from "./branchRunner";
import { switchPath, USER } from "./branchServer";
import { as } from "../threads/support";

/** An HttpAgent that can join a stored thread: its `connect` posts `{ threadId }` to `{url}/connect`. */
class ConnectingHttpAgent extends HttpAgent {
  protected override connect(input: RunAgentInput): ReturnType<HttpAgent["run"]> {
    const request = {
      method: "POST",
      headers: { ...this.headers, "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify({ threadId: input.threadId }),
    };
    return transformHttpEventStream(runHttpRequest(() => fetch(`${this.url}/connect`, request)));
  }
}

/**
 * The official client on `threadId` of the handler at `url`, as the runner drives it.
 *
 * @example
 * await playSeed(seed, STEPS, [{ server, client: officialClient(server.url, "t") }]);
 */
export function officialClient(url: string, threadId: string): BranchClient {
  let agent = new ConnectingHttpAgent({ url, threadId, headers: as(USER) });
  const positionOf = (id: string): number => {
    const at = agent.messages.findIndex((message) => message.id === id);
    if (at < 0) throw new Error(`expected the official client to hold message ${id}`);
    return at;
  };
  const run = async (messages?: Message[]): Promise<void> => {
    if (messages !== undefined) agent.setMessages(messages);
    await agent.runAgent();
  };
  return {
    name: "the official HttpAgent",
    async apply(op: BranchOp, step: number): Promise<string | undefined> {
      switch (op.kind) {
        case "send": {
          const id = `u${step}`;
          agent.addMessage({ id, role: "user", content: op.content });
          await run();
          return id;
        }
        case "edit": {
          const at = positionOf(op.userId);
          await run([...agent.messages.slice(0, at), { id: op.userId, role: "user", content: op.content }]);
          return op.userId;
        }
        case "regenerate":
          await run(agent.messages.slice(0, positionOf(op.userId) + 1));
          return undefined;
        case "switch": {
          const result = await switchPath(url, threadId, op.messageId, op.index);
          if (result !== "switched") throw new Error(`expected the switch to ${op.messageId}#${op.index} to switch, got ${result}`);
          agent = new ConnectingHttpAgent({ url, threadId, headers: as(USER) });
          await agent.connectAgent();
          return undefined;
        }
        case "loadOlder":
          return undefined; // the official client has no paginated history: the runner walks the pages over the wire
      }
    },
    view: () => ({ messages: agent.messages.map(plain), state: agent.state }),
  };
}
