/** AG-UI content parts (docs/wire.md#4.2: text, image/audio/video/document, legacy binary) as the AI SDK's prompt parts. */
import type { FilePart, JSONValue, TextPart, ToolResultPart } from "ai";
import type { ContentSource, InputContent } from "../protocol/messages";
import { AgentError } from "../server/AgentError";

/**
 * The RUN_ERROR code of a thread the model cannot be given as it is (a media part without usable
 * data, a relative URL, a tool result that answers no tool call).
 *
 * @example
 * if (event.type === "RUN_ERROR" && event.code === INVALID_MESSAGES_CODE) console.error(event.message);
 */
export const INVALID_MESSAGES_CODE = "INVALID_MESSAGES";

/** The SDK's provider-specific options on a prompt part (`{ [provider]: { … } }`). */
export type ProviderOptions = NonNullable<TextPart["providerOptions"]>;

/** The `content` form of a tool result's output. */
type ContentOutput = Extract<ToolResultPart["output"], { type: "content" }>["value"][number];

/** Where a part sits, for error messages: `message "u1", part 2`. */
export interface PartPlace {
  readonly messageId: string;
  readonly index: number;
}

/**
 * One part of a multimodal user message: text as a `TextPart`, every media kind as a `FilePart`
 * (the SDK's `ImagePart` is deprecated in favour of files). A part that cannot be given to the
 * model throws an `AgentError` coded `INVALID_MESSAGES` that names the message and the part.
 *
 * @example
 * userPart({ type: "image", source: { type: "url", value: "https://example.com/cat.png" } }, { messageId: "u1", index: 0 });
 * // { type: "file", data: { type: "url", url: new URL("https://example.com/cat.png") }, mediaType: "image" }
 */
export function userPart(part: InputContent, place: PartPlace): TextPart | FilePart {
  return textOrFilePart(part, place);
}

/**
 * One part of a multimodal tool result (1.0.0), in the SDK's `content` output form.
 *
 * @example
 * toolResultPart({ type: "text", text: "3 hits" }, { messageId: "t1", index: 0 }); // { type: "text", text: "3 hits" }
 */
export function toolResultPart(part: InputContent, place: PartPlace): ContentOutput {
  return textOrFilePart(part, place);
}

/** A text or file part in the shape both the SDK's user content and its tool-result content accept. */
type TextOrFilePart = { type: "text"; text: string } | { type: "file"; data: FileData; mediaType: string; filename?: string };

/** The one mapping behind `userPart` and `toolResultPart`: text as text, every media kind as a file. */
function textOrFilePart(part: InputContent, place: PartPlace): TextOrFilePart {
  if (part.type === "text") return { type: "text", text: part.text };
  const file = fileOf(part, place);
  return file.filename === undefined
    ? { type: "file", data: file.data, mediaType: file.mediaType }
    : { type: "file", data: file.data, mediaType: file.mediaType, filename: file.filename };
}

/**
 * The provider options a value from REASONING_ENCRYPTED_VALUE carries, when it is what
 * `streamToRun` wrote there (the JSON of a part's provider metadata: an object of objects);
 * `undefined` for any other value, which another producer's opaque encryption may well be.
 *
 * @example
 * providerOptionsOf('{"anthropic":{"signature":"abc"}}'); // { anthropic: { signature: "abc" } }
 * providerOptionsOf("gAAAAB…"); // undefined
 */
export function providerOptionsOf(encryptedValue: string | undefined): ProviderOptions | undefined {
  if (encryptedValue === undefined || !encryptedValue.startsWith("{")) return undefined;
  let parsed: JSONValue;
  try {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- JSON.parse yields only JSON values
    parsed = JSON.parse(encryptedValue);
  } catch {
    return undefined; // not ours: an opaque value that only looks like JSON
  }
  if (!isJsonObject(parsed)) return undefined;
  const options: ProviderOptions = {};
  for (const [provider, values] of Object.entries(parsed)) {
    if (!isJsonObject(values) || provider === "__proto__") return undefined;
    options[provider] = values;
  }
  return options;
}

type MediaPart = Exclude<InputContent, { type: "text" }>;
type FileData = Extract<FilePart["data"], { type: string }>;

interface FileOf {
  readonly data: Extract<FileData, { type: "data" | "url" | "reference" }>;
  readonly mediaType: string;
  readonly filename?: string;
}

/** The bytes, URL or provider reference of a media part, and its media type. */
function fileOf(part: MediaPart, place: PartPlace): FileOf {
  if (part.type === "binary") {
    const filename = part.filename === undefined ? {} : { filename: part.filename };
    if (part.data !== undefined) return { data: { type: "data", data: part.data }, mediaType: part.mimeType, ...filename };
    if (part.url !== undefined) return { data: { type: "url", url: urlOf(part.url, place) }, mediaType: part.mimeType, ...filename };
    throw invalid(place, `a binary part with "data" or "url"`, `one with only ${part.id === undefined ? "a mimeType" : `the id "${part.id}"`}`);
  }
  const mediaType = part.source.mimeType ?? TOP_LEVEL_MEDIA_TYPE[part.type];
  return { data: sourceData(part.source, place), mediaType };
}

/** Without a mimeType, the SDK accepts the top-level IANA segment and lets the provider detect the rest. */
const TOP_LEVEL_MEDIA_TYPE: Record<Exclude<MediaPart["type"], "binary">, string> = {
  image: "image",
  audio: "audio",
  video: "video",
  document: "application",
};

function sourceData(source: ContentSource, place: PartPlace): FileOf["data"] {
  switch (source.type) {
    case "data":
      return { type: "data", data: source.value };
    case "url":
      return { type: "url", url: urlOf(source.value, place) };
    case "file":
      if (source.provider === undefined) {
        throw invalid(place, `a file source with a "provider" (the AI SDK references uploaded files per provider)`, `the file "${source.value}" without one`);
      }
      return { type: "reference", reference: { [source.provider]: source.value } };
    default: {
      const unknown: never = source;
      return unknown;
    }
  }
}

function urlOf(value: string, place: PartPlace): URL {
  if (!URL.canParse(value)) throw invalid(place, "an absolute URL", JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value));
  return new URL(value);
}

function invalid(place: PartPlace, expected: string, actual: string): AgentError {
  return new AgentError(`message "${place.messageId}", part ${place.index}: expected ${expected}, but got ${actual}`, INVALID_MESSAGES_CODE);
}

/** A JSON object (not an array, not null). */
type JsonObject = Exclude<Extract<JSONValue, object>, readonly unknown[]>;

function isJsonObject(value: JSONValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
