/**
 * Plain-JSON helpers the patch layer is built on: a container test, deep equality and a deep copy.
 * None of them recurses without bound: equality recurses up to `RECURSION_LIMIT` levels (faster)
 * and continues with an explicit stack below, the copy always uses one, so a 10,000-deep document
 * is handled like a flat one (V8's own `JSON.stringify` and `structuredClone` overflow there).
 * Values are JSON: objects, arrays, strings, finite numbers, booleans and `null`.
 */

/** A JSON object as seen by the patch layer. */
export type JsonRecord = Record<string, unknown>;

/** Whether `value` is a JSON object (not `null`, not an array). */
export function isJsonRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Sets an own data member, also for the key `"__proto__"` (which `obj[key] = v` would turn into a
 * prototype change). Such a key can arrive inside a value, e.g. from `JSON.parse`.
 */
export function setMember(target: JsonRecord, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** Below this depth, equality and the diff recurse (fast); deeper, they continue with an explicit stack. */
export const RECURSION_LIMIT = 200;

/**
 * Deep equality of two JSON values (member order does not matter; array order does).
 *
 * @example
 * jsonEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return equalAt(a, b, 0);
}

function equalAt(x: unknown, y: unknown, depth: number): boolean {
  if (x === y) return true;
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
  if (depth >= RECURSION_LIMIT) return equalIteratively(x, y);
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!equalAt(x[i], y[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(y) || !isJsonRecord(x) || !isJsonRecord(y)) return false;
  const xKeys = Object.keys(x);
  const yKeys = Object.keys(y);
  if (xKeys.length !== yKeys.length) return false;
  for (let i = 0; i < xKeys.length; i++) {
    const key = xKeys[i];
    // Objects of one shape list their keys in the same order: then no lookup is needed.
    if (key !== yKeys[i] && !Object.prototype.hasOwnProperty.call(y, key)) return false;
    if (!equalAt(x[key], y[key], depth + 1)) return false;
  }
  return true;
}

function equalIteratively(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], y[i]);
    } else {
      if (Array.isArray(y) || !isJsonRecord(x) || !isJsonRecord(y)) return false;
      const keys = Object.keys(x);
      if (keys.length !== Object.keys(y).length) return false;
      for (const key of keys) {
        if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
        stack.push(x[key], y[key]);
      }
    }
  }
  return true;
}

type CloneFrame = { source: unknown[]; target: unknown[] } | { source: JsonRecord; target: JsonRecord };

/**
 * A deep copy of a JSON value that shares nothing with it. `onContainer` sees every object and
 * array the copy creates (the patch applier marks them as its own, so it may edit them in place).
 *
 * @example
 * const copy = cloneJson({ a: [1] }); // a new object holding a new array
 */
export function cloneJson(value: unknown, onContainer?: (created: object) => void): unknown {
  if (typeof value !== "object" || value === null) return value; // the common patch value: nothing to copy, no closure to allocate
  const stack: CloneFrame[] = [];
  const copyOf = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return v;
    if (Array.isArray(v)) {
      const target: unknown[] = [];
      stack.push({ source: v, target });
      onContainer?.(target);
      return target;
    }
    if (!isJsonRecord(v)) return v;
    const target: JsonRecord = {};
    stack.push({ source: v, target });
    onContainer?.(target);
    return target;
  };
  const root = copyOf(value);
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (Array.isArray(frame.source) && Array.isArray(frame.target)) {
      const { source, target } = frame;
      for (let i = 0; i < source.length; i++) target.push(copyOf(source[i]));
    } else if (isJsonRecord(frame.source) && isJsonRecord(frame.target)) {
      const { source, target } = frame;
      for (const key of Object.keys(source)) setMember(target, key, copyOf(source[key]));
    }
  }
  return root;
}
