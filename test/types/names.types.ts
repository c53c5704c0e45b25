// Type-level tests for the named faces of the protocol types (docs/architecture.md#protocol-layer "How
// the public types are named"). Not run by jest: test/types/typecheck.test.ts compiles the whole
// project, so every line here must typecheck and every `@ts-expect-error` must hold.
import type { Either } from "fp-ts/Either";
import * as t from "io-ts";
import type { EventOptions } from "../../src/protocol/build";
import type { TaggedUnionType } from "../../src/protocol/codec";
import type { NamedStructCodec, NamedUnionCodec } from "../../src/protocol/namedCodec";
import { JsonPatchOperation, TokenUsage, type AddOperation } from "../../src/protocol/common";
import {
  Event,
  eventCodecs,
  RunStartedEvent,
  TextMessageContentEvent,
  type EventOf,
  type EventType,
  type RunFinishedEvent,
  type TextMessageStartEvent,
} from "../../src/protocol/events";
import { Context, RunAgentInput, Tool } from "../../src/protocol/input";
import {
  ContentSource,
  InputContent,
  Message,
  ToolCall,
  type AssistantMessage,
  type DeveloperMessage,
  type FunctionCall,
  type ImageInputContent,
  type SystemMessage,
  type UrlSource,
  type UserMessage,
} from "../../src/protocol/messages";
import {
  Interrupt,
  ResumeEntry,
  RunFinishedOutcome,
  SubagentFinishedOutcome,
  type RunInterruptOutcome,
  type SubagentSuspendedOutcome,
} from "../../src/protocol/outcomes";
import type { DecodeError } from "../../src/wire/DecodeError";
import { decodeEvent } from "../../src/wire/decodeEvent";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(): T | undefined => undefined;

// Every event codec decodes exactly its named interface, and `Event` is the union of all 36 names.
type EveryCodecNamed = { [T in EventType]: Equal<t.TypeOf<(typeof eventCodecs)[T]>, EventOf<T>> }[EventType];
assertType<Equal<EveryCodecNamed, true>>();
assertType<Equal<Event, TaggedUnionType<typeof eventCodecs>>>();
assertType<Equal<EventOf<"RUN_STARTED">, RunStartedEvent>>();
assertType<Equal<t.TypeOf<typeof RunStartedEvent>, RunStartedEvent>>();

// The decoders return the names.
assertType<Equal<ReturnType<typeof decodeEvent>, Either<DecodeError, Event>>>();
assertType<Equal<ReturnType<typeof Event.decode>, t.Validation<Event>>>();
assertType<Equal<ReturnType<typeof TextMessageContentEvent.decode>, t.Validation<TextMessageContentEvent>>>();
assertType<Equal<ReturnType<typeof RunAgentInput.decode>, t.Validation<RunAgentInput>>>();

// The other public codecs, and their members, are their names too.
assertType<Equal<t.TypeOf<typeof Message>, Message>>();
assertType<Equal<Extract<Message, { role: "user" }>, UserMessage>>();
assertType<Equal<NonNullable<AssistantMessage["toolCalls"]>[number], ToolCall>>();
assertType<Equal<ToolCall["function"], FunctionCall>>();
assertType<Equal<t.TypeOf<typeof InputContent>, InputContent>>();
assertType<Equal<Extract<InputContent, { type: "image" }>, ImageInputContent>>();
assertType<Equal<Extract<ContentSource, { type: "url" }>, UrlSource>>();
assertType<Equal<RunAgentInput["messages"], Message[]>>();
assertType<Equal<RunAgentInput["tools"], Tool[]>>();
assertType<Equal<RunAgentInput["context"], Context[]>>();
assertType<Equal<RunAgentInput["resume"], ResumeEntry[] | undefined>>();
assertType<Equal<t.TypeOf<typeof Interrupt>, Interrupt>>();
assertType<Equal<RunFinishedEvent["outcome"], RunFinishedOutcome | undefined>>();
assertType<Equal<Extract<RunFinishedOutcome, { type: "interrupt" }>, RunInterruptOutcome>>();
assertType<Equal<RunInterruptOutcome["interrupts"], [Interrupt, ...Interrupt[]]>>();
assertType<Equal<Extract<SubagentFinishedOutcome, { type: "suspended" }>, SubagentSuspendedOutcome>>();
assertType<Equal<RunFinishedEvent["usage"], TokenUsage[] | undefined>>();
assertType<Equal<t.TypeOf<typeof TokenUsage>, TokenUsage>>();
assertType<Equal<Extract<JsonPatchOperation, { op: "add" }>, AddOperation>>();

// A face must be exactly the codec's type: a wrong or partial name does not compile.
// @ts-expect-error a codec decodes its own interface, not another one
export const wrongFace: NamedStructCodec<ToolCall> = Tool;
// @ts-expect-error a union's face lists every member
export const partialUnion: NamedUnionCodec<DeveloperMessage | SystemMessage> = Message;
// @ts-expect-error nor more than its members
export const widerUnion: NamedUnionCodec<Message | ToolCall> = Message;

// Builders' options are the members the interface marks optional, no more.
assertType<Equal<keyof EventOptions<"TOOL_CALL_START">, "parentMessageId" | "subagentRunId" | "timestamp" | "rawEvent" | "metadata">>();
assertType<Equal<keyof EventOptions<"TEXT_MESSAGE_START">, "name" | "subagentRunId" | "timestamp" | "rawEvent" | "metadata">>();
assertType<Equal<TextMessageStartEvent["role"], "developer" | "system" | "assistant" | "user">>();
