/**
 * Steps (docs/rules.md#steps, docs/rules.md#R25 to docs/rules.md#R29): keyed by (owner, stepName), started once at a time per key and
 * finished by whoever started them, in any order.
 */
import type { EventOf } from "../../protocol/events";
import type { ProtocolError } from "../ProtocolError";
import { fail, list } from "./report";
import { PARENT, describeOwner, ownerOf, type RunScope } from "./VerifierState";

/**
 * STEP_STARTED: refused while its owner already holds a step of that name (docs/rules.md#R25); the same name
 * under another owner is fine.
 *
 * @example
 * stepStarted(run, ev.stepStarted("research")); // undefined, "research" active for the parent
 */
export function stepStarted(run: RunScope, event: EventOf<"STEP_STARTED">): ProtocolError | undefined {
  const { stepName } = event;
  const owner = ownerOf(event.subagentRunId);
  const holders = run.activeSteps.get(stepName);
  if (holders?.has(owner)) {
    return fail("step", "R25", event, `STEP_STARTED "${stepName}" for ${describeOwner(owner)}, but that step is already active; expected STEP_FINISHED first`);
  }
  if (holders) holders.add(owner);
  else run.activeSteps.set(stepName, new Set([owner]));
  run.activeStepCount += 1;
  return undefined;
}

/**
 * STEP_FINISHED: must finish a step its owner holds; never started is docs/rules.md#R26, held by another owner
 * docs/rules.md#R27 (docs/rules.md#R28 when the confusion is `""` against the parent), naming the real owner.
 *
 * @example
 * stepFinished(run, ev.stepFinished("b")); // ProtocolError docs/rules.md#R26 when no step "b" was started
 */
export function stepFinished(run: RunScope, event: EventOf<"STEP_FINISHED">): ProtocolError | undefined {
  const { stepName } = event;
  const owner = ownerOf(event.subagentRunId);
  const holders = run.activeSteps.get(stepName);
  if (!holders?.has(owner)) {
    if (holders === undefined) {
      return fail("step", "R26", event, `STEP_FINISHED "${stepName}", but no step "${stepName}" was started (${listSteps(run)})`);
    }
    // "" and the parent are distinct owners (docs/rules.md#R28); name that confusion when it is the one at hand.
    const real = owner === "" && holders.has(PARENT) ? PARENT : owner === PARENT && holders.has("") ? "" : first(holders);
    const emptyVsParent = (owner === "" && real === PARENT) || (owner === PARENT && real === "");
    return fail(
      "step",
      emptyVsParent ? "R28" : "R27",
      event,
      `STEP_FINISHED "${stepName}" from ${describeOwner(owner)}, but that step is open under ${describeOwner(real)}; a step must be finished by whoever started it`,
    );
  }
  holders.delete(owner);
  if (holders.size === 0) run.activeSteps.delete(stepName);
  run.activeStepCount -= 1;
  return undefined;
}

/**
 * Active steps as "name (owner)" pairs, at most `LISTED` of them, for error messages.
 *
 * @example
 * listSteps(run); // '"research" (the parent agent)'
 */
export function listSteps(run: RunScope): string {
  if (run.activeStepCount === 0) return "no step is active";
  return list(stepLabels(run), run.activeStepCount);
}

function* stepLabels(run: RunScope): Generator<string> {
  for (const [name, holders] of run.activeSteps) {
    for (const owner of holders) yield `"${name}" (${describeOwner(owner)})`;
  }
}

function first<T>(items: Iterable<T>): T {
  for (const item of items) return item;
  throw new RangeError("first() of an empty collection"); // callers pass non-empty sets only
}
