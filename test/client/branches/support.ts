/** Helpers for the Session's branch tests (docs/client.md#branches): a store-backed handler with `identify` on loopback, an agent that says what it saw, and sessions as a principal. */
import { lastValueFrom, toArray } from "rxjs";
import { success, type Agent } from "../../../src/server/Agent";
import { Session } from "../../../src/client/Session";
import { HttpTransport } from "../../../src/client/transports/HttpTransport";
import type { Update } from "../../../src/thread/Update";
import { serveStored } from "../../http/durable/support";
import { as, identifyByHeader } from "../../http/threads/support";
import { counter } from "../support";

/** What the agent was given, per run: the ids and texts of its messages, and the state it started from. */
export interface Seen {
  readonly runId: string;
  readonly messages: readonly string[];
  readonly state: unknown;
}

/**
 * Answers the last user message with `answer to <text>` under the id `a-<runId>`, counts its turns
 * in the state (`{ turns }`), and records what it saw in `seen`.
 */
export function recordingAgent(seen: Seen[]): Agent<{ turns?: number } | undefined> {
  return {
    async run(ctx) {
      seen.push({ runId: ctx.runId, messages: ctx.messages.map((message) => `${message.id}:${textOf(message.content)}`), state: ctx.state });
      ctx.say(`answer to ${ctx.lastUserText() ?? "nothing"}`, { id: `a-${ctx.runId}` });
      ctx.setState({ turns: (ctx.state?.turns ?? 0) + 1 });
      return success();
    },
  };
}

function textOf(content: unknown): string {
  return typeof content === "string" ? content : JSON.stringify(content);
}

/** A handler that owns the history (memory store, `identify` by the `X-User` header) on loopback, and the agent's record. */
export async function serveBranches(options: { readonly identify?: boolean } = {}) {
  const seen: Seen[] = [];
  const served = await serveStored(recordingAgent(seen), options.identify === false ? {} : { identify: identifyByHeader });
  return { ...served, seen };
}

/** A Session of `user` on `threadId` over real HTTP, with readable ids (`<prefix>1`, …). */
export function sessionOn(url: string, threadId: string, options: { readonly user?: string; readonly prefix?: string; readonly historyLimit?: number } = {}) {
  const transport = new HttpTransport(url, { headers: as(options.user ?? "alice") });
  return new Session(transport, {
    threadId,
    newId: counter(options.prefix ?? "m"),
    ...(options.historyLimit === undefined ? {} : { historyLimit: options.historyLimit }),
  });
}

/** Every update of `updates$`, once it ends. */
export function run<S>(updates$: import("rxjs").Observable<Update<S>>): Promise<Update<S>[]> {
  return lastValueFrom(updates$.pipe(toArray()));
}

/** The ids of `session`'s messages. */
export const idsOf = (session: { readonly messages: readonly { readonly id: string }[] }): string[] => session.messages.map((message) => message.id);
