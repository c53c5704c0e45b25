// Type-level tests for the event vocabulary. Not run by jest: test/types/typecheck.test.ts compiles
// the whole project, so every line here must typecheck and every `@ts-expect-error` must hold.
import { of, type Observable } from "rxjs";
import type { HttpTransport } from "../../src/client/transports/HttpTransport";
import type { Transport } from "../../src/client/transports/Transport";
import type { RunEnd } from "../../src/thread/Update";
import type { RunAgentInput } from "../../src/protocol/input";
import type { DecodeWarning } from "../../src/wire/DecodeWarning";
import { ev, withSubagentRunId } from "../../src/protocol/build";
import type { AttributableEvent, Event, EventOf, EventType } from "../../src/protocol/events";
import { decodeSse } from "../../src/wire/decodeSse";
import { decodeSseFrames, type SseFrame } from "../../src/wire/decodeSseFrames";
import { encodeSse } from "../../src/wire/encodeSse";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T | undefined => undefined;

// The 36 types, exactly.
type Expected =
  | "RUN_STARTED"
  | "RUN_FINISHED"
  | "RUN_ERROR"
  | "STEP_STARTED"
  | "STEP_FINISHED"
  | "TEXT_MESSAGE_START"
  | "TEXT_MESSAGE_CONTENT"
  | "TEXT_MESSAGE_END"
  | "TEXT_MESSAGE_CHUNK"
  | "TOOL_CALL_START"
  | "TOOL_CALL_ARGS"
  | "TOOL_CALL_END"
  | "TOOL_CALL_CHUNK"
  | "TOOL_CALL_RESULT"
  | "STATE_SNAPSHOT"
  | "STATE_DELTA"
  | "MESSAGES_SNAPSHOT"
  | "ACTIVITY_SNAPSHOT"
  | "ACTIVITY_DELTA"
  | "RAW"
  | "CUSTOM"
  | "REASONING_START"
  | "REASONING_MESSAGE_START"
  | "REASONING_MESSAGE_CONTENT"
  | "REASONING_MESSAGE_END"
  | "REASONING_MESSAGE_CHUNK"
  | "REASONING_END"
  | "REASONING_ENCRYPTED_VALUE"
  | "SUBAGENT_STARTED"
  | "SUBAGENT_FINISHED"
  | "SUBAGENT_ERROR"
  | "THINKING_START"
  | "THINKING_END"
  | "THINKING_TEXT_MESSAGE_START"
  | "THINKING_TEXT_MESSAGE_CONTENT"
  | "THINKING_TEXT_MESSAGE_END";
assertType<Equal<EventType, Expected>>();

// `switch (event.type)` narrows without casts.
export function describeEvent(event: Event): string {
  switch (event.type) {
    case "TEXT_MESSAGE_CONTENT":
      return event.delta;
    case "TEXT_MESSAGE_START": {
      const role: "developer" | "system" | "assistant" | "user" = event.role; // filled on decode, never undefined
      return role;
    }
    case "RUN_FINISHED":
      return event.outcome?.type ?? "success";
    case "TOOL_CALL_START":
      return `${event.toolCallName} in ${event.parentMessageId ?? "?"} by ${event.subagentRunId ?? "parent"}`;
    case "SUBAGENT_STARTED": {
      const id: string = event.subagentRunId; // required here
      return id;
    }
    case "ACTIVITY_SNAPSHOT": {
      const replace: boolean = event.replace;
      return String(replace);
    }
    case "STATE_DELTA":
      return event.delta.map((op) => op.op).join();
    case "REASONING_ENCRYPTED_VALUE": {
      const subtype: "tool-call" | "message" = event.subtype;
      return subtype;
    }
    case "RUN_STARTED":
      // @ts-expect-error RUN_STARTED has no subagentRunId
      return event.subagentRunId; // eslint-disable-line @typescript-eslint/no-unsafe-return -- the type error under test makes it `any`
    case "TEXT_MESSAGE_END":
      // @ts-expect-error TEXT_MESSAGE_END has no delta
      return event.delta; // eslint-disable-line @typescript-eslint/no-unsafe-return -- the type error under test makes it `any`
    default:
      return event.type;
  }
}

// Exhaustiveness: a switch over every type leaves `never`.
export function exhaustive(event: Event): void {
  switch (event.type) {
    case "RUN_STARTED":
    case "RUN_FINISHED":
    case "RUN_ERROR":
    case "STEP_STARTED":
    case "STEP_FINISHED":
    case "TEXT_MESSAGE_START":
    case "TEXT_MESSAGE_CONTENT":
    case "TEXT_MESSAGE_END":
    case "TEXT_MESSAGE_CHUNK":
    case "TOOL_CALL_START":
    case "TOOL_CALL_ARGS":
    case "TOOL_CALL_END":
    case "TOOL_CALL_CHUNK":
    case "TOOL_CALL_RESULT":
    case "STATE_SNAPSHOT":
    case "STATE_DELTA":
    case "MESSAGES_SNAPSHOT":
    case "ACTIVITY_SNAPSHOT":
    case "ACTIVITY_DELTA":
    case "RAW":
    case "CUSTOM":
    case "REASONING_START":
    case "REASONING_MESSAGE_START":
    case "REASONING_MESSAGE_CONTENT":
    case "REASONING_MESSAGE_END":
    case "REASONING_MESSAGE_CHUNK":
    case "REASONING_END":
    case "REASONING_ENCRYPTED_VALUE":
    case "SUBAGENT_STARTED":
    case "SUBAGENT_FINISHED":
    case "SUBAGENT_ERROR":
    case "THINKING_START":
    case "THINKING_END":
    case "THINKING_TEXT_MESSAGE_START":
    case "THINKING_TEXT_MESSAGE_CONTENT":
    case "THINKING_TEXT_MESSAGE_END":
      return;
    default: {
      const rest: never = event;
      return rest;
    }
  }
}

