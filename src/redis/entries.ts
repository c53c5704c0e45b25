/**
 * One event as one stream entry (docs/durability.md, "Redis"), both ways and pure: the fields an
 * XADD writes (`n` its sequence number in the thread, `e` its JSON; the store's own RUN_STARTED and
 * RUN_ERROR entries also `t`, the event type, as every entry did before issue #28) and the
 * event, cursor and sequence number read back from an XRANGE or XREAD entry.
 */
import type { Event } from "../protocol/events";
import { StoreError } from "../server/store/StoreError";
import type { Cursor, StoredEvent } from "../server/store/ThreadStore";
import { DEFAULT_MAX_JSON_DEPTH } from "../protocol/jsonDepth";
import { decodeEventValue, Dropped, type EventDecoding } from "../wire/decodeEvent";
import { DecodeError } from "../wire/DecodeError";
import { replyArray, replyString } from "./replies";

/** How logged entries are decoded: with the nesting limit, and nothing to strip (the store wrote them). */
const STORED: EventDecoding = { maxDepth: DEFAULT_MAX_JSON_DEPTH, checkDepth: true, onStripped: undefined };

/**
 * One event ready for a store script: its JSON text (the `e` field the append writes) and its type,
 * for the writer's own checks (an appended event's entry no longer stores it: since issue #28 only
 * the store's RUN_STARTED and RUN_ERROR entries carry a `t` field). The sequence number (`n`) is
 * the script's to give, since only Redis knows the count so far.
 *
 * @example
 * encodeEvent(ev.textMessageStart("m1"), 0, "t1"); // { type: "TEXT_MESSAGE_START", json: '{"type":…}' }
 */
export interface EncodedEvent {
  readonly type: string;
  readonly json: string;
}

/**
 * A logged event read back: its cursor (the entry id), its sequence number in the thread (0 for
 * the first run's RUN_STARTED, then one more per event: a gap means entries were trimmed), and
 * the event, with its JSON text (`json`, exactly `JSON.stringify(event)`) when the entry's text is
 * that: a tail hands it on, so that the frame does not serialize the event again.
 *
 * @example
 * const entry: LoggedEntry = { cursor: "1718000000000-0", seq: 0, event: ev.runStarted("t1", "r1") };
 */
export interface LoggedEntry extends StoredEvent {
  readonly seq: number;
}

/**
 * The entry of `event`, the `index`th of a batch of `threadId`; an event JSON cannot spell refuses
 * the batch (`invalid-append`) before anything is sent.
 *
 * @example
 * encodeEvent(ev.custom("n", 1n), 2, "t1"); // throws StoreError invalid-append (a BigInt)
 */
export function encodeEvent(event: Event, index: number, threadId: string): EncodedEvent {
  let json: string | undefined;
  try {
    json = JSON.stringify(event);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new StoreError("invalid-append", `expected JSON events, but the ${event.type} at index ${index} does not serialize: ${why}`, {
      threadId,
      cause: error,
    });
  }
  if (json === undefined) throw new StoreError("invalid-append", `expected JSON events, but the event at index ${index} serializes to nothing`, { threadId });
  return { type: event.type, json };
}

/**
 * One entry of an XRANGE/XREAD reply (`[id, [field, value, …]]`) as a LoggedEntry of `threadId`.
 * An entry this store did not write (no `n` or `e` field, JSON that is not an event) is a
 * StoreError `unavailable`: the stream was written by something else.
 *
 * @example
 * decodeEntry(["1718000000000-0", ["t", "RUN_STARTED", "n", "0", "e", '{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}']], "t1");
 * // { cursor: "1718000000000-0", seq: 0, event: { type: "RUN_STARTED", threadId: "t1", runId: "r1" } }
 */
export function decodeEntry(reply: unknown, threadId: string): LoggedEntry {
  const entry = replyArray(reply, "a stream entry");
  const cursor: Cursor = replyString(entry[0], "a stream entry's id");
  const fields = replyArray(entry[1], `the fields of stream entry ${cursor}`);
  let seqText: unknown;
  let json: unknown;
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === "n") seqText = fields[i + 1];
    else if (fields[i] === "e") json = fields[i + 1];
  }
  const seq = typeof seqText === "string" && /^(0|[1-9][0-9]*)$/.test(seqText) ? Number(seqText) : NaN;
  if (!Number.isSafeInteger(seq) || typeof json !== "string") throw foreign(threadId, cursor, "no sequence number (n) and event (e) fields");
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw foreign(threadId, cursor, `JSON that does not parse (${error instanceof Error ? error.message : String(error)})`);
  }
  // The store logged this event itself, as the driver sent it: decoding only guards against foreign entries.
  const event = decodeEventValue(parsed, STORED);
  if (event instanceof DecodeError) throw foreign(threadId, cursor, `an event that does not decode (${event.message})`);
  if (event instanceof Dropped) throw foreign(threadId, cursor, `an event that does not decode (${event.reason})`);
  return { cursor, seq, event, json: writtenText(json, parsed, event) };
}

/**
 * The entry's text as the event's JSON text, or `undefined`. The appender wrote `JSON.stringify`
 * of the event, and parsing and writing again gives that text back, so it is the event's as long
 * as decoding kept the parsed value as it was (nothing filled or dropped). A text with a line
 * break was written by something else (`JSON.stringify` escapes every one): it is serialized again
 * rather than break the frame's one `data:` line. (One written by something else on one line is
 * still the event's JSON, if not byte for byte `JSON.stringify`'s: its frame means the same.)
 */
function writtenText(json: string, parsed: unknown, event: Event): string | undefined {
  return event === parsed && !json.includes("\n") && !json.includes("\r") ? json : undefined;
}

/**
 * Every entry of an XRANGE reply (or of one stream in an XREAD reply), in order.
 *
 * @example
 * decodeEntries([], "t1"); // []
 */
export function decodeEntries(reply: unknown, threadId: string): LoggedEntry[] {
  const list = replyArray(reply, "a list of stream entries");
  const out: LoggedEntry[] = new Array<LoggedEntry>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = decodeEntry(list[i], threadId);
  return out;
}

function foreign(threadId: string, cursor: string, what: string): StoreError {
  return new StoreError("unavailable", `expected entry ${cursor} of thread "${threadId}"'s stream to hold a logged event, but it has ${what}`, { threadId });
}
