/**
 * XREAD BLOCK over many streams at once, the tail reader's one command (docs/durability.md,
 * "Redis"): its arguments, and its reply as entries per stream key (RESP2's array of
 * `[key, entries]` pairs, or RESP3's map of key to entries).
 */
import { replyArray, replyString } from "../replies";

/**
 * One stream to read: its key and the id after which to read.
 *
 * @example
 * const position: StreamPosition = { key: "agui:{t1}:events", after: "1718000000000-4" };
 */
export interface StreamPosition {
  readonly key: string;
  readonly after: string;
}

/**
 * `XREAD COUNT <count> BLOCK <ms> STREAMS <key…> <id…>`.
 *
 * @example
 * xreadArguments([{ key: "a", after: "0-0" }, { key: "b", after: "5-1" }], 1000, 5000);
 * // ["XREAD", "COUNT", "1000", "BLOCK", "5000", "STREAMS", "a", "b", "0-0", "5-1"]
 */
export function xreadArguments(streams: readonly StreamPosition[], count: number, blockMs: number): string[] {
  const args = ["XREAD", "COUNT", String(count), "BLOCK", String(blockMs), "STREAMS"];
  for (const stream of streams) args.push(stream.key);
  for (const stream of streams) args.push(stream.after);
  return args;
}

/**
 * The streams that had entries and their raw entries (still to decode), in reply order; empty for
 * a nil reply (the block timed out).
 *
 * @example
 * parseXReadReply([["a", [["1-0", ["e", "{}"]]]]]); // [{ key: "a", entries: [["1-0", ["e", "{}"]]] }]
 */
export function parseXReadReply(reply: unknown): { readonly key: string; readonly entries: unknown }[] {
  if (reply === null || reply === undefined) return [];
  if (!Array.isArray(reply) && typeof reply === "object") {
    // RESP3: a map from stream key to its entries (node-redis hands maps over as plain objects)
    return Object.entries(reply).map(([key, entries]: [string, unknown]) => ({ key, entries }));
  }
  return replyArray(reply, "XREAD").map((pair) => {
    const [key, entries] = replyArray(pair, "an XREAD stream reply");
    return { key: replyString(key, "an XREAD stream's key"), entries };
  });
}
