/**
 * Activity messages (docs/rules.md#activities, docs/rules.md#R24, docs/rules.md#R41): no open or close, only ownership. A replacing snapshot
 * (re)mints the activity under its tag; a delta agrees with the owner recorded.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { continuationConflict } from "./ownership";
import { ownerOf, ownerRecord, type RunScope } from "./VerifierState";

/**
 * ACTIVITY_SNAPSHOT never fails: a replacing one (replace absent or true), or the first sighting
 * of the id, records its tag as the owner (docs/rules.md#R41).
 *
 * @example
 * activitySnapshot(run, ev.activitySnapshot("a1", "progress", { done: 1 })); // undefined
 */
export function activitySnapshot(run: RunScope, event: EventOf<"ACTIVITY_SNAPSHOT">): ProtocolError | undefined {
  const { messageId } = event;
  const { activity } = run.owners;
  // Only a replacing snapshot (re)mints the activity, so only it (or the first sighting) takes ownership.
  if (event.replace !== false || !activity.has(messageId)) {
    activity.set(messageId, ownerRecord(ownerOf(event.subagentRunId), "activity-snapshot"));
  }
  return undefined;
}

/**
 * ACTIVITY_DELTA: needs no snapshot before it (docs/rules.md#R24), but its tag must agree with the activity's
 * recorded owner (docs/rules.md#R41).
 *
 * @example
 * activityDelta(run, ev.activityDelta("a1", "progress", [])); // undefined when a1 has no owner yet
 */
export function activityDelta(run: RunScope, event: EventOf<"ACTIVITY_DELTA">): ProtocolError | undefined {
  const { messageId, subagentRunId: tag } = event;
  return continuationConflict(event, "R41", "activity", messageId, tag, run.owners.activity.get(messageId));
}
