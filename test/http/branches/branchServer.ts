/**
 * The server side of the branch property tests: a store-backed handler with `identify` on
 * loopback whose agent records every run's input and plays `answerOf`, and the wire reads the
 * tests check the model against (`/connect` with and without a limit, `/history` pages, the
 * switch route).
 */
import { branchGroupsOf, type BranchGroup } from "../../../src/protocol/branchMeta";
import { HISTORY_OLDER_HEADER } from "../../../src/protocol/connectMode";
import { success, type Agent } from "../../../src/server/Agent";
import { createHandler } from "../../../src/server/http/createHandler";
import type { ThreadStore } from "../../../src/server/store/ThreadStore";
import { serve, type Served } from "../../../src/node/serve";
import { framesOf } from "../durable/support";
import { as, call, identifyByHeader, threadUrl } from "../threads/support";
import { plain, type PlainMessage } from "./branchModel";
import { answerOf, playAnswer } from "./scriptedAnswer";

/** The principal every request of the branch tests is made as. */
export const USER = "alice";

/** What one run's agent was given. */
export interface RecordedRun {
  readonly messages: readonly PlainMessage[];
  readonly state: unknown;
}

/** A served handler, the runs its agent saw, and its store. */
export interface BranchServer {
  /** The agent endpoint (`…/agent`). */
  readonly url: string;
  readonly runs: readonly RecordedRun[];
  readonly store: ThreadStore;
  readonly served: Served;
}

/**
 * An agent that records its input and answers run `n` (counted from 1) with `answerOf(n, …)`:
 * its messages, then its state event, if any.
 */
function recordingAgent(runs: RecordedRun[]): Agent {
  return {
    async run(ctx) {
      runs.push({ messages: ctx.input.messages.map(plain), state: ctx.input.state });
      playAnswer(ctx, answerOf(runs.length, ctx.lastUserText() ?? "", ctx.input.state));
      return success();
    },
  };
}

/**
 * Serves the recording agent over `store` on a free loopback port (close it with `served.close()`).
 *
 * @example
 * const server = await serveBranches(memoryStore());
 */
export async function serveBranches(store: ThreadStore): Promise<BranchServer> {
  const runs: RecordedRun[] = [];
  const served = await serve(createHandler(recordingAgent(runs), { store, identify: identifyByHeader, onRunError: () => undefined }));
  return { url: `${served.url}agent`, runs, store, served };
}

/** What a `/connect` prelude shows: the path's messages, its sibling groups, the state, and whether older messages exist. */
export interface ConnectedThread {
  readonly messages: readonly PlainMessage[];
  readonly groups: readonly BranchGroup[] | undefined;
  readonly state: unknown;
  readonly hasOlder: boolean | undefined;
}

/**
 * Reads `POST {url}/connect` for `threadId` (the last `limit` messages when given).
 *
 * @example
 * const { messages, groups } = await connected(server.url, "t");
 */
export async function connected(url: string, threadId: string, limit?: number): Promise<ConnectedThread> {
  const answer = await call("POST", `${url}/connect`, { threadId, ...(limit === undefined ? {} : { limit }) }, as(USER));
  if (answer.status !== 200) throw new Error(`expected /connect of ${threadId} to answer 200, got ${answer.status}: ${answer.text}`);
  const frames = await framesOf(answer.text);
  const snapshot = frames.find((frame) => frame.event.type === "MESSAGES_SNAPSHOT")?.event;
  if (snapshot?.type !== "MESSAGES_SNAPSHOT") throw new Error(`expected a MESSAGES_SNAPSHOT in ${answer.text}`);
  const state = frames.find((frame) => frame.event.type === "STATE_SNAPSHOT")?.event;
  const older = answer.headers.find(([name]) => name.toLowerCase() === HISTORY_OLDER_HEADER.toLowerCase())?.[1];
  return {
    messages: snapshot.messages.map(plain),
    groups: branchGroupsOf(snapshot.metadata),
    state: state?.type === "STATE_SNAPSHOT" ? state.snapshot : undefined,
    hasOlder: older === undefined ? undefined : older === "true",
  };
}

/**
 * The whole selected path read as a client scrolling up reads it: `/connect` with `limit`, then
 * `POST {url}/history` pages of `limit` before the oldest message held until none is older.
 *
 * @example
 * expect(await walkedHistory(server.url, "t", 2)).toEqual(model.messages());
 */
export async function walkedHistory(url: string, threadId: string, limit: number): Promise<PlainMessage[]> {
  const first = await connected(url, threadId, limit);
  const held = [...first.messages];
  let hasOlder = first.hasOlder ?? false;
  while (hasOlder) {
    const answer = await call("POST", `${url}/history`, { threadId, before: held[0].id, limit }, as(USER));
    if (answer.status !== 200) throw new Error(`expected /history before ${held[0].id} to answer 200, got ${answer.status}: ${answer.text}`);
    const page = JSON.parse(answer.text) as { readonly messages: readonly PlainMessage[]; readonly hasOlder: boolean }; // test-only: checked by the comparison
    if (page.messages.length === 0) throw new Error(`expected older messages before ${held[0].id}, since the last answer said so`);
    held.unshift(...page.messages.map(plain));
    hasOlder = page.hasOlder;
  }
  return held;
}

/**
 * Shows sibling `index` of the group of `messageId` through `POST {url}/threads/{threadId}/path`; resolves the answer's `result`.
 *
 * @example
 * expect(await switchPath(server.url, "t", "a2", 0)).toBe("switched");
 */
export async function switchPath(url: string, threadId: string, messageId: string, index: number): Promise<string> {
  const answer = await call("POST", `${threadUrl(url, threadId)}/path`, { messageId, index }, as(USER));
  if (answer.status !== 200) throw new Error(`expected the switch to ${messageId}#${index} to answer 200, got ${answer.status}: ${answer.text}`);
  return (JSON.parse(answer.text) as { readonly result: string }).result; // test-only: our own route's body
}
