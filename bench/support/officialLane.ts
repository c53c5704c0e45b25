/**
 * The official client as its users run it, for the client bench: `HttpAgent.runAgent` of
 * `@ag-ui/client` 1.0.0 with an in-memory `fetch` (the agent's own `fetch` option) that answers
 * with the workload's SSE bytes. Everything after the network runs as in an app: the HTTP event
 * stream, `parseSSEStream`, chunk transformation, verification, `defaultApplyEvents` and
 * `processApplyEvents` writing each mutation back to `agent.messages` / `agent.state`. Run it
 * without NODE_ENV set, as `npm run bench` does: with `development` or `test` the official client
 * also clones and freezes the inputs of every subscriber call, which is slower still.
 */
import { HttpAgent } from "@ag-ui/client";
import type { Thread } from "./checkResult";
import { RUN, THREAD, USER } from "./clientWorkloads";

/**
 * A difference between what the official client builds and what the protocol (and our
 * generator) says, on the bench's workloads: undone on the official result before the check,
 * named in the suite's output so it cannot hide. Empty while the official client builds exactly
 * the expected thread on every workload (as it does with 1.0.0: checked on every run).
 */
export interface KnownDifference {
  readonly name: string;
  /** Returns the official thread with this difference undone. */
  readonly undo: (thread: Thread) => Thread;
}

/**
 * The official client's known differences on these workloads (none with @ag-ui/client 1.0.0; the
 * differences of docs/client.md concern failures and invalid streams, which no workload has).
 *
 * @example
 * const thread = OFFICIAL_KNOWN_DIFFERENCES.reduce((t, d) => d.undo(t), await runOfficialAgent(bytes));
 */
export const OFFICIAL_KNOWN_DIFFERENCES: readonly KnownDifference[] = [];

/**
 * Runs `HttpAgent.runAgent` over `bytes` as the answer to its POST, starting from `[USER]` as our
 * Session does; resolves with the agent's messages and state once the run has ended.
 *
 * @example
 * const { messages, state } = await runOfficialAgent(new TextEncoder().encode(body));
 */
export async function runOfficialAgent(bytes: Uint8Array<ArrayBuffer>): Promise<Thread> {
  const agent = new HttpAgent({
    url: "http://bench.invalid/agent",
    threadId: THREAD,
    initialMessages: [USER],
    // One chunk with the whole body, as a fast network delivers a short answer: no socket, no copy.
    fetch: async () => new Response(bytes, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
  });
  await agent.runAgent({ runId: RUN });
  return OFFICIAL_KNOWN_DIFFERENCES.reduce<Thread>((thread, difference) => difference.undo(thread), { messages: agent.messages, state: agent.state });
}
