/** Helpers for the branch tests over loopback HTTP: an agent that answers deterministically and keeps what it saw, and an official client that can join a thread. */
import { HttpAgent, runHttpRequest, transformHttpEventStream, type RunAgentInput as OfficialInput } from "@ag-ui/client";
import type { RunAgentInput } from "../../../src/protocol/input";
import { interrupted, success, type Agent } from "../../../src/server/Agent";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import type { ThreadSnapshot } from "../../../src/thread/ThreadSnapshot";

/** What the agent saw in each run: its effective input (messages and state), in run order. */
export interface Seen {
  readonly inputs: RunAgentInput[];
}

/**
 * Answers the last user message with `answer to <text>` under the id `a-<runId>`, and appends its
 * run id to the state's `runs` (so the state tells which runs led to it). A user message saying
 * `confirm` is answered with an interrupt `i-<runId>` instead, and a resume with `resumed: <status>`. `pause`, when given, is awaited
 * after the answer's first words in the run it names.
 */
export function echoAgent(seen: Seen, pause?: { readonly runId: string; readonly reached: () => void; readonly opened: Promise<void> }): Agent {
  return {
    async run(ctx) {
      seen.inputs.push(ctx.input);
      const text = ctx.lastUserText() ?? "nothing";
      const before = (ctx.input.state as { runs?: string[] } | undefined)?.runs ?? []; // test-only: this agent writes that shape
      ctx.setState({ runs: [...before, ctx.runId] });
      const [answer] = ctx.resume;
      if (answer !== undefined) {
        ctx.say(`resumed: ${answer.status}`, { id: `a-${ctx.runId}` });
        return success();
      }
      if (text === "confirm") {
        ctx.say("Sure?", { id: `a-${ctx.runId}` });
        return interrupted(ctx.interrupt({ id: `i-${ctx.runId}`, reason: "confirmation" }));
      }
      if (pause?.runId === ctx.runId) {
        const answer = ctx.assistantMessage({ id: `a-${ctx.runId}` });
        answer.delta("answer to ");
        pause.reached();
        await pause.opened;
        answer.delta(text);
        answer.end();
        return success();
      }
      ctx.say(`answer to ${text}`, { id: `a-${ctx.runId}` });
      return success();
    },
  };
}

/** The thread's snapshot as the store holds it now. */
export async function snapshotOf(store: ThreadStore, threadId: string): Promise<ThreadSnapshot> {
  const read = await store.read(threadId);
  if (read?.kind !== "snapshot") throw new Error(`expected a snapshot of ${threadId}, got ${read?.kind}`);
  return read.snapshot;
}

/**
 * The official `HttpAgent`, joining its thread with `connectAgent()` through `POST {url}/connect`
 * (the official client leaves `connect` to implementations).
 */
export class JoiningAgent extends HttpAgent {
  protected override connect(input: OfficialInput) {
    return transformHttpEventStream(
      runHttpRequest(() =>
        fetch(`${this.url}/connect`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
          body: JSON.stringify({ threadId: input.threadId }),
        }),
      ),
    );
  }
}
