/**
 * What an in-flight run has open, as the events that re-open it (docs/durability.md#stores-and-routes): the input of the
 * connect prelude's second half, so that the rest of a run cut anywhere passes the verifiers
 * (docs/rules.md#order: docs/rules.md#R15, docs/rules.md#R19, docs/rules.md#R22, docs/rules.md#R26, docs/rules.md#R32, docs/rules.md#R33 need their opener seen) for a client that joins late.
 */
import { ev } from "../protocol/build";
import type { Event, EventOf } from "../protocol/events";

type Opener = EventOf<"TEXT_MESSAGE_START" | "TOOL_CALL_START" | "REASONING_START" | "REASONING_MESSAGE_START" | "STEP_STARTED">;

/**
 * Follows one run's events and keeps, in the order they happened, the opener of every span still
 * open (text message, tool call, reasoning block, reasoning message, step: keyed as the verifier
 * keys them, steps per owner) and every subagent lifecycle event of the run (SUBAGENT_STARTED,
 * _FINISHED, _ERROR: a later SUBAGENT_STARTED may name a finished one as its parent, docs/rules.md#R32).
 * Openers are kept without `metadata`: the compacted messages already carry what it merged, and
 * applying it again could undo a later event's metadata.
 *
 * A span closed and opened again (docs/rules.md#R16) was deleted at its close, so it comes back at the end,
 * where its new opener happened (reasoning messages excepted: see `reopeners`). Memory is bounded
 * by what is open plus the run's subagents.
 *
 * @example
 * const spans = new OpenSpans();
 * spans.apply(ev.textMessageStart("m1"));
 * spans.apply(ev.toolCallStart("tc1", "search"));
 * spans.apply(ev.textMessageEnd("m1"));
 * spans.reopeners(); // [TOOL_CALL_START tc1]
 */
export class OpenSpans {
  private readonly open = new Map<string, Event>();
  private lifecycleCount = 0;

  /** Continues from a `reopeners()` list (a store restoring its snapshot). */
  static from(reopeners: readonly Event[]): OpenSpans {
    const spans = new OpenSpans();
    for (const event of reopeners) spans.apply(event);
    return spans;
  }

  /** Records what `event` opens or closes; events that neither open nor close change nothing. */
  apply(event: Event): void {
    switch (event.type) {
      case "TEXT_MESSAGE_START":
      case "TOOL_CALL_START":
      case "REASONING_START":
      case "REASONING_MESSAGE_START":
      case "STEP_STARTED": {
        this.open.set(spanKey(event), withoutMetadata(event));
        break;
      }
      case "TEXT_MESSAGE_END":
        this.open.delete(key2("text", event.messageId));
        break;
      case "TOOL_CALL_END":
        this.open.delete(key2("tool", event.toolCallId));
        break;
      case "REASONING_END":
        this.open.delete(key2("reasoning", event.messageId));
        break;
      case "REASONING_MESSAGE_END":
        this.open.delete(key2("reasoning-message", event.messageId));
        break;
      case "STEP_FINISHED":
        this.open.delete(stepKey(event.stepName, event.subagentRunId));
        break;
      case "SUBAGENT_STARTED":
      case "SUBAGENT_FINISHED":
      case "SUBAGENT_ERROR":
        this.open.set(`lifecycle ${this.lifecycleCount++}`, event);
        break;
      default:
        // everything else opens nothing and closes nothing
        break;
    }
  }

  /**
   * The events that re-open the run's open spans and replay its subagent lifecycle, in order,
   * except that reasoning messages come last, each where a reasoning block holds it (docs/rules.md#R22: a
   * reasoning message opens only inside a block of its owner). A message opens in the reopened
   * block of its own id if that one is open; otherwise in a block of its own id opened and ended
   * around its opener, since the blocks it opened in may have ended since (only opening needs one),
   * and the block and message of one id have one owner (docs/rules.md#R38) whatever their tags say.
   */
  reopeners(): Event[] {
    const out: Event[] = [];
    const messages: EventOf<"REASONING_MESSAGE_START">[] = [];
    const blocks = new Set<string>();
    for (const event of this.open.values()) {
      if (event.type === "REASONING_MESSAGE_START") {
        messages.push(event);
        continue;
      }
      if (event.type === "REASONING_START") blocks.add(event.messageId);
      out.push(event);
    }
    for (const message of messages) {
      if (blocks.has(message.messageId)) {
        out.push(message);
        continue;
      }
      const tag = message.subagentRunId === undefined ? {} : { subagentRunId: message.subagentRunId };
      out.push(ev.reasoningStart(message.messageId, tag), message, ev.reasoningEnd(message.messageId, tag));
    }
    return out;
  }
}

function spanKey(event: Opener): string {
  switch (event.type) {
    case "TEXT_MESSAGE_START":
      return key2("text", event.messageId);
    case "TOOL_CALL_START":
      return key2("tool", event.toolCallId);
    case "REASONING_START":
      return key2("reasoning", event.messageId);
    case "REASONING_MESSAGE_START":
      return key2("reasoning-message", event.messageId);
    case "STEP_STARTED":
      return stepKey(event.stepName, event.subagentRunId);
    default: {
      const unexpected: never = event;
      return unexpected;
    }
  }
}

/** Ids are unique only within a kind (docs/rules.md#R40), so the kind is part of the key. */
function key2(kind: string, id: string): string {
  return JSON.stringify([kind, id]);
}

/** Steps are keyed by owner and name (docs/rules.md#R25); the parent (no tag) and `""` are different owners. */
function stepKey(name: string, tag: string | undefined): string {
  return JSON.stringify(["step", tag ?? null, name]);
}

function withoutMetadata<E extends Opener>(event: E): E {
  if (event.metadata === undefined) return event;
  const copy = { ...event };
  delete copy.metadata;
  return copy;
}
