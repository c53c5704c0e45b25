/** What every event codec is made of (docs/wire.md#1.2, docs/wire.md#1.5): the base members and the `event` builder. */
import * as t from "io-ts";
import { struct, type StructCodec } from "./codec";
import { Metadata } from "./common";

/** Members every event may carry (docs/wire.md#1.2). */
export const baseFields = { timestamp: t.number, rawEvent: t.unknown, metadata: Metadata };

/** Members of an event that may be attributed to a subagent (docs/wire.md#1.5). */
export const attributed = { ...baseFields, subagentRunId: t.string };

/**
 * The codec of one event type: `type` is the literal, then the required and optional members.
 *
 * @example
 * const StepStartedEventCodec = event("STEP_STARTED", { stepName: t.string }, attributed);
 */
export const event = <T extends string, R extends t.Props, O extends t.Props>(type: T, required: R, optional: O): StructCodec<{ type: t.LiteralC<T> } & R, O> =>
  struct(type, { type: t.literal(type), ...required }, optional);
