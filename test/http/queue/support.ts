/** Helpers for the queue tests (docs/queue.md) over loopback HTTP: an agent the tests hold and release, posts with a policy, and a waiting message's stream read apart into notices and events. */
import { firstValueFrom, from, lastValueFrom, toArray } from "rxjs";
import { runAgentInput } from "../../../src/protocol/build";
import type { Event } from "../../../src/protocol/events";
import type { RunAgentInput } from "../../../src/protocol/input";
import type { Message } from "../../../src/protocol/messages";
import { QUEUE_NOTICE_EVENT, whileRunningForwardedProps, type QueueNotice, type WhileRunning } from "../../../src/protocol/queueMeta";
import { success, interrupted, type Agent } from "../../../src/server/Agent";
import { decodeSseFrames } from "../../../src/wire/decodeSseFrames";
import { gate, openStream, type OpenStream } from "../durable/support";

/** What the scripted agent saw and the gates that hold its runs. */
export interface Script {
  /** Every run's effective input, in the order the runs began. */
  readonly inputs: RunAgentInput[];
  /** Opens the gate of the held run `runId`. */
  release(runId: string): void;
  /** Resolves once the held run `runId` reached its gate. */
  reached(runId: string): Promise<void>;
}

/**
 * An agent whose last user message says what it does: `hold` opens a tool call `lookup` and waits
 * for `release(runId)` (or a stop), then answers; `listen` waits for a steered message on
 * `ctx.incoming$` and answers it; `confirm` ends with an interrupt (a resume answers it); `ask`
 * leaves a client tool call `ask_user` for the client; anything else is answered `answer to <text>`.
 */
export function scriptedAgent(): { readonly agent: Agent; readonly script: Script } {
  const inputs: RunAgentInput[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const arrivals = new Map<string, ReturnType<typeof gate>>();
  const gateOf = (map: Map<string, ReturnType<typeof gate>>, runId: string) => {
    const existing = map.get(runId);
    if (existing !== undefined) return existing;
    const made = gate();
    map.set(runId, made);
    return made;
  };
  const agent: Agent = {
    async run(ctx) {
      inputs.push(ctx.input);
      const text = ctx.lastUserText() ?? "";
      if (text === "hold") {
        const call = ctx.toolCall("lookup");
        call.argsJson({ q: "x" });
        gateOf(arrivals, ctx.runId).open();
        const stopped = new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve(), { once: true }));
        await Promise.race([gateOf(gates, ctx.runId).opened, stopped]);
        if (ctx.signal.aborted) return success();
        call.end();
        call.result("found");
      } else if (text === "listen") {
        gateOf(arrivals, ctx.runId).open();
        const heard = await firstValueFrom(ctx.incoming$);
        ctx.say(`heard ${typeof heard.content === "string" ? heard.content : "parts"}`);
        return success();
      } else if (text === "confirm" && !ctx.isResume) {
        return interrupted(ctx.interrupt({ reason: "confirmation" }));
      } else if (text === "ask") {
        const call = ctx.toolCall("ask_user");
        call.argsJson({ question: "which?" });
        call.end();
        return success();
      }
      ctx.say(`answer to ${ctx.isResume ? "resume" : text}`);
      return success();
    },
  };
  return {
    agent,
    script: {
      inputs,
      release: (runId) => gateOf(gates, runId).open(),
      reached: (runId) => gateOf(arrivals, runId).opened,
    },
  };
}

/** A user message `u-<runId>` saying `text`. */
export function userMessage(runId: string, text: string): Message {
  return { id: `u-${runId}`, role: "user", content: text };
}

/** The input of run `runId` on thread `t` that adds one user message, sent with `policy`. */
export function sendInput(runId: string, text: string, policy: WhileRunning = "refuse", extra: Partial<RunAgentInput> = {}): RunAgentInput {
  return runAgentInput("t", runId, { messages: [userMessage(runId, text)], forwardedProps: whileRunningForwardedProps(policy), ...extra });
}

/** Posts `input` to the run endpoint and hands back the answer as it arrives. */
export function post(url: string, input: RunAgentInput, headers: Record<string, string> = {}): Promise<OpenStream> {
  return openStream(url, input, headers);
}

/** A waiting message's stream read apart: its notices, and the events that followed (with their ids). */
export interface QueuedRead {
  readonly notices: QueueNotice[];
  readonly events: Event[];
  readonly ids: (string | undefined)[];
}

/** Splits an SSE text into its `agui-rx-queue` notices and its unnamed frames (events). */
export async function readQueued(text: string): Promise<QueuedRead> {
  const frames = await lastValueFrom(from([text]).pipe(decodeSseFrames(), toArray()));
  const notices: QueueNotice[] = [];
  const events: Event[] = [];
  const ids: (string | undefined)[] = [];
  for (const frame of frames) {
    if (frame.event === QUEUE_NOTICE_EVENT)
      notices.push(JSON.parse(frame.data) as QueueNotice); // test-only: our own server's frames
    else {
      events.push(JSON.parse(frame.data) as Event); // test-only: our own server's frames
      ids.push(frame.id);
    }
  }
  return { notices, events, ids };
}

/** The statuses of `notices`, in order. */
export const statuses = (read: QueuedRead): string[] => read.notices.map((notice) => notice.status);

/** The types of `events`, in order. */
export const types = (events: readonly Event[]): string[] => events.map((event) => event.type);

/** A notice frame's marker in the raw text, to wait for one: `"status":"<status>"`. */
export const noticeOf = (status: string): string => `"status":"${status}"`;
