/** Data types shared by events, messages and inputs: metadata, JSON Patch operations, token usage. */
import * as t from "io-ts";
import { list, NonNegativeInteger, Present, struct, taggedUnion } from "./codec";
import type { NamedStructCodec, NamedUnionCodec } from "./namedCodec";

/** Open-by-key extra information (docs/wire.md#1.3): a JSON object, never `null` or an array. */
export const Metadata = t.UnknownRecord;
export type Metadata = t.TypeOf<typeof Metadata>;

/** A JSON Pointer (RFC 6901) as used in `path` and `from`. */
export const JsonPointer = t.string;

const pathOnly = { path: JsonPointer };
const pathAndValue = { path: JsonPointer, value: Present };
const fromAndPath = { from: JsonPointer, path: JsonPointer };
// Open on purpose: RFC 6902 §4 has an operation ignore the members it does not define, so a `remove`
// carrying a leftover `value` is a valid operation and arrives whole (1.1 processing model).
const opCodec = <Op extends string, R extends t.Props>(op: Op, props: R) => struct(`JsonPatch ${op}`, { op: t.literal(op), ...props }, {}, { open: true });

// Each operation, as in `events.ts`: the codec as built, its interface, and the codec named after it.
const AddOperationCodec = /* @__PURE__ */ opCodec("add", pathAndValue);
/**
 * Adds `value` at `path` (an array index or `-` inserts).
 *
 * @example
 * const operation: AddOperation = { op: "add", path: "/items/-", value: "milk" };
 */
export interface AddOperation extends t.TypeOf<typeof AddOperationCodec> {}
export const AddOperation: NamedStructCodec<AddOperation> = AddOperationCodec;

const RemoveOperationCodec = /* @__PURE__ */ opCodec("remove", pathOnly);
/**
 * Removes the value at `path`.
 *
 * @example
 * const operation: RemoveOperation = { op: "remove", path: "/items/0" };
 */
export interface RemoveOperation extends t.TypeOf<typeof RemoveOperationCodec> {}
export const RemoveOperation: NamedStructCodec<RemoveOperation> = RemoveOperationCodec;

const ReplaceOperationCodec = /* @__PURE__ */ opCodec("replace", pathAndValue);
/**
 * Replaces the value at `path` with `value`.
 *
 * @example
 * const operation: ReplaceOperation = { op: "replace", path: "/count", value: 2 };
 */
export interface ReplaceOperation extends t.TypeOf<typeof ReplaceOperationCodec> {}
export const ReplaceOperation: NamedStructCodec<ReplaceOperation> = ReplaceOperationCodec;

const MoveOperationCodec = /* @__PURE__ */ opCodec("move", fromAndPath);
/**
 * Moves the value at `from` to `path`.
 *
 * @example
 * const operation: MoveOperation = { op: "move", from: "/draft", path: "/final" };
 */
export interface MoveOperation extends t.TypeOf<typeof MoveOperationCodec> {}
export const MoveOperation: NamedStructCodec<MoveOperation> = MoveOperationCodec;

const CopyOperationCodec = /* @__PURE__ */ opCodec("copy", fromAndPath);
/**
 * Copies the value at `from` to `path`.
 *
 * @example
 * const operation: CopyOperation = { op: "copy", from: "/template", path: "/copy" };
 */
export interface CopyOperation extends t.TypeOf<typeof CopyOperationCodec> {}
export const CopyOperation: NamedStructCodec<CopyOperation> = CopyOperationCodec;

const TestOperationCodec = /* @__PURE__ */ opCodec("test", pathAndValue);
/**
 * Checks that the value at `path` equals `value`; the patch fails if not.
 *
 * @example
 * const operation: TestOperation = { op: "test", path: "/version", value: 3 };
 */
export interface TestOperation extends t.TypeOf<typeof TestOperationCodec> {}
export const TestOperation: NamedStructCodec<TestOperation> = TestOperationCodec;

/**
 * One RFC 6902 operation, discriminated by `op`; extra members are kept and ignored, as the RFC
 * says. An unknown `op` is unrecognised material.
 *
 * @example
 * const operation: JsonPatchOperation = { op: "replace", path: "/count", value: 2 };
 */
export type JsonPatchOperation = AddOperation | RemoveOperation | ReplaceOperation | MoveOperation | CopyOperation | TestOperation;
const JsonPatchOperationCodec = /* @__PURE__ */ taggedUnion("JsonPatchOperation", "op", {
  add: AddOperation,
  remove: RemoveOperation,
  replace: ReplaceOperation,
  move: MoveOperation,
  copy: CopyOperation,
  test: TestOperation,
});
export const JsonPatchOperation: NamedUnionCodec<JsonPatchOperation> = JsonPatchOperationCodec;

/**
 * An RFC 6902 patch: operations applied in order, all or nothing. An operation with an unknown `op`
 * is an unrecognised union member, dropped from the list with a warning naming its path, and the
 * rest of the patch applies (AG-UI 1.1 processing model; conformance stream
 * `state-delta-unknown-op-dropped`: `{count: 1}`, then `[increment, replace /count 5]` gives
 * `{count: 5}`). Revised: the whole patch used to be dropped (docs/architecture.md).
 */
export const JsonPatch = list(JsonPatchOperation);
export type JsonPatch = t.TypeOf<typeof JsonPatch>;

const TokenUsageCodec = /* @__PURE__ */ struct(
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
/**
 * Token counts for one (provider, model) pair (docs/wire.md#4.12). An unreported count is omitted, not zero.
 *
 * @example
 * const usage: TokenUsage = { provider: "openai", model: "gpt-4o", inputTokens: 120, outputTokens: 48 };
 */
export interface TokenUsage extends t.TypeOf<typeof TokenUsageCodec> {}
export const TokenUsage: NamedStructCodec<TokenUsage> = TokenUsageCodec;
