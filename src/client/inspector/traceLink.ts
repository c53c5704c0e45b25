/** The trace id a run names, and the link to it (docs/observability.md#inspector). */
import type { Event } from "../../protocol/events";
import { ownKeyOf } from "../../protocol/ownKey";

/**
 * The trace id a RUN_STARTED names in its `metadata` under our own key (`{"agui-rx": {"traceId": …}}`),
 * or `undefined` when it names none (another server, a run without tracing) or names something
 * that is not a non-empty string.
 *
 * @example
 * traceIdOf(ev.runStarted("t", "r", { metadata: { "agui-rx": { traceId: "4bf92f3577b34da6a3ce929d0e0e4736" } } })); // "4bf92f…"
 */
export function traceIdOf(event: Event): string | undefined {
  if (event.type !== "RUN_STARTED") return undefined;
  const traceId = ownKeyOf(event.metadata)?.traceId;
  return typeof traceId === "string" && traceId !== "" ? traceId : undefined;
}

/**
 * `template` with every `{traceId}` replaced by `traceId` (URI-encoded).
 *
 * @example
 * traceLinkOf("https://tracing.example/trace/{traceId}", "4bf9"); // "https://tracing.example/trace/4bf9"
 */
export function traceLinkOf(template: string, traceId: string): string {
  return template.split("{traceId}").join(encodeURIComponent(traceId));
}
