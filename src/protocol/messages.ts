/**
 * Messages of the seven roles, tool calls and user content parts (docs/wire.md#4.1 to docs/wire.md#4.3). As in
 * `events.ts`, each type is `t.TypeOf` of its codec with a named interface as its face: the
 * module-private `<Name>Codec` is the codec as built, and the codec exported as `<Name>` decodes
 * the interface `<Name>` (`NamedStructCodec`, `NamedUnionCodec`).
 */
import * as t from "io-ts";
import { enumOf, JsonObject, list, struct, taggedUnion } from "./codec";
import type { NamedStructCodec, NamedUnionCodec } from "./namedCodec";
import { Metadata } from "./common";

const lenientMetadata = { nullIsError: [] as string[] };

// ─── Content sources and parts (docs/wire.md#4.3) ───

const DataSourceCodec = /* @__PURE__ */ struct("DataSource", { type: t.literal("data"), value: t.string, mimeType: t.string }, {});
/**
 * A media part's bytes, inline and base64-encoded.
 *
 * @example
 * const source: DataSource = { type: "data", value: "iVBORw0KGgo…", mimeType: "image/png" };
 */
export interface DataSource extends t.TypeOf<typeof DataSourceCodec> {}
export const DataSource: NamedStructCodec<DataSource> = DataSourceCodec;

const UrlSourceCodec = /* @__PURE__ */ struct("UrlSource", { type: t.literal("url"), value: t.string }, { mimeType: t.string });
/**
 * A media part's bytes behind an HTTP(S) or `data:` URL.
 *
 * @example
 * const source: UrlSource = { type: "url", value: "https://example.com/cat.png" };
 */
export interface UrlSource extends t.TypeOf<typeof UrlSourceCodec> {}
export const UrlSource: NamedStructCodec<UrlSource> = UrlSourceCodec;

const FileSourceCodec = /* @__PURE__ */ struct("FileSource", { type: t.literal("file"), value: t.string }, { provider: t.string, mimeType: t.string });
/**
 * A provider-issued file handle (1.0.0 only); no bytes travel.
 *
 * @example
 * const source: FileSource = { type: "file", value: "file-abc123", provider: "openai" };
 */
export interface FileSource extends t.TypeOf<typeof FileSourceCodec> {}
export const FileSource: NamedStructCodec<FileSource> = FileSourceCodec;

/**
 * Where a media part's bytes live, discriminated by `type`. `file` is 1.0.0 only.
 *
 * @example
 * const source: ContentSource = { type: "url", value: "https://example.com/cat.png" };
 */
export type ContentSource = DataSource | UrlSource | FileSource;
const ContentSourceCodec = /* @__PURE__ */ taggedUnion("ContentSource", "type", { data: DataSource, url: UrlSource, file: FileSource });
export const ContentSource: NamedUnionCodec<ContentSource> = ContentSourceCodec;

const mediaPart = <K extends "image" | "audio" | "video" | "document">(kind: K) =>
  struct(`${kind} part`, { type: t.literal(kind), source: ContentSource }, { id: t.string, metadata: t.unknown }, lenientMetadata);

const TextInputContentCodec = /* @__PURE__ */ struct(
  "text part",
  { type: t.literal("text"), text: t.string },
  { id: t.string, metadata: t.unknown },
  lenientMetadata,
);
/**
 * A text part of a multimodal message.
 *
 * @example
 * const part: TextInputContent = { type: "text", text: "What is in this picture?" };
 */
export interface TextInputContent extends t.TypeOf<typeof TextInputContentCodec> {}
export const TextInputContent: NamedStructCodec<TextInputContent> = TextInputContentCodec;

const ImageInputContentCodec = mediaPart("image");
/**
 * An image part.
 *
 * @example
 * const part: ImageInputContent = { type: "image", source: { type: "url", value: "https://example.com/cat.png" } };
 */
export interface ImageInputContent extends t.TypeOf<typeof ImageInputContentCodec> {}
export const ImageInputContent: NamedStructCodec<ImageInputContent> = ImageInputContentCodec;

const AudioInputContentCodec = mediaPart("audio");
/**
 * An audio part.
 *
 * @example
 * const part: AudioInputContent = { type: "audio", source: { type: "data", value: "UklGR…", mimeType: "audio/wav" } };
 */
export interface AudioInputContent extends t.TypeOf<typeof AudioInputContentCodec> {}
export const AudioInputContent: NamedStructCodec<AudioInputContent> = AudioInputContentCodec;

