/**
 * The snapshot, activity and special events (docs/wire.md#3.4 to docs/wire.md#3.6).
 *
 * Each event is three declarations (see `events.ts`): `<Name>EventCodec`, the codec as built
 * (module-private); the interface `<Name>Event`, `t.TypeOf` of it, the name an editor shows; and the
 * same codec exported under that name, typed to decode the interface (`NamedStructCodec`).
 */
import * as t from "io-ts";
import { JsonObject, list, Present, withDefault } from "./codec";
import type { NamedStructCodec } from "./namedCodec";
import { JsonPatch } from "./common";
import { DEFAULT_ACTIVITY_REPLACE } from "./defaults";
import { attributed, baseFields, event } from "./eventFields";
import { Message } from "./messages";

// State and message snapshots (docs/wire.md#3.4)
// `snapshot`, `event` and `value` may be `null` but must be present (1.0.0 rejects a missing one; docs/wire.md#3.4, docs/wire.md#3.6).
const StateSnapshotEventCodec = event("STATE_SNAPSHOT", { snapshot: Present }, attributed);
/**
 * Replaces the whole run state (`null` allowed, but present).
 *
 * @example
 * ev.stateSnapshot({ count: 0 })
 */
export interface StateSnapshotEvent extends t.TypeOf<typeof StateSnapshotEventCodec> {}
export const StateSnapshotEvent: NamedStructCodec<StateSnapshotEvent> = StateSnapshotEventCodec;

const StateDeltaEventCodec = event("STATE_DELTA", { delta: JsonPatch }, attributed);
/**
 * Changes the run state by an RFC 6902 patch, applied all or nothing.
 *
 * @example
 * ev.stateDelta([{ op: "replace", path: "/count", value: 1 }])
 */
export interface StateDeltaEvent extends t.TypeOf<typeof StateDeltaEventCodec> {}
export const StateDeltaEvent: NamedStructCodec<StateDeltaEvent> = StateDeltaEventCodec;

const MessagesSnapshotEventCodec = event("MESSAGES_SNAPSHOT", { messages: list(Message) }, baseFields);
/**
 * The producer's complete view of the conversation; merged by id (docs/wire.md#3.4).
 *
 * @example
 * ev.messagesSnapshot([{ id: "m1", role: "user", content: "Hi" }])
 */
export interface MessagesSnapshotEvent extends t.TypeOf<typeof MessagesSnapshotEventCodec> {}
export const MessagesSnapshotEvent: NamedStructCodec<MessagesSnapshotEvent> = MessagesSnapshotEventCodec;

// Activity (docs/wire.md#3.5)
const ActivitySnapshotEventCodec = event(
  "ACTIVITY_SNAPSHOT",
  { messageId: t.string, activityType: t.string, content: JsonObject, replace: withDefault(t.boolean, DEFAULT_ACTIVITY_REPLACE) },
  attributed,
);
/**
 * Creates or replaces the activity message `messageId`; `replace` is filled in (`true`) on decode.
 *
 * @example
 * ev.activitySnapshot("a1", "PLAN", { steps: [] })
 */
export interface ActivitySnapshotEvent extends t.TypeOf<typeof ActivitySnapshotEventCodec> {}
export const ActivitySnapshotEvent: NamedStructCodec<ActivitySnapshotEvent> = ActivitySnapshotEventCodec;

const ActivityDeltaEventCodec = event("ACTIVITY_DELTA", { messageId: t.string, activityType: t.string, patch: JsonPatch }, attributed);
/**
 * Patches the `content` of the activity message `messageId`.
 *
 * @example
 * ev.activityDelta("a1", "PLAN", [{ op: "add", path: "/steps/-", value: "search" }])
 */
export interface ActivityDeltaEvent extends t.TypeOf<typeof ActivityDeltaEventCodec> {}
export const ActivityDeltaEvent: NamedStructCodec<ActivityDeltaEvent> = ActivityDeltaEventCodec;

// Special (docs/wire.md#3.6)
const RawEventCodec = event("RAW", { event: Present }, { ...attributed, source: t.string });
/**
 * Passes an event from a foreign system through, untouched.
 *
 * @example
 * ev.raw({ kind: "tick" }, { source: "langgraph" })
 */
export interface RawEvent extends t.TypeOf<typeof RawEventCodec> {}
export const RawEvent: NamedStructCodec<RawEvent> = RawEventCodec;

const CustomEventCodec = event("CUSTOM", { name: t.string, value: Present }, attributed);
/**
 * An application-defined event (`value` may be `null`, but present).
 *
 * @example
 * ev.custom("progress", { percent: 40 })
 */
export interface CustomEvent extends t.TypeOf<typeof CustomEventCodec> {}
export const CustomEvent: NamedStructCodec<CustomEvent> = CustomEventCodec;
