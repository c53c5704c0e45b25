/**
 * docs/rules.md#R8 to docs/rules.md#R13 (and docs/rules.md#R22's role check), field sanity: members that decoding would have rejected, checked again for
 * in-process producers that hand objects straight to the verifier (`verifyStep` runs these before
 * the ordering rules).
 */
import type { Event, EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { describeValue, fail, quote } from "./report";

/**
 * docs/rules.md#R8 to docs/rules.md#R13, docs/rules.md#R22's role: members that decoding would have rejected, checked again for in-process producers
 * that hand objects straight to the verifier. Members are read through `Reflect.get` as `unknown`
 * because such producers may break the static types.
 *
 * @example
 * checkFieldSanity({ ...ev.textMessageStart("m1"), subagentRunId: null }); // ProtocolError docs/rules.md#R8
 */
export function checkFieldSanity(event: Event): ProtocolError | undefined {
  const { type } = event;
  if (read(event, "subagentRunId") === null) {
    return fail("field-sanity", "R8", event, `${type} with subagentRunId null; expected a string, or no subagentRunId (the parent agent)`);
  }
  switch (type) {
    case "SUBAGENT_STARTED":
      return (
        requireString(event, "subagentRunId") ??
        requireString(event, "name") ??
        rejectNulls(event, ["description", "parentSubagentRunId", "parentToolCallId", "parentMessageId"])
      );
    case "SUBAGENT_FINISHED":
      return requireString(event, "subagentRunId") ?? rejectNulls(event, ["outcome"]) ?? checkSubagentOutcome(event);
    case "SUBAGENT_ERROR":
      return requireString(event, "subagentRunId") ?? requireString(event, "message") ?? rejectNulls(event, ["code"]);
    case "RUN_FINISHED":
      return checkInterruptTags(event);
    case "MESSAGES_SNAPSHOT":
      return checkMessageTags(event, event.messages, "messages");
    case "RUN_STARTED":
      return event.input === undefined ? undefined : checkMessageTags(event, read(event.input, "messages"), "input.messages");
    case "REASONING_MESSAGE_START":
      return checkReasoningRole(event);
    default:
      return undefined;
  }
}

/**
 * `value[key]` read as `unknown`, for values whose static type an in-process producer may have broken.
 *
 * @example
 * read({ id: 1 }, "id"); // 1
 */
export function read(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

function requireString(event: Event, key: string): ProtocolError | undefined {
  const value = read(event, key);
  if (typeof value === "string") return undefined;
  return fail("field-sanity", "R10", event, `${event.type} needs a string ${key} ("" is fine), but got ${describeValue(value)}`);
}

function rejectNulls(event: Event, keys: readonly string[]): ProtocolError | undefined {
  for (const key of keys) {
    if (read(event, key) === null) {
      return fail("field-sanity", "R11", event, `${event.type} with ${key} null; expected a value, or no ${key} at all`);
    }
  }
  return undefined;
}

/** docs/rules.md#R12: a present SUBAGENT_FINISHED outcome is `{type: "success"}` or `{type: "suspended", interruptIds?: string[]}`. */
function checkSubagentOutcome(event: EventOf<"SUBAGENT_FINISHED">): ProtocolError | undefined {
  const outcome: unknown = read(event, "outcome");
  if (outcome === undefined) return undefined;
  const kind = read(outcome, "type");
  if (typeof outcome !== "object" || (kind !== "success" && kind !== "suspended")) {
    return fail("field-sanity", "R12", event, `SUBAGENT_FINISHED outcome must be {type: "success"} or {type: "suspended"}, but got ${describeValue(outcome)}`);
  }
  const ids = read(outcome, "interruptIds");
  if (ids !== undefined && !(Array.isArray(ids) && ids.every((id) => typeof id === "string"))) {
    return fail("field-sanity", "R12", event, `SUBAGENT_FINISHED outcome.interruptIds must be absent or an array of strings, but got ${describeValue(ids)}`);
  }
  return undefined;
}

/** docs/rules.md#R13: no interrupt of an RUN_FINISHED interrupt outcome carries `subagentRunId: null`. */
function checkInterruptTags(event: EventOf<"RUN_FINISHED">): ProtocolError | undefined {
  const outcome: unknown = read(event, "outcome");
  const interrupts = read(outcome, "interrupts");
  if (read(outcome, "type") !== "interrupt" || !Array.isArray(interrupts)) return undefined;
  return nullTagIn(event, interrupts, "R13", (id) => `RUN_FINISHED interrupt ${id}`);
}

/**
 * docs/rules.md#R22 (docs/rules.md#R22): REASONING_MESSAGE_START's role is `reasoning`, the one value the schema allows. Decoding
 * fails on a known role of other messages (a malformed known value: conformance stream
 * `reasoning-message-wrong-role-fatal`) and drops the event on an unknown one; an in-process
 * producer gets neither, so any other value is refused here.
 */
function checkReasoningRole(event: EventOf<"REASONING_MESSAGE_START">): ProtocolError | undefined {
  const role = read(event, "role");
  if (role === "reasoning") return undefined;
  return fail(
    "reasoning",
    "R22",
    event,
    `REASONING_MESSAGE_START ${quote(event.messageId)} with role ${describeValue(role)}; expected "reasoning" (the only role of a reasoning message)`,
  );
}

/** docs/rules.md#R9: no message of a snapshot or input echo carries `subagentRunId: null`. */
function checkMessageTags(event: Event, messages: unknown, where: string): ProtocolError | undefined {
  if (!Array.isArray(messages)) return undefined;
  return nullTagIn(event, messages, "R9", (id) => `${event.type} ${where} holds message ${id}`);
}

/** docs/rules.md#R9, docs/rules.md#R13: the error naming the first of `items` whose `subagentRunId` is `null` (`what` words the item by its quoted id), or `undefined`. */
function nullTagIn(event: Event, items: readonly unknown[], rule: "R9" | "R13", what: (id: string) => string): ProtocolError | undefined {
  for (const item of items) {
    if (read(item, "subagentRunId") === null) {
      return fail("field-sanity", rule, event, `${what(quote(read(item, "id")))} with subagentRunId null; expected a string or no subagentRunId`);
    }
  }
  return undefined;
}
