/** Data types shared by events, messages and inputs: metadata, JSON Patch operations, token usage. */
import * as t from "io-ts";
import { list, NonNegativeInteger, Present, struct, taggedUnion } from "./codec";

/** Open-by-key extra information (WIRE §1.3): a JSON object, never `null` or an array. */
export const Metadata = t.UnknownRecord;
export type Metadata = t.TypeOf<typeof Metadata>;

/** A JSON Pointer (RFC 6901) as used in `path` and `from`. */
export const JsonPointer = t.string;

const pathOnly = { path: JsonPointer };
const pathAndValue = { path: JsonPointer, value: Present };
const fromAndPath = { from: JsonPointer, path: JsonPointer };
// Open on purpose: RFC 6902 §4 has an operation ignore the members it does not define, so a `remove`
// carrying a leftover `value` is a valid operation and arrives whole (1.1 processing model).
const opCodec = <Op extends string, R extends t.Props>(op: Op, props: R) =>
  struct(`JsonPatch ${op}`, { op: t.literal(op), ...props }, {}, { open: true });

/** One RFC 6902 operation; extra members are kept and ignored, as the RFC says. An unknown `op` is unrecognised material. */
export const JsonPatchOperation = taggedUnion("JsonPatchOperation", "op", {
  add: opCodec("add", pathAndValue),
  remove: opCodec("remove", pathOnly),
  replace: opCodec("replace", pathAndValue),
  move: opCodec("move", fromAndPath),
  copy: opCodec("copy", fromAndPath),
  test: opCodec("test", pathAndValue),
});
export type JsonPatchOperation = t.TypeOf<typeof JsonPatchOperation>;

/**
 * An RFC 6902 patch: operations applied in order, all or nothing. An operation with an unknown `op`
 * makes the whole patch unrecognised (decision): the event that carries it is dropped with a
 * warning and the target is left as it was, since applying the rest without it could build a
 * value the producer never had.
 */
export const JsonPatch = list(JsonPatchOperation, { atomic: true });
export type JsonPatch = t.TypeOf<typeof JsonPatch>;

/** Token counts for one (provider, model) pair (WIRE §4.12). An unreported count is omitted, not zero. */
export const TokenUsage = struct(
  "TokenUsage",
  {},
  {
    provider: t.string,
    model: t.string,
    inputTokens: NonNegativeInteger,
    outputTokens: NonNegativeInteger,
    totalTokens: NonNegativeInteger,
    reasoningTokens: NonNegativeInteger,
    cachedInputTokens: NonNegativeInteger,
    cacheWriteInputTokens: NonNegativeInteger,
  },
);
export type TokenUsage = t.TypeOf<typeof TokenUsage>;
