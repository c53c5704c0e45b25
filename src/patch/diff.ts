/**
 * An RFC 6902 diff of two JSON documents in near-linear time, built for the server's state
 * encoding (RULES S5): small patches for the changes agents make (a field, a push, a removal), and
 * an early `undefined` ("send the snapshot") as soon as the patch stops paying for itself.
 */
import type { JsonPatchOperation } from "../protocol/common";
import { isJsonRecord, jsonEqual } from "./json";
import { escapeSegment, isForbiddenSegment } from "./pointer";

/** Options of `diff`. */
export interface DiffOptions {
  /**
   * Give up (return `undefined`) as soon as the serialized patch would be this long or longer,
   * in UTF-16 code units as `JSON.stringify(patch).length` counts them. Pass the serialized
   * snapshot's length to get "a delta only if strictly smaller" (RULES S5). Equal documents give
   * `[]` whatever the budget: "nothing changed" is not a patch that competes with a snapshot.
   */
  readonly maxSize?: number;
}

/** The patch does not pay for itself (or cannot be expressed safely): send the snapshot instead. */
class GiveUp {}
const GIVE_UP = new GiveUp();

/** Collects operations and keeps the patch's serialized length up to date when there is a budget. */
class PatchBuilder {
  readonly ops: JsonPatchOperation[] = [];
  private size = 2; // "[]"

  constructor(private readonly maxSize: number | undefined) {}

  push(operation: JsonPatchOperation): void {
    this.ops.push(operation);
    if (this.maxSize === undefined) return;
    let text: string;
    try {
      text = JSON.stringify(operation);
    } catch {
      throw GIVE_UP; // a value too deep for V8's serializer: the snapshot is no better, but the caller decides
    }
    this.size += text.length + (this.ops.length > 1 ? 1 : 0);
    if (this.size >= this.maxSize) throw GIVE_UP;
  }
}

interface Frame {
  readonly a: unknown;
  readonly b: unknown;
  readonly path: string;
}

const isContainer = (value: unknown): value is object => typeof value === "object" && value !== null;

/** Compares one pair: equal references or primitives end here; a container pair becomes a frame. */
function visit(a: unknown, b: unknown, path: string, stack: Frame[], out: PatchBuilder): void {
  if (a === b) return;
  if (isContainer(a) && isContainer(b) && Array.isArray(a) === Array.isArray(b)) stack.push({ a, b, path });
  else out.push({ op: "replace", path, value: b });
}

function diffObjects(a: Record<string, unknown>, b: Record<string, unknown>, path: string, stack: Frame[], out: PatchBuilder): void {
  // A member holding `undefined` is absent, as JSON.stringify sees it.
  for (const key of Object.keys(a)) {
    if (a[key] === undefined || (Object.prototype.hasOwnProperty.call(b, key) && b[key] !== undefined)) continue;
    if (isForbiddenSegment(key)) throw GIVE_UP; // no safe applier would accept the pointer
    out.push({ op: "remove", path: `${path}/${escapeSegment(key)}` });
  }
  for (const key of Object.keys(b)) {
    const next = b[key];
    if (next === undefined) continue;
    const previous = Object.prototype.hasOwnProperty.call(a, key) ? a[key] : undefined;
    if (previous === next) continue;
    if (isForbiddenSegment(key)) throw GIVE_UP;
    const memberPath = `${path}/${escapeSegment(key)}`;
    if (previous === undefined) out.push({ op: "add", path: memberPath, value: next });
    else visit(previous, next, memberPath, stack, out);
  }
}

function same(x: unknown, y: unknown): boolean {
  return x === y || (isContainer(x) && isContainer(y) && jsonEqual(x, y));
}

function diffArrays(a: readonly unknown[], b: readonly unknown[], path: string, stack: Frame[], out: PatchBuilder): void {
  const n = a.length;
  const m = b.length;
  if (n === m) {
    // Same length: element by element. Nothing shifted, so no trimming is needed.
    for (let i = 0; i < n; i++) if (a[i] !== b[i]) visit(a[i], b[i], `${path}/${i}`, stack, out);
    return;
  }
  const shorter = Math.min(n, m);
  let prefix = 0;
  while (prefix < shorter && same(a[prefix], b[prefix])) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && same(a[n - 1 - suffix], b[m - 1 - suffix])) suffix++;
  const removed = n - suffix - prefix; // a[prefix .. n - suffix) is gone
  const added = m - suffix - prefix; // b[prefix .. m - suffix) is new
  // The lengths differ, so at most one of the two middles is empty, and none is recursed into.
  if (removed > 0 && added > 0 && removed + added > (n + m) / 2) {
    out.push({ op: "replace", path, value: b }); // most of the array changed: one value says it best
    return;
  }
  for (let i = n - suffix - 1; i >= prefix; i--) out.push({ op: "remove", path: `${path}/${i}` });
  for (let i = prefix; i < m - suffix; i++) {
    out.push({ op: "add", path: suffix === 0 ? `${path}/-` : `${path}/${i}`, value: b[i] });
  }
}

/**
 * The RFC 6902 operations that turn JSON document `a` into `b`, or `undefined` when the patch
 * would not be shorter than `options.maxSize` (then send `b` whole).
 *
 * - Near-linear: shared subtrees (`a.x === b.x`) are skipped at once; objects are compared member by
 *   member (`add` for new members, `remove` for gone ones, never `replace` on a missing member);
 *   arrays of equal length element by element; arrays of different lengths are trimmed of their
 *   common prefix and suffix (deep equality) and the middle becomes `remove`s and `add`s (`add
 *   /arr/-` when appending), or one `replace` of the array when most of it changed.
 * - Iterative: an explicit stack, so a 10,000-deep document does not overflow the call stack.
 * - Members named `__proto__`, `constructor` or `prototype` that changed make it give up
 *   (`undefined`), because a safe applier rejects such pointers.
 * - The operations' values are `b`'s own subtrees, not copies: copy them before mutating `b`.
 *
 * @example
 * diff({ step: 1, tasks: ["a"] }, { step: 2, tasks: ["a", "b"] });
 * // [{ op: "replace", path: "/step", value: 2 }, { op: "add", path: "/tasks/-", value: "b" }]
 */
export function diff(a: unknown, b: unknown, options: DiffOptions = {}): JsonPatchOperation[] | undefined {
  const out = new PatchBuilder(options.maxSize);
  const stack: Frame[] = [];
  try {
    visit(a, b, "", stack, out);
    while (stack.length > 0) {
      const { a: x, b: y, path } = stack.pop()!;
      if (Array.isArray(x) && Array.isArray(y)) diffArrays(x, y, path, stack, out);
      else if (isJsonRecord(x) && isJsonRecord(y)) diffObjects(x, y, path, stack, out);
    }
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
  return out.ops;
}
