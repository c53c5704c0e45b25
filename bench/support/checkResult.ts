/**
 * Checks a bench lane's result against what its workload generator expects, before the lane's
 * time counts: a lane that built nothing, or something else, throws `BenchCheckError` and the
 * bench fails loudly (non-zero exit) instead of printing a figure for an empty pipeline.
 */
import type { JsonPatchOperation } from "../../src/protocol/common";
import type { Message } from "../../src/protocol/messages";

/** What a client holds once a workload's stream is applied, and what a decoder must have read. */
export interface Expected {
  /** Events in the stream (frames in the body). */
  readonly events: number;
  /** Events per type, for the decoding lanes. */
  readonly eventTypes: Readonly<Record<string, number>>;
  /** The final message list. */
  readonly messages: readonly Message[];
  readonly state: unknown;
  /** Tool calls over all messages (a sanity figure beside the deep comparison). */
  readonly toolCalls: number;
}

/** What went wrong, by kind: the event count, the event types, or the thread (messages, state). */
export type BenchCheckCode = "event-count" | "event-types" | "thread";

/**
 * A lane's result differs from the expected one.
 *
 * @example
 * throw new BenchCheckError("event-count", "floor on text/1,000: expected 1,004 events, but got 0", { lane: "floor" });
 */
export class BenchCheckError extends Error {
  override readonly name = "BenchCheckError";
  readonly code: BenchCheckCode;
  readonly lane: string;

  constructor(code: BenchCheckCode, message: string, options: { readonly lane: string }) {
    super(message);
    this.code = code;
    this.lane = options.lane;
  }
}

/**
 * Throws unless `count` events were read, as the generator wrote.
 *
 * @example
 * checkEventCount("floor on text/1,000", floor(body), expected);
 */
export function checkEventCount(lane: string, count: number, expected: Expected): void {
  if (count !== expected.events) throw new BenchCheckError("event-count", `${lane}: expected ${expected.events} events, but got ${count}`, { lane });
}

/**
 * Throws unless `types` (events per type, as a decoder read them) equal the generator's.
 *
 * @example
 * checkEventTypes("decode on text/1,000", tally(events), expected);
 */
export function checkEventTypes(lane: string, types: Readonly<Record<string, number>>, expected: Expected): void {
  const difference = firstDifference(types, expected.eventTypes, "types");
  if (difference !== undefined) throw new BenchCheckError("event-types", `${lane}: ${difference}`, { lane });
}

/** The messages and state a client ended with. */
export interface Thread {
  readonly messages: readonly unknown[];
  readonly state: unknown;
}

/**
 * Throws unless `thread` holds exactly the expected messages (ids, roles, contents, tool calls, in
 * order) and state. A thread with no message beyond the ones it started with names that too.
 *
 * @example
 * checkThread("session on text/1,000", { messages: session.messages, state: session.rawState }, expected);
 */
export function checkThread(lane: string, thread: Thread, expected: Expected): void {
  if (expected.messages.length > 1 && thread.messages.length <= 1) {
    throw new BenchCheckError(
      "thread",
      `${lane}: expected ${expected.messages.length} messages, but the lane built ${thread.messages.length} (nothing was applied)`,
      { lane },
    );
  }
  const difference = firstDifference(thread.messages, expected.messages, "messages") ?? firstDifference(thread.state, expected.state, "state");
  if (difference !== undefined) throw new BenchCheckError("thread", `${lane}: ${difference}`, { lane });
  const toolCalls = countToolCalls(thread.messages);
  if (toolCalls !== expected.toolCalls)
    throw new BenchCheckError("thread", `${lane}: expected ${expected.toolCalls} tool calls, but got ${toolCalls}`, { lane });
}

/**
 * The first place where `actual` and `expected` differ, as "at PATH: expected X, but got Y", or
 * `undefined` when they are equal as JSON values (key order ignored; a key holding `undefined`
 * counts as absent, as JSON has it).
 *
 * @example
 * firstDifference({ a: [1, 2] }, { a: [1, 3] }, "state"); // "at state.a[1]: expected 3, but got 2"
 */
