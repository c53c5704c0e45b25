/** Helpers for the Session's queue tests (docs/queue.md#in-the-client): the scripted agent on a store-backed handler with `identify` on loopback, and sessions on its thread. */
import { ManualClock } from "../../server/store/manualClock";
import { serveStored } from "../../http/durable/support";
import { identifyByHeader } from "../../http/threads/support";
import { scriptedAgent } from "../../http/queue/support";
import { sessionOn } from "../branches/support";

/** The scripted agent (`hold`, `listen`, …: test/http/queue/support.ts) served with a memory store and `identify`, and a session of alice's on thread `t`. */
export async function serveQueue() {
  const { agent, script } = scriptedAgent();
  const served = await serveStored(agent, { identify: identifyByHeader, clock: new ManualClock() });
  return { ...served, script, session: (prefix = "m") => sessionOn(served.url, "t", { prefix }) };
}

/** The texts of a session's user messages, in order. */
export const userTexts = (session: { readonly messages: readonly { readonly role: string; readonly content?: unknown }[] }): unknown[] =>
  session.messages.filter((message) => message.role === "user").map((message) => message.content);
