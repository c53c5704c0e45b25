/**
 * An RFC 6902 diff of two JSON documents in near-linear time, built for the server's state
 * encoding (docs/rules.md#S5): small patches for the changes agents make (a field, a push, a removal), and
 * an early `undefined` ("send the snapshot") as soon as the patch stops paying for itself.
 */
import type { JsonPatchOperation } from "../protocol/common";
import { RECURSION_LIMIT, isJsonRecord, jsonEqual } from "./json";
import { escapeSegment, isForbiddenSegment } from "./pointer";

/** Options of `diff`. */
export interface DiffOptions {
  /**
   * Give up (return `undefined`) as soon as the serialized patch would be this long or longer,
   * in UTF-16 code units as `JSON.stringify(patch).length` counts them. Pass the serialized
   * snapshot's length to get "a delta only if strictly smaller" (docs/rules.md#S5). Equal documents give
   * `[]` whatever the budget: "nothing changed" is not a patch that competes with a snapshot.
   */
  readonly maxSize?: number | undefined;
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

/** A pair left for later because it lies deeper than the recursion limit, with its pointer. */
interface Deferred {
  readonly a: unknown;
  readonly b: unknown;
  readonly path: string;
}

const hasOwn = (record: object, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);
const isContainer = (value: unknown): value is object => typeof value === "object" && value !== null;

function same(x: unknown, y: unknown): boolean {
  return x === y || (isContainer(x) && isContainer(y) && jsonEqual(x, y));
}

/**
 * Walks two documents side by side. It recurses (fast, no allocation per level: the position is a
 * stack of raw segments, turned into a pointer only when an operation is emitted) down to
 * RECURSION_LIMIT levels; deeper pairs are deferred to an explicit stack and walked from there
 * with their pointer as the base, so no depth overflows the call stack.
 */
class Differ {
  private readonly segments: (string | number)[] = [];
  private base = "";
  private readonly deferred: Deferred[] = [];

  constructor(private readonly out: PatchBuilder) {}

  run(a: unknown, b: unknown): void {
    this.pair(a, b, 0);
    while (this.deferred.length > 0) {
      const next = this.deferred.pop()!;
      this.base = next.path;
      this.pair(next.a, next.b, 0);
    }
  }

  /** The pointer of the current position, plus `last` if given; gives up on a forbidden member name. */
  private path(last?: string | number): string {
    let path = this.base;
    for (const segment of this.segments) path += "/" + this.segment(segment);
    if (last !== undefined) path += "/" + this.segment(last);
    return path;
  }

  private segment(segment: string | number): string {
    if (typeof segment === "number") return String(segment);
    if (isForbiddenSegment(segment)) throw GIVE_UP; // no safe applier would accept the pointer
    return escapeSegment(segment);
  }

  private pair(a: unknown, b: unknown, depth: number): void {
    if (a === b) return;
    if (Array.isArray(a) && Array.isArray(b)) this.arrays(a, b, depth);
    else if (isJsonRecord(a) && isJsonRecord(b)) this.objects(a, b, depth);
    else this.out.push({ op: "replace", path: this.path(), value: b });
  }

  /** Compares a member or element `segment` of the current position. */
  private child(a: unknown, b: unknown, segment: string | number, depth: number): void {
    if (a === b) return;
    if (!isContainer(a) || !isContainer(b) || Array.isArray(a) !== Array.isArray(b)) {
      this.out.push({ op: "replace", path: this.path(segment), value: b });
    } else if (depth >= RECURSION_LIMIT) {
      this.deferred.push({ a, b, path: this.path(segment) });
    } else {
      this.segments.push(segment);
      this.pair(a, b, depth + 1);
      this.segments.pop();
    }
  }

  private objects(a: Record<string, unknown>, b: Record<string, unknown>, depth: number): void {
    // A member holding `undefined` is absent, as JSON.stringify sees it.
    const aKeys = Object.keys(a);
    const bKeys = Object.keys(b);
    let sameKeys = aKeys.length === bKeys.length;
    for (let i = 0; sameKeys && i < aKeys.length; i++) sameKeys = aKeys[i] === bKeys[i];
    if (sameKeys) {
      // The usual case (objects of one shape): walk the members pairwise, no lookups.
      for (const key of aKeys) {
        const previous = a[key];
        const next = b[key];
        if (previous === next) continue;
        if (previous === undefined) this.out.push({ op: "add", path: this.path(key), value: next });
        else if (next === undefined) this.out.push({ op: "remove", path: this.path(key) });
        else this.child(previous, next, key, depth);
      }
      return;
    }
    for (const key of aKeys) {
      if (a[key] !== undefined && (!hasOwn(b, key) || b[key] === undefined)) this.out.push({ op: "remove", path: this.path(key) });
    }
    for (const key of bKeys) {
      const next = b[key];
      if (next === undefined) continue;
      const previous = hasOwn(a, key) ? a[key] : undefined;
      if (previous === undefined) this.out.push({ op: "add", path: this.path(key), value: next });
      else this.child(previous, next, key, depth);
    }
  }

  private arrays(a: readonly unknown[], b: readonly unknown[], depth: number): void {
    const n = a.length;
    const m = b.length;
    if (n === m) {
      // Same length: element by element. Nothing shifted, so no trimming is needed.
      for (let i = 0; i < n; i++) if (a[i] !== b[i]) this.child(a[i], b[i], i, depth);
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
      this.out.push({ op: "replace", path: this.path(), value: b }); // most of the array changed: one value says it best
      return;
    }
    for (let i = n - suffix - 1; i >= prefix; i--) this.out.push({ op: "remove", path: this.path(i) });
    for (let i = prefix; i < m - suffix; i++) {
      this.out.push({ op: "add", path: this.path(suffix === 0 ? "-" : i), value: b[i] });
    }
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
 * - Bounded recursion: below `RECURSION_LIMIT` levels pairs continue from an explicit stack, so
 *   a 10,000-deep document does not overflow the call stack.
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
  try {
    new Differ(out).run(a, b);
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
  return out.ops;
}
