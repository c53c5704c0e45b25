/** A fork's RUN_STARTED read with what the session posted (docs/threads.md#branches-on-the-wire), so that the reducer's cut keeps the session's own new messages. */
import { forkMarkerOf } from "../../protocol/branchMeta";
import type { Event } from "../../protocol/events";
import type { RunAgentInput } from "../../protocol/input";

/**
 * `item` as the reducer should apply it in the session that posted `posted`: a RUN_STARTED with a
 * fork marker but without `input` (a server need not echo it) gets `posted` as its input. The
 * reducer cuts the path after the fork point and then appends the input's messages it does not
 * hold (docs/rules.md#A15): without the input the edit's own message, which the session showed
 * before the run, would be cut away with the old branch. Anything else passes as it is.
 *
 * @example
 * transport.run(input).pipe(map((item) => withPostedInput(item, input)));
 */
export function withPostedInput<T>(item: Event | T, posted: RunAgentInput): Event | T {
  if (!isEvent(item) || item.type !== "RUN_STARTED" || item.input !== undefined || forkMarkerOf(item.metadata) === undefined) return item;
  return { ...item, input: posted };
}

/** Whether a transport item is an event (not a DecodeWarning or a ConnectionNotice, which are class instances without a `type`). */
function isEvent<T>(item: Event | T): item is Event {
  return typeof item === "object" && item !== null && "type" in item;
}