const VideoInputContentCodec = mediaPart("video");
/**
 * A video part.
 *
 * @example
 * const part: VideoInputContent = { type: "video", source: { type: "url", value: "https://example.com/clip.mp4" } };
 */
export interface VideoInputContent extends t.TypeOf<typeof VideoInputContentCodec> {}
export const VideoInputContent: NamedStructCodec<VideoInputContent> = VideoInputContentCodec;

const DocumentInputContentCodec = mediaPart("document");
/**
 * A document part (a PDF, a text file).
 *
 * @example
 * const part: DocumentInputContent = { type: "document", source: { type: "file", value: "file-abc123" } };
 */
export interface DocumentInputContent extends t.TypeOf<typeof DocumentInputContentCodec> {}
export const DocumentInputContent: NamedStructCodec<DocumentInputContent> = DocumentInputContentCodec;

const BinaryInputContentCodec = /* @__PURE__ */ struct(
  "binary part",
  { type: t.literal("binary"), mimeType: t.string },
  { id: t.string, url: t.string, data: t.string, filename: t.string },
);
/**
 * The legacy (Baseline) form of a media part; emit the modern parts instead.
 *
 * @example
 * const part: BinaryInputContent = { type: "binary", mimeType: "image/png", url: "https://example.com/cat.png" };
 */
export interface BinaryInputContent extends t.TypeOf<typeof BinaryInputContentCodec> {}
export const BinaryInputContent: NamedStructCodec<BinaryInputContent> = BinaryInputContentCodec;

/**
 * A part of a multimodal user message (and, in 1.0.0, of a tool result), discriminated by `type`.
 * `binary` is the legacy form.
 *
 * @example
 * const parts: InputContent[] = [{ type: "text", text: "Look:" }, { type: "image", source: { type: "url", value: "https://example.com/cat.png" } }];
 */
export type InputContent = TextInputContent | ImageInputContent | AudioInputContent | VideoInputContent | DocumentInputContent | BinaryInputContent;
const InputContentCodec = /* @__PURE__ */ taggedUnion("InputContent", "type", {
  text: TextInputContent,
  image: ImageInputContent,
  audio: AudioInputContent,
  video: VideoInputContent,
  document: DocumentInputContent,
  binary: BinaryInputContent,
});
export const InputContent: NamedUnionCodec<InputContent> = InputContentCodec;

// ─── Tool calls (docs/wire.md#4.2) ───

const FunctionCallCodec = /* @__PURE__ */ struct("ToolCall.function", { name: t.string, arguments: t.string }, {});
/**
 * The function a tool call invokes; `arguments` is the JSON-encoded string, not an object.
 *
 * @example
 * const call: FunctionCall = { name: "search", arguments: '{"q":"rx"}' };
 */
export interface FunctionCall extends t.TypeOf<typeof FunctionCallCodec> {}
export const FunctionCall: NamedStructCodec<FunctionCall> = FunctionCallCodec;

const ToolCallCodec = /* @__PURE__ */ struct(
  "ToolCall",
  { id: t.string, type: enumOf("ToolCall.type", ["function"]), function: FunctionCall },
  { encryptedValue: t.string, metadata: Metadata },
);
/**
 * A function call held by an assistant message; `id` is the events' `toolCallId`.
 *
 * @example
 * const call: ToolCall = { id: "tc1", type: "function", function: { name: "search", arguments: '{"q":"rx"}' } };
 */
export interface ToolCall extends t.TypeOf<typeof ToolCallCodec> {}
export const ToolCall: NamedStructCodec<ToolCall> = ToolCallCodec;

// ─── Messages (docs/wire.md#4.1) ───

const base = { id: t.string };
const baseOptional = { subagentRunId: t.string, metadata: Metadata };
const named = { ...baseOptional, name: t.string, encryptedValue: t.string };

const DeveloperMessageCodec = /* @__PURE__ */ struct("DeveloperMessage", { ...base, role: t.literal("developer"), content: t.string }, named);
/**
 * Instructions from the application's developer.
 *
 * @example
 * const message: DeveloperMessage = { id: "d1", role: "developer", content: "Answer in French." };
 */
export interface DeveloperMessage extends t.TypeOf<typeof DeveloperMessageCodec> {}
export const DeveloperMessage: NamedStructCodec<DeveloperMessage> = DeveloperMessageCodec;

const SystemMessageCodec = /* @__PURE__ */ struct("SystemMessage", { ...base, role: t.literal("system"), content: t.string }, named);
/**
 * A system prompt.
 *
 * @example
 * const message: SystemMessage = { id: "s1", role: "system", content: "You are a helpful assistant." };
 */
