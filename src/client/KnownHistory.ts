/** What a session posts to a server that owns the history (docs/client.md#session-and-updates, docs/threads.md#the-anchor-rule): only what it does not have yet. */
import type { Message } from "../protocol/messages";
import type { Update } from "../thread/Update";

/**
 * The ids of the messages the session knows the server stores: those of every input a run was
 * heard for (the server logged it), and those the server's events built or replaced. `newPart`
 * cuts a conversation down to what the server lacks, anchored at the last message it has.
 *
 * @example
 * const known = new KnownHistory();
 * known.learn({ kind: "messages", messages });
 * known.newPart([...messages, userMessage]); // [last of messages, userMessage]
 */
export class KnownHistory {
  private readonly ids = new Set<string>();
  /** The id a `message` update last noted: a streamed message's every delta names it again, and a hit here spares the set's lookup. */
  private lastLearned: string | undefined;

  /** Notes the messages an input carried once the server is heard to have begun its run. */
  heard(messages: readonly Message[]): void {
    for (const message of messages) this.ids.add(message.id);
  }

  /** Notes the messages a server event built, updated or replaced. */
  learn(update: Update<unknown>): void {
    if (update.kind === "message") {
      if (update.id === this.lastLearned) return;
      this.lastLearned = update.id;
      this.ids.add(update.id);
    } else if (update.kind === "messages") for (const message of update.messages) this.ids.add(message.id);
  }

  /**
   * What to post of `messages` (activity messages already left out): the last message the server
   * has (the anchor, so that a thread that moved on meanwhile answers 409 rather than take the
   * message as the continuation of something the user did not see) and every message after it.
   * Everything when a message before the anchor is not known to be stored (a hydrated history,
   * say): the server accepts a faithful whole history too.
   */
  /** Whether `newPart` would leave anything of `messages` out (activity messages aside): only then is it worth asking the server. */
  saves(messages: readonly Message[]): boolean {
    const posted = messages.filter((message) => message.role !== "activity");
    return this.newPart(posted).length < posted.length;
  }

  newPart(messages: readonly Message[]): readonly Message[] {
    let anchor = -1;
    for (let i = messages.length - 1; i >= 0 && anchor < 0; i--) if (this.ids.has(messages[i].id)) anchor = i;
    if (anchor < 0) return messages;
    for (let i = 0; i < anchor; i++) if (!this.ids.has(messages[i].id)) return messages;
    return messages.slice(anchor);
  }
}
