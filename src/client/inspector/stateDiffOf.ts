/** The JSON Patch between the state before and after an event (docs/observability.md#inspector). */
import type { JsonPatchOperation } from "../../protocol/common";
import { diff } from "../../patch/diff";
import type { StateChange } from "./InspectedEvent";

/**
 * The RFC 6902 patch that turns `change.before` into `change.after` (`diff` of the patch layer),
 * computed when asked: the inspector keeps the two states, not their diff. A diff that cannot be
 * expressed (a value too deep) is a single `replace` of the whole document.
 *
 * @example
 * stateDiffOf({ before: { count: 1 }, after: { count: 2 } }); // [{ op: "replace", path: "/count", value: 2 }]
 */
export function stateDiffOf(change: StateChange): readonly JsonPatchOperation[] {
  try {
    return diff(change.before, change.after) ?? [{ op: "replace", path: "", value: change.after }];
  } catch {
    return [{ op: "replace", path: "", value: change.after }];
  }
}
