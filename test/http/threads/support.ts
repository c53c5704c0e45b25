/** Helpers for the thread-route tests (docs/threads.md#routes): a store-backed handler with `identify` on loopback, and requests as a principal. */
import { success, type Agent } from "../../../src/server/Agent";
import type { Identify } from "../../../src/server/http/createHandler";
import type { Message } from "../../../src/protocol/messages";
import { framesOf, inputFor } from "../durable/support";
import { ThreadListEvent } from "../../../src/thread/threadList";
import * as E from "fp-ts/Either";

/** The principal is the `X-User` header: enough for tests, where credentials are not the point. */
export const identifyByHeader: Identify = (request) => request.headers.get("x-user") ?? undefined;

/** The headers of a request as `user`. */
export const as = (user: string): Record<string, string> => ({ "X-User": user });

/** An answer as it went over the wire: status, headers (without `date`: the clock is not the thread's), body text. */
export interface WireAnswer {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly text: string;
}

/** Sends `method` to `url` with a JSON body (when given) and reads the whole answer. */
export async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<WireAnswer> {
  const response = await fetch(url, {
    method,
    headers: { Accept: "text/event-stream, application/json", ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: [...response.headers].filter(([name]) => name !== "date"), text };
}

/** The URL of one thread's row: `{url}/threads/{threadId}` with the id percent-encoded. */
export const threadUrl = (url: string, threadId: string): string => `${url}/threads/${encodeURIComponent(threadId)}`;

/** Answers each user message with `answer to <text>` under the id `a-<runId>`, and says how many messages it was given. */
export const replier: Agent = {
  async run(ctx) {
    ctx.say(`answer to ${ctx.lastUserText() ?? "nothing"} (saw ${ctx.messages.length})`, { id: `a-${ctx.runId}` });
    return success();
  },
};

/** Runs `turns` turns on `threadId` as `user`, each posting the whole history so far; resolves with the message ids of the path (and the messages in `history`). */
export async function converse(url: string, user: string, threadId: string, turns: number, history: Message[] = []): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= turns; n++) {
    const input = inputFor(threadId, `r${n}`, `question ${n}`);
    const question: Message = { id: `u-r${n}`, role: "user", content: `question ${n}` };
    const answer = await call("POST", url, { ...input, messages: [...history, question] }, as(user));
    if (answer.status !== 200) throw new Error(`expected turn ${n} of ${threadId} to run, got ${answer.status}: ${answer.text}`);
    const said = /"delta":"(answer to [^"]*)"/.exec(answer.text)?.[1] ?? "";
    history.push(question, { id: `a-r${n}`, role: "assistant", content: said });
    ids.push(question.id, `a-r${n}`);
  }
  return ids;
}

/** Opens the events of `user` and reads them frame by frame. */
export async function openEvents(url: string, user: string) {
  const response = await fetch(`${url}/threads/events`, { headers: { Accept: "text/event-stream", ...as(user) } });
  if (response.body === null) throw new Error(`expected an events stream, got ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let done = false;
  const frames = (): string[] => text.split("\n\n").filter((frame) => frame !== "");
  return {
    response,
    frames,
    /** Reads until a frame satisfies `found` (or the stream ends: then it throws). */
    async until(found: (change: ThreadListEvent) => boolean): Promise<ThreadListEvent[]> {
      for (;;) {
        const changes = frames().map(decodeFrame);
        if (changes.some(found)) return changes;
        if (done) throw new Error(`expected a matching change, but the stream ended after ${text}`);
        const next = await reader.read();
        if (next.done) done = true;
        else text += decoder.decode(next.value, { stream: true });
      }
    },
    async rest(): Promise<string[]> {
      while (!done) {
        const next = await reader.read();
        if (next.done) done = true;
        else text += decoder.decode(next.value, { stream: true });
      }
      return frames();
    },
    cancel: () => reader.cancel(),
  };
}

/** One frame of the events stream, decoded (a frame with an `id:` or a bad body throws). */
export function decodeFrame(frame: string): ThreadListEvent {
  if (!frame.startsWith("data: ")) throw new Error(`expected a data-only frame (no id:), got ${JSON.stringify(frame)}`);
  const decoded = ThreadListEvent.decode(JSON.parse(frame.slice("data: ".length)));
  if (E.isLeft(decoded)) throw new Error(`expected a ThreadListEvent, got ${frame}`);
  return decoded.right;
}

/**
 * What a `/connect` answer says of the thread (docs/threads.md#joining-a-new-thread): its status, its
 * `AGUI-Connect-Mode` and its events' types; compare with `NEW_THREAD` for a thread the caller never had.
 */
export async function joinOf(answer: WireAnswer): Promise<{ readonly status: number; readonly mode: string | undefined; readonly types: readonly string[] }> {
  const mode = answer.headers.find(([key]) => key === "agui-connect-mode")?.[1];
  const types = answer.status === 200 ? (await framesOf(answer.text)).map((frame) => frame.event.type) : [];
  return { status: answer.status, mode, types };
}

/** `joinOf` a thread the caller never had: 200, mode `new`, an empty thread's prelude (no snapshots). */
export const NEW_THREAD = { status: 200, mode: "new", types: ["RUN_STARTED", "RUN_FINISHED"] } as const;
