/** The one test for a run's end, shared by the stores, the HTTP handler, the driver and the client's reconnection. */
import type { Event, EventOf } from "../protocol/events";

/**
 * Whether `event` ends a run (RUN_FINISHED or RUN_ERROR); it narrows `event` to those two.
 *
 * @example
 * isTerminal(ev.runError("boom")); // true
 */
export function isTerminal(event: Event): event is EventOf<"RUN_FINISHED" | "RUN_ERROR"> {
  return event.type === "RUN_FINISHED" || event.type === "RUN_ERROR";
}
