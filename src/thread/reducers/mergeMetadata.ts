/** Metadata merge (docs/rules.md#A20): shallow, per key, last write wins, values cloned, unsafe keys refused. */
import type { Metadata } from "../../protocol/common";
import { cloneJson, setMember } from "../../patch/json";

/**
 * Keys that could reach an object's prototype chain when a consumer copies metadata naively;
 * refused in message and tool-call metadata on every path (events, snapshots, the input echo).
 *
 * @example
 * UNSAFE_METADATA_KEYS.has("__proto__") // true
 */
export const UNSAFE_METADATA_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** The merged metadata, or `undefined` when nothing changes; `rejected` lists the unsafe keys that were left out. */
export interface MergedMetadata {
  readonly metadata: Metadata | undefined;
  readonly changed: boolean;
  readonly rejected: readonly string[];
}

const UNCHANGED_NONE: readonly string[] = [];

/**
 * Merges `incoming` into `current`: each key of `incoming` replaces the same key of `current`
 * (arrays and nested objects whole, `null` kept); absent or empty `incoming` changes nothing.
 * Values are deep-copied so that a later mutation of the event cannot alias into the session.
 * `__proto__`, `constructor` and `prototype` keys are refused and reported in `rejected`.
 * Cost: O(size of `incoming` + number of keys of `current`).
 *
 * @example
 * mergeMetadata({ stage: "start", source: "x" }, { stage: "end" }).metadata; // { stage: "end", source: "x" }
 */
export function mergeMetadata(current: Metadata | undefined, incoming: Metadata | undefined): MergedMetadata {
  if (incoming === undefined) return { metadata: current, changed: false, rejected: UNCHANGED_NONE };
  let merged: Metadata | undefined;
  let rejected: string[] | undefined;
  for (const key of Object.keys(incoming)) {
    if (UNSAFE_METADATA_KEYS.has(key)) {
      (rejected ??= []).push(key);
      continue;
    }
    merged ??= copyOf(current);
    setMember(merged, key, cloneJson(incoming[key]));
  }
  return { metadata: merged ?? current, changed: merged !== undefined, rejected: rejected ?? UNCHANGED_NONE };
}

function copyOf(current: Metadata | undefined): Metadata {
  const copy: Metadata = {};
  if (current !== undefined) for (const key of Object.keys(current)) setMember(copy, key, current[key]);
  return copy;
}