// Building an event without a required member is an error, by hand and with a builder.
// @ts-expect-error `delta` is required
export const missingDelta: EventOf<"TEXT_MESSAGE_CONTENT"> = { type: "TEXT_MESSAGE_CONTENT", messageId: "m" };
// @ts-expect-error `subagentRunId` is required on SUBAGENT_STARTED
export const missingIdentity: EventOf<"SUBAGENT_STARTED"> = { type: "SUBAGENT_STARTED", name: "n" };
// @ts-expect-error `delta` is a positional argument
ev.textMessageContent("m");
// @ts-expect-error `toolCallName` is a positional argument
ev.toolCallStart("tc");
export const complete: EventOf<"TEXT_MESSAGE_CONTENT"> = { type: "TEXT_MESSAGE_CONTENT", messageId: "m", delta: "" };

// Roles: a text message may not have the tool role.
// @ts-expect-error "tool" is not a TextMessageRole
ev.textMessageStart("m", { role: "tool" });
ev.textMessageStart("m", { role: "user" });
// @ts-expect-error REASONING_MESSAGE_START's role is the literal "reasoning"
export const wrongReasoningRole: EventOf<"REASONING_MESSAGE_START"> = { type: "REASONING_MESSAGE_START", messageId: "r", role: "assistant" };

// Attribution only where docs/wire.md#1.5 allows it.
// @ts-expect-error RUN_STARTED is run-scoped and cannot be attributed
withSubagentRunId(ev.runStarted("t", "r"), "s");
// @ts-expect-error MESSAGES_SNAPSHOT is attributed per message, not as an event
withSubagentRunId(ev.messagesSnapshot([]), "s");
// @ts-expect-error SUBAGENT_* carry the id as their identity, through their builder
withSubagentRunId(ev.subagentError("s", "m"), "s2");
// @ts-expect-error nor through a builder's options
ev.runFinished("t", "r", { subagentRunId: "s" });
export const attributed: EventOf<"TOOL_CALL_ARGS"> = withSubagentRunId(ev.toolCallArgs("tc", "{"), "s");

type Attributable = AttributableEvent["type"];
assertType<
  Equal<
    Attributable,
    Exclude<
      EventType,
      "RUN_STARTED" | "RUN_FINISHED" | "RUN_ERROR" | "MESSAGES_SNAPSHOT" | "SUBAGENT_STARTED" | "SUBAGENT_FINISHED" | "SUBAGENT_ERROR" | `THINKING_${string}`
    >
  >
>();

// Optional members are optional: `EventOf<"RUN_FINISHED">` has `outcome?`.
type RunFinished = EventOf<"RUN_FINISHED">;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends Pick<T, K>` holds exactly when K is optional
assertType<Equal<{} extends Pick<RunFinished, "outcome"> ? true : false, true>>();
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{} extends Pick<T, K>` holds exactly when K is optional
assertType<Equal<{} extends Pick<RunFinished, "threadId"> ? true : false, false>>();
export const finished: RunFinished = { type: "RUN_FINISHED", threadId: "t", runId: "r" };
assertType<Equal<NonNullable<RunFinished["outcome"]>["type"], "success" | "interrupt" | "cancelled">>();

// The wire functions' types.
assertType<Equal<ReturnType<typeof encodeSse>, string>>();
export const decoded = (bytes: Observable<Uint8Array>): Observable<Event> => bytes.pipe(decodeSse());
export const frames = (text: Observable<string>): Observable<SseFrame> => text.pipe(decodeSseFrames({ maxFrameBytes: 1024 }));
// @ts-expect-error decodeSse reads text or bytes, not numbers
export const notBytes = (numbers: Observable<number>) => numbers.pipe(decodeSse());
// @ts-expect-error encodeSse takes an event
encodeSse({ type: "NOT_AN_EVENT" });

// With `warnings: true`, decodeSse's output also carries DecodeWarnings; without, events only.
export const warned = (bytes: Observable<Uint8Array>): Observable<Event | DecodeWarning> => bytes.pipe(decodeSse({ warnings: true }));
// @ts-expect-error a stream with warnings is not a stream of events
export const notOnlyEvents = (bytes: Observable<Uint8Array>): Observable<Event> => bytes.pipe(decodeSse({ warnings: true }));
export const limited = (bytes: Observable<Uint8Array>): Observable<Event> => bytes.pipe(decodeSse({ maxDepth: 64, warnings: false }));

// RunEnd is closed, with four kinds: a switch needs no default.
export function endLabel(end: RunEnd): string {
  switch (end.kind) {
    case "success":
      return "done";
    case "interrupted":
      return `waiting on ${end.interrupts.length}`;
    case "cancelled":
      return "stopped";
    case "failed":
      return end.message;
  }
}
// @ts-expect-error a cancelled end carries no message
export const cancelledMessage = (end: Extract<RunEnd, { kind: "cancelled" }>) => end.message; // eslint-disable-line @typescript-eslint/no-unsafe-return -- the type error under test makes it `any`

// The library's transports emit events only unless asked for warnings; any `(input) => Observable<Event>` is a Transport.
export const plainRun = (transport: HttpTransport, input: RunAgentInput): Observable<Event> => transport.run(input);
export const warnedRun = (transport: HttpTransport, input: RunAgentInput): Observable<Event | DecodeWarning> => transport.run(input, { warnings: true });
export const minimal: Transport = { run: (input) => of(ev.runStarted(input.threadId, input.runId)) };
