/**
 * How the chunk normalizer hands over its expansion of one event: one event at a time, each
 * answered by whether it was sent. The normalizer commits what an event does to its state (a stream
 * opened, a block recorded) only once that event was sent, and stops at the first one that was not:
 * so a consumer that refuses part of an expansion (the server's verifier, `checkedStep.ts`) leaves
 * the normalizer believing exactly what went out, with nothing to undo.
 */
import type { Event } from "../../protocol/events";

/**
 * Receives the next event of an expansion; returns `true` when it was sent (go on), `false` when it
 * was not (the expansion stops here, and the normalizer records nothing of it or of what follows).
 * An END the normalizer synthesized counts as closing its stream either way (`closeLane.ts`).
 *
 * @example
 * const events: Event[] = [];
 * const collect: Emit = (event) => {
 *   events.push(event);
 *   return true;
 * };
 */
export type Emit = (event: Event) => boolean;
