/**
 * The trace docs/observability.md#traces shows: the planner served over loopback HTTP with the
 * real SDK, one run (with a `traceparent`) that ends interrupted, then its resume; the finished
 * spans as a tree. `printPlannerTrace.ts` prints it; `docsTrace.test.ts` checks the page shows it.
 */
import { createHandler } from "../../../src/server/http/createHandler";
import { serve } from "../../../src/node/serve";
import { inputOf, planner } from "./planner";
import { registerTracing, spanTree, unregisterTracing } from "./tracing";

/** The attributes shown: every one whose value is the same on each run (no random ids, no times). */
export const SHOWN_ATTRIBUTES = [
  "http.response.status_code",
  "http.response.body.size",
  "gen_ai.agent.name",
  "gen_ai.conversation.id",
  "gen_ai.usage.input_tokens",
  "gen_ai.usage.output_tokens",
  "gen_ai.tool.name",
  "agui_rx.run.id",
  "agui_rx.run.outcome",
  "agui_rx.run.interrupts",
  "agui_rx.run.resumed",
  "agui_rx.run.events",
  "agui_rx.run.bytes",
  "agui_rx.subagent.outcome",
  "agui_rx.tool_call.left_for_client",
] as const;

/** Runs the planner twice (a run, then its resume) and returns the span tree. */
export async function plannerTrace(): Promise<string> {
  const otel = registerTracing();
  const served = await serve(createHandler(planner));
  try {
    const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
    const first = await fetch(served.url, {
      method: "POST",
      headers: { ...headers, traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
      body: JSON.stringify(inputOf("r1")),
    });
    const text = await first.text();
    const interruptId = /"interrupts":\[\{"id":"([^"]+)"/.exec(text)?.[1];
    const second = await fetch(served.url, { method: "POST", headers, body: JSON.stringify(inputOf("r2", { resume: [{ interruptId, status: "resolved" }] })) });
    await second.text();
    return spanTree(otel.spans(), SHOWN_ATTRIBUTES);
  } finally {
    await served.close();
    unregisterTracing();
  }
}
