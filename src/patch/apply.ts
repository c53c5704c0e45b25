/**
 * RFC 6902 JSON Patch, applied immutably: atomic, with structural sharing, and safe against
 * prototype pollution. This is what a client uses for STATE_DELTA (docs/rules.md#A9) and ACTIVITY_DELTA
 * (docs/rules.md#A12), and what the server's StateManager uses to move its baseline forward.
 */
import { isLeft, left, right, type Either } from "../protocol/either";
import type { JsonPatchOperation } from "../protocol/common";
import { cloneJson, jsonEqual, setMember, type JsonRecord } from "./json";
import { PatchError } from "./PatchError";
import { formatPointer, parsePointer } from "./pointer";

type Container = unknown[] | JsonRecord;

/** An operation failed; `at` says whether its `path` or its `from` is to blame. */
class Failure {
  constructor(
    readonly reason: string,
    readonly at: "path" | "from" = "path",
  ) {}
}

const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function excerpt(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined; // too deep for V8's serializer: describe it instead
  }
  if (text === undefined) return describe(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

/** `token` as an array index (digits without leading zeros), or -1; read digit by digit, as a regular expression's test costs more than the whole loop. */
function indexOf(token: string): number {
  const length = token.length;
  if (length === 0 || length > 15) return ARRAY_INDEX.test(token) ? Number(token) : -1; // 15 digits: still exact as a double
  if (length > 1 && token.charCodeAt(0) === 0x30) return -1; // a leading zero
  let index = 0;
  for (let i = 0; i < length; i++) {
    const digit = token.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    index = index * 10 + digit;
  }
  return index;
}

/** Reads `token` as an index into an array of `length`; `-` (one past the end) only when appending. */
function arrayIndex(token: string, length: number, forAdd: boolean): number {
  if (token === "-") {
    if (forAdd) return length;
    throw new Failure(`"-" names no existing element (only add may use it, to append)`);
  }
  const index = indexOf(token);
  if (index < 0) throw new Failure(`"${token}" is not an array index (digits without leading zeros, or "-")`);
  const last = forAdd ? length : length - 1;
  if (index > last) throw new Failure(`index ${index} is out of range (array length ${length})`);
  return index;
}

/** The child of `node` named by `token`, which must exist. */
function childOf(node: Container, token: string): unknown {
  if (Array.isArray(node)) return node[arrayIndex(token, node.length, false)];
  // One keyed read settles the usual case: JSON holds neither functions nor `undefined`, and what an
  // object inherits from Object.prototype is a function (its one other member, `__proto__`, is a
  // segment parsePointer refuses). Only the rest asks whether the member is the node's own.
  const value = node[token];
  if (value !== undefined && typeof value !== "function") return value;
  if (!Object.prototype.hasOwnProperty.call(node, token)) throw new Failure(`no member "${token}"`);
  return value;
}

/**
 * The document being patched. Containers created during this patch (copies along changed paths
 * and clones of inserted values) are "owned" and edited in place; everything else is shared with
 * the input and never written to. So each container on a changed path is copied at most once per
 * patch, untouched subtrees keep their identity, and a failure simply drops the draft.
 * Invariant: a container that is not owned has no owned descendants.
 */
class Draft {
  /**
   * The containers this patch created; `undefined` when ownership is not tracked. Tracking only
   * saves later operations from copying again what earlier ones copied, so a one-operation patch
   * (the usual STATE_DELTA) that writes along one path skips it: the Set costs about a quarter of
   * such a patch's time. Without it nothing is owned, so every write copies, which is always correct.
   */
  private readonly owned: Set<object> | undefined;
  private readonly own = (created: object): void => {
    this.owned?.add(created);
  };

  /** `owned`: track ownership in this set (a batch's, kept across patches: `applyPatchInBatch`), in a new one, or not at all. */
  constructor(
    public root: unknown,
    owned: Set<object> | boolean,
  ) {
    this.owned = owned === true ? new Set<object>() : owned === false ? undefined : owned;
  }

  /** A copy of an operation's value that shares nothing with the patch (the event stays independent of the state). */
  insertable(value: unknown): unknown {
    if (value === undefined) throw new Failure("the operation has no value");
    return cloneJson(value, this.owned === undefined ? undefined : this.own);
  }

  read(tokens: readonly string[]): unknown {
    let node = this.root;
    for (let i = 0; i < tokens.length; i++) node = childOf(this.container(node, tokens, i), tokens[i]);
    return node;
  }

  add(tokens: readonly string[], value: unknown): void {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const parent = this.writableParent(tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent.splice(arrayIndex(last, parent.length, true), 0, value);
    else setMember(parent, last, value);
  }

  remove(tokens: readonly string[]): unknown {
    if (tokens.length === 0) throw new Failure("the document itself cannot be removed");
    const parent = this.writableParent(tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) return parent.splice(arrayIndex(last, parent.length, false), 1)[0];
    const removed = childOf(parent, last);
    delete parent[last];
    return removed;
  }

  replace(tokens: readonly string[], value: unknown): void {
    if (tokens.length === 0) {
      this.root = value;
      return;
    }
    const parent = this.writableParent(tokens);
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) parent[arrayIndex(last, parent.length, false)] = value;
    else {
      childOf(parent, last); // replace needs an existing member
      setMember(parent, last, value);
    }
  }

  /**
   * Gives up ownership of `value` and its owned descendants, before it is placed at a second
   * location by `copy`: an in-place edit through one location must not show through the other.
   */
  release(value: unknown): void {
    const stack = [value];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!isContainer(node) || this.owned?.delete(node) !== true) continue;
      if (Array.isArray(node)) for (const item of node) stack.push(item);
      else for (const key of Object.keys(node)) stack.push(node[key]);
    }
  }

  private container(node: unknown, tokens: readonly string[], depth: number): Container {
    if (isContainer(node)) return node;
    const at = formatPointer(tokens.slice(0, depth));
    throw new Failure(`cannot look up "${tokens[depth]}": the value at ${at === "" ? '""' : at} is ${describe(node)}`);
  }

  private writable(node: Container): Container {
    if (this.owned?.has(node) === true) return node;
    const copy = Array.isArray(node) ? node.slice() : { ...node };
    this.owned?.add(copy);
    return copy;
  }

  /** The container that holds the last token, copied (once) along the way so it may be edited. */
  private writableParent(tokens: readonly string[]): Container {
    let node = this.writable(this.container(this.root, tokens, 0));
    this.root = node;
    for (let i = 0; i < tokens.length - 1; i++) {
      const token = tokens[i];
      const existing = this.container(childOf(node, token), tokens, i + 1);
      const child = this.writable(existing);
      // An owned child is edited in place: its parent already holds it.
      if (child !== existing) {
        if (Array.isArray(node)) node[Number(token)] = child;
        else setMember(node, token, child);
      }
      node = child;
    }
    return node;
  }
}

function isProperPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  if (prefix.length >= tokens.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== tokens[i]) return false;
  return true;
}

function pointer(text: string, at: "path" | "from"): readonly string[] {
  const parsed = parsePointer(text);
  if (isLeft(parsed)) throw new Failure(parsed.left, at);
  return parsed.right;
}

function applyOne(draft: Draft, operation: JsonPatchOperation): void {
  switch (operation.op) {
    case "add":
      return draft.add(pointer(operation.path, "path"), draft.insertable(operation.value));
    case "remove":
      draft.remove(pointer(operation.path, "path"));
      return;
    case "replace":
      return draft.replace(pointer(operation.path, "path"), draft.insertable(operation.value));
    case "move": {
      const from = pointer(operation.from, "from");
      const path = pointer(operation.path, "path");
      if (isProperPrefix(from, path)) throw new Failure(`cannot move a value into one of its own children (from ${operation.from})`);
      let value: unknown;
      try {
        value = operation.from === operation.path ? draft.read(from) : draft.remove(from);
      } catch (error) {
        throw error instanceof Failure ? new Failure(error.reason, "from") : error;
      }
      if (operation.from !== operation.path) draft.add(path, value);
      return;
    }
    case "copy": {
      const from = pointer(operation.from, "from");
      const path = pointer(operation.path, "path");
      let value: unknown;
      try {
        value = draft.read(from);
      } catch (error) {
        throw error instanceof Failure ? new Failure(error.reason, "from") : error;
      }
      draft.release(value);
      return draft.add(path, value);
    }
    case "test": {
      const actual = draft.read(pointer(operation.path, "path"));
      if (!jsonEqual(actual, operation.value)) throw new Failure(`expected ${excerpt(operation.value)}, found ${excerpt(actual)}`);
      return;
    }
    default:
      throw new Failure(`unknown operation ${excerpt(operation satisfies never)}`);
  }
}

