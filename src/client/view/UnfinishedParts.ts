/** What of a run is still open (text streaming, a tool call waiting on its result), so a stop can say what it cut off. */
import type { Update } from "../../thread/Update";

/**
 * What a stopped run left unfinished: the messages whose text was still streaming or that hold a
 * tool call with no result yet, and those tool calls. Immutable; a new object when it changes.
 *
 * @example
 * const marker = (id: string, cut: CutOff) => (cut.messageIds.has(id) ? "stopped" : "");
 */
export interface CutOff {
  readonly messageIds: ReadonlySet<string>;
  readonly toolCallIds: ReadonlySet<string>;
}

/** Nothing cut off. */
export const NOTHING_CUT_OFF: CutOff = Object.freeze({ messageIds: new Set<string>(), toolCallIds: new Set<string>() });

/**
 * Follows one run's updates and knows, at any moment, which parts are open: a text (or reasoning)
 * message between `started` and `ended`, a tool call between `toolCallStarted` and its
 * `toolResult`. A tool call counts until its result, not its `toolCallEnded`: a card whose call
 * was stopped before the result came has no answer and should say so. Framework-free: the React
 * and Angular entries both read it through {@link RunController}. Feed it the run's updates before any frame coalescing, which
 * keeps only the latest change per message.
 *
 * @example
 * const parts = new UnfinishedParts();
 * run$.subscribe((update) => parts.apply(update));
 * // later, on stop:
 * const cut = parts.cutOff(); // { messageIds, toolCallIds }
 */
export class UnfinishedParts {
  /** Messages whose text or reasoning is streaming. */
  private readonly streaming = new Set<string>();
  /** Tool calls waiting on their result, with the message that holds each. */
  private readonly calls = new Map<string, string>();

  /** Takes one update into account; anything but message, reasoning and done changes nothing. */
  apply(update: Update<unknown>): void {
    if (update.kind === "done") {
      // The run is over: what it left open was finished by the run or reported by its end.
      this.streaming.clear();
      this.calls.clear();
      return;
    }
    if (update.kind !== "message" && update.kind !== "reasoning") return;
    const change = update.change;
    switch (change.kind) {
      case "started":
        // `send` starts its run with the user's whole message (started, content, ended at once): never open.
        if (update.message.role !== "user") this.streaming.add(update.id);
        return;
      case "content":
        this.streaming.add(update.id);
        return;
      case "ended":
        this.streaming.delete(update.id);
        return;
      case "toolCallStarted":
      case "toolCallArgs":
        this.calls.set(change.toolCallId, update.id);
        return;
      case "toolResult":
        this.calls.delete(change.toolCallId);
        return;
      case "toolCallEnded":
      case "activity":
      case "encryptedValue":
        return;
      default:
        return ignoreUnknown(change);
    }
  }

  /** What is open now, as a {@link CutOff} (an empty one when nothing is). */
  cutOff(): CutOff {
    if (this.streaming.size === 0 && this.calls.size === 0) return NOTHING_CUT_OFF;
    return { messageIds: new Set([...this.streaming, ...this.calls.values()]), toolCallIds: new Set(this.calls.keys()) };
  }
}

/**
 * Both cut-offs in one (a session's stops add up over its runs).
 *
 * @example
 * cut = mergeCutOff(cut, parts.cutOff());
 */
export function mergeCutOff(before: CutOff, added: CutOff): CutOff {
  if (added.messageIds.size === 0 && added.toolCallIds.size === 0) return before;
  if (before.messageIds.size === 0 && before.toolCallIds.size === 0) return added;
  return {
    messageIds: new Set([...before.messageIds, ...added.messageIds]),
    toolCallIds: new Set([...before.toolCallIds, ...added.toolCallIds]),
  };
}

/**
 * Exhaustiveness: a change kind added to `MessageChange` later fails to compile here; at run time
 * (a newer library under an older page) it is ignored, since a view must not fail over it.
 */
function ignoreUnknown(change: never): void {
  void change;
}