export function firstDifference(actual: unknown, expected: unknown, path: string): string | undefined {
  if (Object.is(actual, expected)) return undefined;
  if (typeof expected === "string" && typeof actual === "string") return stringDifference(actual, expected, path);
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `at ${path}: expected an array of ${expected.length}, but got ${describe(actual)}`;
    for (let i = 0; i < Math.min(actual.length, expected.length); i++) {
      const difference = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (difference !== undefined) return difference;
    }
    return actual.length === expected.length ? undefined : `at ${path}: expected ${expected.length} items, but got ${actual.length}`;
  }
  if (isRecord(expected)) {
    if (!isRecord(actual)) return `at ${path}: expected an object, but got ${describe(actual)}`;
    const keys = (record: Record<string, unknown>) => Object.keys(record).filter((key) => record[key] !== undefined);
    const missing = keys(expected).filter((key) => !(key in actual) || actual[key] === undefined);
    if (missing.length > 0) return `at ${path}: expected the keys ${missing.join(", ")}, but they are missing`;
    const extra = keys(actual).filter((key) => !(key in expected) || expected[key] === undefined);
    if (extra.length > 0) return `at ${path}: expected no keys ${extra.join(", ")}, but got them`;
    for (const key of keys(expected)) {
      const difference = firstDifference(actual[key], expected[key], `${path}.${key}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return `at ${path}: expected ${describe(expected)}, but got ${describe(actual)}`;
}

/** Long strings (a 50,000-delta message) are named by length and first differing offset, not printed whole. */
function stringDifference(actual: string, expected: string, path: string): string {
  if (expected.length <= 60 && actual.length <= 60) return `at ${path}: expected ${JSON.stringify(expected)}, but got ${JSON.stringify(actual)}`;
  let offset = 0;
  while (offset < Math.min(actual.length, expected.length) && actual[offset] === expected[offset]) offset++;
  return `at ${path}: expected a string of ${expected.length} characters, but got ${actual.length}, first different at offset ${offset}`;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function countToolCalls(messages: readonly unknown[]): number {
  let count = 0;
  for (const message of messages) {
    if (isRecord(message) && Array.isArray(message.toolCalls)) count += message.toolCalls.length;
  }
  return count;
}

/**
 * Events per type.
 *
 * @example
 * tally([{ type: "RUN_STARTED" }, { type: "RUN_FINISHED" }]); // { RUN_STARTED: 1, RUN_FINISHED: 1 }
 */
export function tally(events: readonly { readonly type: string }[]): Record<string, number> {
  const types: Record<string, number> = {};
  for (const event of events) types[event.type] = (types[event.type] ?? 0) + 1;
  return types;
}

/**
 * Applies `ops` to `document` in place, by RFC 6902 for `add`, `replace` and `remove` (`-` appends):
 * the checker's own few lines, so that a publish's delta is checked by something other than the
 * library's `applyPatch`. Throws on another operation or a path that does not resolve.
 *
 * @example
 * applyOpsInPlace(mirror, [{ op: "replace", path: "/tasks/3/done", value: true }]);
 */
export function applyOpsInPlace(document: unknown, ops: readonly JsonPatchOperation[]): void {
  for (const op of ops) {
    if (op.op !== "add" && op.op !== "replace" && op.op !== "remove") throw new Error(`expected add, replace or remove, but got ${op.op} at ${op.path}`);
    const segments = op.path
      .split("/")
      .slice(1)
      .map((segment) => segment.replace(/~1/g, "/").replace(/~0/g, "~"));
    const last = segments.pop();
    if (last === undefined) throw new Error(`expected a path below the root, but got ${JSON.stringify(op.path)}`);
    let parent: unknown = document;
    for (const segment of segments) parent = isRecord(parent) ? parent[segment] : Array.isArray(parent) ? parent[Number(segment)] : undefined;
    if (Array.isArray(parent)) {
      const index = last === "-" ? parent.length : Number(last);
      if (!Number.isInteger(index) || index < 0 || index > parent.length)
        throw new Error(`expected an index within 0..${parent.length} at ${op.path}, but got ${last}`);
      if (op.op === "add") parent.splice(index, 0, op.value);
      else if (op.op === "remove") parent.splice(index, 1);
      else parent[index] = op.value;
    } else if (isRecord(parent)) {
      if (op.op === "remove") delete parent[last];
      else parent[last] = op.value;
    } else {
      throw new Error(`expected an object or an array at ${op.path}'s parent, but got ${describe(parent)}`);
    }
  }
}