export interface SystemMessage extends t.TypeOf<typeof SystemMessageCodec> {}
export const SystemMessage: NamedStructCodec<SystemMessage> = SystemMessageCodec;

const AssistantMessageCodec = /* @__PURE__ */ struct(
  "AssistantMessage",
  { ...base, role: t.literal("assistant") },
  { ...named, content: t.string, toolCalls: list(ToolCall) },
);
/**
 * The agent's answer; `content` is absent when it only calls tools.
 *
 * @example
 * const message: AssistantMessage = { id: "m1", role: "assistant", content: "Hello!" };
 */
export interface AssistantMessage extends t.TypeOf<typeof AssistantMessageCodec> {}
export const AssistantMessage: NamedStructCodec<AssistantMessage> = AssistantMessageCodec;

const UserMessageCodec = /* @__PURE__ */ struct("UserMessage", { ...base, role: t.literal("user"), content: t.union([t.string, list(InputContent)]) }, named);
/**
 * What the user said: a string, or multimodal content parts.
 *
 * @example
 * const message: UserMessage = { id: "u1", role: "user", content: "Hi" };
 */
export interface UserMessage extends t.TypeOf<typeof UserMessageCodec> {}
export const UserMessage: NamedStructCodec<UserMessage> = UserMessageCodec;

const ToolMessageCodec = /* @__PURE__ */ struct(
  "ToolMessage",
  { ...base, role: t.literal("tool"), toolCallId: t.string, content: t.union([t.string, list(InputContent)]) },
  { ...baseOptional, error: t.string, encryptedValue: t.string },
);
/**
 * A tool's result, answering the call `toolCallId`; `error` is set when the tool failed.
 *
 * @example
 * const message: ToolMessage = { id: "m2", role: "tool", toolCallId: "tc1", content: "3 results" };
 */
export interface ToolMessage extends t.TypeOf<typeof ToolMessageCodec> {}
export const ToolMessage: NamedStructCodec<ToolMessage> = ToolMessageCodec;

const ActivityMessageCodec = /* @__PURE__ */ struct(
  "ActivityMessage",
  { ...base, role: t.literal("activity"), activityType: t.string, content: JsonObject },
  baseOptional,
);
/**
 * A structured, frontend-only progress item (never sent back to the agent).
 *
 * @example
 * const message: ActivityMessage = { id: "a1", role: "activity", activityType: "PLAN", content: { steps: [] } };
 */
export interface ActivityMessage extends t.TypeOf<typeof ActivityMessageCodec> {}
export const ActivityMessage: NamedStructCodec<ActivityMessage> = ActivityMessageCodec;

const ReasoningMessageCodec = /* @__PURE__ */ struct(
  "ReasoningMessage",
  { ...base, role: t.literal("reasoning"), content: t.string },
  { ...baseOptional, encryptedValue: t.string },
);
/**
 * The agent's visible reasoning, kept apart from its answers.
 *
 * @example
 * const message: ReasoningMessage = { id: "r1", role: "reasoning", content: "Checking the board…" };
 */
export interface ReasoningMessage extends t.TypeOf<typeof ReasoningMessageCodec> {}
export const ReasoningMessage: NamedStructCodec<ReasoningMessage> = ReasoningMessageCodec;

/**
 * A conversation message, discriminated by `role`: a `switch (message.role)` narrows without casts.
 *
 * @example
 * const text = (message: Message) => (message.role === "assistant" ? message.content ?? "" : "");
 */
export type Message = DeveloperMessage | SystemMessage | AssistantMessage | UserMessage | ToolMessage | ActivityMessage | ReasoningMessage;
const MessageCodec = /* @__PURE__ */ taggedUnion("Message", "role", {
  developer: DeveloperMessage,
  system: SystemMessage,
  assistant: AssistantMessage,
  user: UserMessage,
  tool: ToolMessage,
  activity: ActivityMessage,
  reasoning: ReasoningMessage,
});
export const Message: NamedUnionCodec<Message> = MessageCodec;

/**
 * The `role` of a message.
 *
 * @example
 * const role: MessageRole = "assistant";
 */
export type MessageRole = Message["role"];

/**
 * The roles a streamed text message may take (TEXT_MESSAGE_START.role).
 *
 * @example
 * TextMessageRole.is("tool") // false
 */
export const TextMessageRole = /* @__PURE__ */ enumOf("TextMessageRole", ["developer", "system", "assistant", "user"]);
export type TextMessageRole = t.TypeOf<typeof TextMessageRole>;
