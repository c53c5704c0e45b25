/**
 * The server's state encoding as an operator: every STATE_SNAPSHOT on the stream goes through the
 * StateManager decision (docs/rules.md#S5), so a producer may snapshot on every change and still send
 * small deltas.
 */
import type { OperatorFunction } from "rxjs";
import type { Event } from "../protocol/events";
import { operate, SourceObserver } from "../rx/operate";
import { StateManager } from "./StateManager";

/**
 * One step of `selectStateEncoding()`: the event to emit for `event` (or `undefined` to drop it),
 * updating `states`.
 *
 * - STATE_SNAPSHOT: the first since the run started (or since a failed upstream delta) passes
 *   through as it is; a later one becomes a STATE_DELTA (same `timestamp`, `metadata`,
 *   `subagentRunId`; no `rawEvent`, which described the snapshot) when the patch is strictly
 *   smaller, passes through when it is not, and is dropped when the state did not change.
 * - STATE_DELTA: passes through and moves the baseline forward; one that does not apply to the
 *   baseline makes the next snapshot pass whole.
 * - RUN_STARTED: forgets the baseline (a new run starts with a snapshot, docs/seeds.md#seed-000-rule-1).
 * - Anything else passes through.
 *
 * @example
 * const states = new StateManager();
 * stateEncodingStep(states, ev.stateSnapshot({ n: 1 })); // the same snapshot event
 * stateEncodingStep(states, ev.stateSnapshot({ n: 1 })); // undefined
 */
export function stateEncodingStep(states: StateManager, event: Event): Event | undefined {
  switch (event.type) {
    case "RUN_STARTED":
      states.reset();
      return event;
    case "STATE_DELTA":
      states.applyDelta(event.delta);
      return event;
    case "STATE_SNAPSHOT": {
      const decision = states.publish(event.snapshot);
      if (decision.kind === "unchanged") return undefined;
      if (decision.kind === "snapshot") return event;
      const { type: _type, snapshot: _snapshot, rawEvent: _rawEvent, ...carried } = event;
      return { ...carried, type: "STATE_DELTA", delta: decision.delta };
    }
    default:
      return event;
  }
}

/**
 * Encodes state compactly: each STATE_SNAPSHOT becomes a STATE_DELTA when that is strictly smaller,
 * or disappears when nothing changed; everything else passes through in order. State is kept per
 * subscription (each subscriber gets its own StateManager), and RUN_STARTED resets it.
 *
 * @example
 * agentEvents$.pipe(normalizeChunks(), verifyEvents(), selectStateEncoding(), map(encodeSse));
 */
export function selectStateEncoding(): OperatorFunction<Event, Event> {
  return operate<Event, Event>((source, subscriber) => {
    const states = new StateManager();
    source.subscribe(
      new SourceObserver(subscriber, {
        next(event) {
          // A throw (e.g. a snapshot that is not JSON) errors the stream through SourceObserver: never swallowed.
          const out = stateEncodingStep(states, event);
          if (out !== undefined) subscriber.next(out);
        },
      }),
    );
  });
}
