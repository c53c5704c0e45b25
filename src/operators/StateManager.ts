/**
 * The snapshot-or-delta decision for shared state (docs/rules.md#S5, docs/seeds.md#seed-000), apart from any run, for
 * transports, tests and the `selectStateEncoding()` operator.
 */
import { isRight } from "../protocol/either";
import type { JsonPatchOperation } from "../protocol/common";
import { applyPatch } from "../patch/apply";
import { diff } from "../patch/diff";

/** What one `publish` decided: send the whole state, send a patch, or send nothing. */
export type StatePublish =
  { readonly kind: "snapshot"; readonly snapshot: unknown } | { readonly kind: "delta"; readonly delta: JsonPatchOperation[] } | { readonly kind: "unchanged" };

/**
 * Decides, for each published state, whether to send a STATE_SNAPSHOT, a STATE_DELTA or nothing.
 *
 * - The first publish (and the first after `reset()`) is a snapshot.
 * - Later ones are diffed (RFC 6902) against the last *published* value; the patch is sent only
 *   if its serialized length is strictly smaller than the serialized snapshot's (both measured as
 *   `JSON.stringify(…).length`), otherwise the snapshot is.
 * - A state equal to the last published one is `unchanged` (send nothing).
 *
 * Values must be JSON (objects, arrays, strings, finite numbers, booleans, `null`; members holding
 * `undefined` count as absent, as in `JSON.stringify`). Callers may mutate their value in place
 * between publishes (`ctx.stateMut`): the manager keeps its own copy of what it last published,
 * and the snapshot and delta it returns share nothing with the caller's value or with that copy.
 *
 * Cost per publish: one `JSON.stringify` of the state (needed for the size rule anyway), one walk
 * comparing it with the baseline, and for a delta an immutable patch of the baseline (O(patch ×
 * depth)); about 1.5–1.7× a `JSON.stringify` on a 1.3 MB board (`npm run bench`). Measured
 * against the alternative of re-parsing the serialized text into the next baseline on every
 * publish: `JSON.parse` alone costs about twice a `JSON.stringify`, so patching the baseline wins.
 * A snapshot costs two `JSON.parse`s more (the baseline and the returned copy).
 *
 * @example
 * const states = new StateManager();
 * states.publish({ step: 1, notes });  // { kind: "snapshot", snapshot: { step: 1, notes } }
 * states.publish({ step: 2, notes });  // { kind: "delta", delta: [{ op: "replace", path: "/step", value: 2 }] }
 * states.publish({ step: 2, notes });  // { kind: "unchanged" }
 */
export class StateManager {
  /** A private copy of the last published state; never mutated, only replaced (structural sharing). */
  private baseline: unknown = undefined;
  private hasBaseline = false;
  /** `JSON.stringify(baseline)` when known: an equal text is `unchanged` without walking anything. */
  private baselineText: string | undefined = undefined;

  /**
   * Decides how to send `value` and records it as the last published state.
   *
   * @example
   * new StateManager().publish({ a: 1 }); // { kind: "snapshot", snapshot: { a: 1 } }
   */
  publish(value: unknown): StatePublish {
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError(`a state must be a JSON value, got ${typeof value}`);
    if (!this.hasBaseline) return this.snapshot(text);
    if (text === this.baselineText) return { kind: "unchanged" };
    const delta = diff(this.baseline, value, { maxSize: text.length });
    if (delta === undefined) return this.snapshot(text);
    if (delta.length === 0) {
      this.baselineText = text; // same JSON, other member order
      return { kind: "unchanged" };
    }
    // The operations hold the caller's live subtrees: copy them once (the patch is small by construction).
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- a JSON copy of operations is the same operations
    const own: JsonPatchOperation[] = JSON.parse(JSON.stringify(delta));
    const next = applyPatch(this.baseline, own);
    if (!isRight(next)) return this.snapshot(text); // cannot happen for a diff of JSON values; stay correct anyway
    this.baseline = next.right;
    this.baselineText = text;
    return { kind: "delta", delta: own };
  }

  /**
   * Moves the baseline forward by a delta that was sent by someone else (e.g. a STATE_DELTA event
   * passing through `selectStateEncoding()`), so later diffs stay correct. Without a baseline it
   * does nothing; if the delta does not apply, the baseline is forgotten (the next publish is a
   * snapshot). Returns whether a baseline remains.
   *
   * @example
   * states.publish({ n: 1 });
   * states.applyDelta([{ op: "replace", path: "/n", value: 2 }]); // true
   * states.publish({ n: 2 }); // { kind: "unchanged" }
   */
  applyDelta(delta: readonly JsonPatchOperation[]): boolean {
    if (!this.hasBaseline) return false;
    const next = applyPatch(this.baseline, delta);
    if (!isRight(next)) {
      this.reset();
      return false;
    }
    this.baseline = next.right;
    this.baselineText = undefined; // unknown without an O(state) stringify per event
    return true;
  }

  /**
   * Forgets the last publish, so the next one is a snapshot: after a STATE_SNAPSHOT sent by hand,
   * a reconnect, or a new run.
   *
   * @example
   * states.reset();
   * states.publish(state).kind; // "snapshot"
   */
  reset(): void {
    this.baseline = undefined;
    this.hasBaseline = false;
    this.baselineText = undefined;
  }

  private snapshot(text: string): StatePublish {
    this.baseline = JSON.parse(text);
    this.hasBaseline = true;
    this.baselineText = text;
    return { kind: "snapshot", snapshot: JSON.parse(text) };
  }
}
