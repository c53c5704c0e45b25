/** The inspector's timeline as a tree: run → step → message or tool call (docs/observability.md#inspector). */
import type { InspectedEvent } from "./InspectedEvent";

/**
 * A group of events: a `run` (by run id; `id` `""` for what came before any run), a `step` of it
 * (by name), a `message` or a `toolCall` (by id). `items` are its events and subgroups in
 * arrival order, a subgroup where its first event came.
 *
 * @example
 * const group: InspectorGroup = { kind: "run", id: "r1", stream: 0, items: [] };
 */
export interface InspectorGroup {
  readonly kind: "run" | "step" | "message" | "toolCall";
  readonly id: string;
  /** The stream the group's first event came in. */
  readonly stream: number;
  readonly items: readonly (InspectorGroup | InspectedEvent)[];
}

/**
 * Whether an item of a group is a subgroup.
 *
 * @example
 * group.items.filter(isInspectorGroup);
 */
export function isInspectorGroup(item: InspectorGroup | InspectedEvent): item is InspectorGroup {
  return "items" in item;
}

interface Building {
  readonly kind: InspectorGroup["kind"];
  readonly id: string;
  readonly stream: number;
  readonly items: (Building | InspectedEvent)[];
}

/**
 * Groups `events` (in arrival order) by their `scope`: consecutive events of one stream and run
 * form a run group (a run replayed by a later join is a group of its own); inside it, consecutive
 * events of one step a step group; the events of one message or tool call of the run form a group
 * placed where its first event came (in its step, or in the run outside any step), and its later
 * events join it even when other events came in between or its step has ended (a tool call's
 * result stays with its call). Linear in the number of events.
 *
 * @example
 * const runs = groupEvents(inspector.getSnapshot().events);
 * runs.filter(isInspectorGroup).map((run) => run.id); // ["r1", "r2"]
 */
export function groupEvents(events: readonly InspectedEvent[]): readonly InspectorGroup[] {
  const runs: Building[] = [];
  let run: Building | undefined;
  let step: Building | undefined;
  let parts = new Map<string, Building>();
  for (const event of events) {
    const { runId = "", stepName, messageId, toolCallId } = event.scope;
    if (run === undefined || run.id !== runId || run.stream !== event.stream) {
      run = { kind: "run", id: runId, stream: event.stream, items: [] };
      runs.push(run);
      step = undefined;
      parts = new Map();
    }
    if (stepName === undefined) step = undefined;
    else if (step === undefined || step.id !== stepName) {
      step = { kind: "step", id: stepName, stream: event.stream, items: [] };
      run.items.push(step);
    }
    const parent = step ?? run;
    const key = toolCallId !== undefined ? `t:${toolCallId}` : messageId !== undefined ? `m:${messageId}` : undefined;
    if (key === undefined) {
      parent.items.push(event);
      continue;
    }
    let part = parts.get(key);
    if (part === undefined) {
      part = { kind: toolCallId !== undefined ? "toolCall" : "message", id: toolCallId ?? messageId ?? "", stream: event.stream, items: [] };
      parts.set(key, part);
      parent.items.push(part);
    }
    part.items.push(event);
  }
  return runs;
}