/**
 * Applies an RFC 6902 patch to a JSON document, all or nothing, without touching the input.
 *
 * - Atomic: if any operation fails, the result is Left with a `PatchError` naming the operation's
 *   index, the operation, the path and the reason; nothing observable has changed.
 * - Structural sharing: only the objects and arrays along changed paths are new (each shallow-copied
 *   at most once per patch); every untouched subtree is the very same object as in the input, so
 *   React and Angular see exactly what changed. Cost: O(ops × depth) plus the shallow copies and
 *   the size of the inserted values, never O(document).
 * - Independent: values inserted by `add`/`replace` are deep copies, so the result shares nothing
 *   with the patch; `copy` shares the (immutable) source subtree.
 * - Safe: `__proto__`, `constructor` and `prototype` segments are rejected.
 * - RFC details: `-` appends; array indices are digits without leading zeros; `add` and `replace`
 *   at `""` replace the document; removing `""` is an error; `test` compares deeply.
 *
 * The document and values must be JSON. The result's type is the caller's claim: a patch may
 * change a document's shape, so decode it (e.g. with a StateSpec) when the type matters.
 *
 * @example
 * const before = { a: { b: 1 }, c: { d: 2 } };
 * const after = applyPatch(before, [{ op: "replace", path: "/a/b", value: 3 }]);
 * // right({ a: { b: 3 }, c: { d: 2 } }); after.right.c === before.c; before.a.b === 1
 */
export function applyPatch<T>(document: T, patch: readonly JsonPatchOperation[]): Either<PatchError, T> {
  // One add, remove, replace or test writes along one path, once: nothing to remember between writes.
  return applyWith<T>(new Draft(document, !isSingleWrite(patch)), patch);
}

/** One add, remove, replace or test: it writes along one path, once, and fails before it writes anything that changes a value. */
function isSingleWrite(patch: readonly JsonPatchOperation[]): boolean {
  return patch.length === 1 && patch[0].op !== "move" && patch[0].op !== "copy";
}

/**
 * `applyPatch` for a run of patches whose intermediate results nobody else sees (a batch of
 * STATE_DELTAs of one SSE read, published once at its end): `owned` holds the containers the
 * batch created so far, which are edited in place instead of copied again, so a container on the
 * changed paths is copied once per batch, not once per patch. The caller starts each batch with
 * an empty set and drops it once the result is published (from then on it is shared).
 *
 * Still all or nothing: a single-write patch (one add, remove, replace or test) fails before it
 * changes a value (at worst an owned container got a fresh copy of a child, equal to it), and
 * any other patch is drafted with its own set, so a failure leaves the document as it was; its
 * containers join `owned` when it succeeds. Untouched subtrees keep their identity, as with
 * `applyPatch`. Internal to the library (not re-exported from the package root).
 *
 * @example
 * const owned = new Set<object>();
 * let doc = state;
 * for (const delta of batch) { const r = applyPatchInBatch(doc, delta, owned); if (isRight(r)) doc = r.right; }
 * publish(doc); // then forget `owned`
 */
export function applyPatchInBatch<T>(document: T, patch: readonly JsonPatchOperation[], owned: Set<object>): Either<PatchError, T> {
  if (isSingleWrite(patch)) return applyWith<T>(new Draft(document, owned), patch);
  const own = new Set<object>();
  const result = applyWith<T>(new Draft(document, own), patch);
  if (!isLeft(result)) for (const created of own) owned.add(created);
  return result;
}

function applyWith<T>(draft: Draft, patch: readonly JsonPatchOperation[]): Either<PatchError, T> {
  for (let index = 0; index < patch.length; index++) {
    const operation = patch[index];
    try {
      applyOne(draft, operation);
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      const at = error.at === "from" && "from" in operation ? operation.from : operation.path;
      return left(new PatchError(index, operation, at, error.reason));
    }
  }
  // The patch is untyped data, like a codec boundary: T is what the caller says the document is.
  return right(draft.root as T);
}
