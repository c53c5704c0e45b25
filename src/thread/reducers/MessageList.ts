/** The session's ordered message list with O(1) lookups, the structure every message rule edits. */
import type { Message } from "../../protocol/messages";

/**
 * An ordered list of messages plus two indexes: message id → position of the first message with
 * that id (docs/rules.md#apply: "the first match wins"), and tool call id → id of the assistant message that
 * first held it. Messages are immutable values: an edit replaces one array slot with a new object,
 * so unchanged messages keep their identity. `snapshot()` is a frozen copy, rebuilt on the first
 * read after a change, never per event.
 *
 * @example
 * const list = new MessageList();
 * list.append({ id: "m1", role: "user", content: "hi" });
 * list.indexOf("m1"); // 0
 */
export class MessageList {
  private items: Message[] = [];
  private readonly positions = new Map<string, number>();
  private readonly holders = new Map<string, string>();
  private cached: readonly Message[] | undefined = Object.freeze([]);

  /** How many messages there are. */
  get length(): number {
    return this.items.length;
  }

  /** The message at `index` (which must be in range). */
  at(index: number): Message {
    return this.items[index];
  }

  /** The position of the first message with `id`, or -1. */
  indexOf(id: string): number {
    return this.positions.get(id) ?? -1;
  }

  /** The position of the assistant message that holds tool call `toolCallId`, or -1. */
  holderOf(toolCallId: string): number {
    const id = this.holders.get(toolCallId);
    if (id === undefined) return -1;
    const index = this.indexOf(id);
    return index >= 0 && this.items[index].role === "assistant" ? index : -1;
  }

  /** A frozen copy of the list, the same object until the next change. */
  snapshot(): readonly Message[] {
    if (this.cached === undefined) this.cached = Object.freeze(this.items.slice());
    return this.cached;
  }

  /** Appends `message` and returns its position. */
  append(message: Message): number {
    const index = this.items.length;
    this.items.push(message);
    if (!this.positions.has(message.id)) this.positions.set(message.id, index);
    this.noteToolCalls(message);
    this.cached = undefined;
    return index;
  }

  /** Removes the last message (a send the server refused, issue #20 A5) and returns it; `undefined` when the list is empty. */
  removeLast(): Message | undefined {
    const message = this.items.pop();
    if (message === undefined) return undefined;
    if (this.positions.get(message.id) === this.items.length) this.positions.delete(message.id);
    // a user message holds no tool calls, but any other message may: forget the calls it was first to hold
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) if (this.holders.get(call.id) === message.id) this.holders.delete(call.id);
    this.cached = undefined;
    return message;
  }

  /** Keeps only the first `length` messages (a fork cuts the path, docs/threads.md#the-tree); cost O(messages removed). */
  truncate(length: number): void {
    while (this.items.length > Math.max(0, length)) this.removeLast();
  }

  /** Replaces the message at `index` with `message` (same id, or a re-minted message in place). */
  replace(index: number, message: Message): void {
    const previous = this.items[index];
    this.items[index] = message;
    if (previous.id !== message.id) this.reindexFrom(0);
    this.noteToolCalls(message);
    this.cached = undefined;
  }

  /** Inserts `message` at `index`, shifting what follows; cost O(length − index). */
  insert(index: number, message: Message): void {
    if (index >= this.items.length) {
      this.append(message);
      return;
    }
    this.items.splice(index, 0, message);
    this.reindexFrom(index);
    this.noteToolCalls(message);
    this.cached = undefined;
  }

  /** Replaces the whole list (MESSAGES_SNAPSHOT, docs/rules.md#A10); rebuilds the indexes. */
  reset(messages: readonly Message[]): void {
    this.items = messages.slice();
    this.positions.clear();
    this.holders.clear();
    this.reindexFrom(0);
    for (const message of this.items) this.noteToolCalls(message);
    this.cached = undefined;
  }

  /** Recomputes first positions for the messages at or after `from`; earlier first occurrences stay. */
  private reindexFrom(from: number): void {
    const seen = new Set<string>();
    for (let i = from; i < this.items.length; i++) {
      const id = this.items[i].id;
      if (seen.has(id)) continue;
      seen.add(id);
      const current = this.positions.get(id);
      if (current === undefined || current >= from || from === 0) this.positions.set(id, i);
    }
    if (from === 0) for (const id of [...this.positions.keys()]) if (!seen.has(id)) this.positions.delete(id);
  }

  private noteToolCalls(message: Message): void {
    if (message.role !== "assistant" || message.toolCalls === undefined) return;
    for (const call of message.toolCalls) if (!this.holders.has(call.id)) this.holders.set(call.id, message.id);
  }
}
