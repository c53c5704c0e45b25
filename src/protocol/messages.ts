/** Messages of the seven roles, tool calls and user content parts (WIRE §4.1–§4.3). */
import * as t from "io-ts";
import { enumOf, JsonObject, list, struct, taggedUnion } from "./codec";
import { Metadata } from "./common";

const lenientMetadata = { nullIsError: [] as string[] };

/** Where a media part's bytes live. `file` is 1.0.0 only. */
export const ContentSource = taggedUnion("ContentSource", "type", {
  data: struct("DataSource", { type: t.literal("data"), value: t.string, mimeType: t.string }, {}),
  url: struct("UrlSource", { type: t.literal("url"), value: t.string }, { mimeType: t.string }),
  file: struct("FileSource", { type: t.literal("file"), value: t.string }, { provider: t.string, mimeType: t.string }),
});
export type ContentSource = t.TypeOf<typeof ContentSource>;

const mediaPart = <K extends "image" | "audio" | "video" | "document">(kind: K) =>
  struct(`${kind} part`, { type: t.literal(kind), source: ContentSource }, { id: t.string, metadata: t.unknown }, lenientMetadata);

/** A part of a multimodal user message (and, in 1.0.0, of a tool result). `binary` is the legacy form. */
export const InputContent = taggedUnion("InputContent", "type", {
  text: struct("text part", { type: t.literal("text"), text: t.string }, { id: t.string, metadata: t.unknown }, lenientMetadata),
  image: mediaPart("image"),
  audio: mediaPart("audio"),
  video: mediaPart("video"),
  document: mediaPart("document"),
  binary: struct(
    "binary part",
    { type: t.literal("binary"), mimeType: t.string },
    { id: t.string, url: t.string, data: t.string, filename: t.string },
  ),
});
export type InputContent = t.TypeOf<typeof InputContent>;

/** A function call held by an assistant message; `arguments` is the JSON-encoded string. */
export const ToolCall = struct(
  "ToolCall",
  {
    id: t.string,
    type: enumOf("ToolCall.type", ["function"]),
    function: struct("ToolCall.function", { name: t.string, arguments: t.string }, {}),
  },
  { encryptedValue: t.string, metadata: Metadata },
);
export type ToolCall = t.TypeOf<typeof ToolCall>;

const base = { id: t.string };
const baseOptional = { subagentRunId: t.string, metadata: Metadata };
const named = { ...baseOptional, name: t.string, encryptedValue: t.string };

export const DeveloperMessage = struct("DeveloperMessage", { ...base, role: t.literal("developer"), content: t.string }, named);
export const SystemMessage = struct("SystemMessage", { ...base, role: t.literal("system"), content: t.string }, named);
export const AssistantMessage = struct(
  "AssistantMessage",
  { ...base, role: t.literal("assistant") },
  { ...named, content: t.string, toolCalls: list(ToolCall) },
);
export const UserMessage = struct(
  "UserMessage",
  { ...base, role: t.literal("user"), content: t.union([t.string, list(InputContent)]) },
  named,
);
export const ToolMessage = struct(
  "ToolMessage",
  { ...base, role: t.literal("tool"), toolCallId: t.string, content: t.union([t.string, list(InputContent)]) },
  { ...baseOptional, error: t.string, encryptedValue: t.string },
);
export const ActivityMessage = struct(
  "ActivityMessage",
  { ...base, role: t.literal("activity"), activityType: t.string, content: JsonObject },
  baseOptional,
);
export const ReasoningMessage = struct(
  "ReasoningMessage",
  { ...base, role: t.literal("reasoning"), content: t.string },
  { ...baseOptional, encryptedValue: t.string },
);

export type DeveloperMessage = t.TypeOf<typeof DeveloperMessage>;
export type SystemMessage = t.TypeOf<typeof SystemMessage>;
export type AssistantMessage = t.TypeOf<typeof AssistantMessage>;
export type UserMessage = t.TypeOf<typeof UserMessage>;
export type ToolMessage = t.TypeOf<typeof ToolMessage>;
export type ActivityMessage = t.TypeOf<typeof ActivityMessage>;
export type ReasoningMessage = t.TypeOf<typeof ReasoningMessage>;

/** A conversation message, discriminated by `role`. */
export const Message = taggedUnion("Message", "role", {
  developer: DeveloperMessage,
  system: SystemMessage,
  assistant: AssistantMessage,
  user: UserMessage,
  tool: ToolMessage,
  activity: ActivityMessage,
  reasoning: ReasoningMessage,
});
export type Message = t.TypeOf<typeof Message>;
export type MessageRole = Message["role"];

/** The roles a streamed text message may take (TEXT_MESSAGE_START.role). */
export const TextMessageRole = enumOf("TextMessageRole", ["developer", "system", "assistant", "user"]);
export type TextMessageRole = t.TypeOf<typeof TextMessageRole>;
