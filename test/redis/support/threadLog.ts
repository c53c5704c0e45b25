/**
 * A thread's whole log as Redis holds it, for tests that check what a failure left behind: every
 * stream entry decoded (cursor, sequence number, event), read with XRANGE on a client of their own.
 */
import { decodeEntries, type LoggedEntry } from "../../../src/redis/entries";
import { threadKeys } from "../../../src/redis/keys";
import type { TestClient } from "./clients";

/**
 * Every entry of `threadId`'s stream under `prefix`, oldest first.
 *
 * @example
 * const log = await threadLog(admin, prefix, "t1");
 * expect(log.map((entry) => entry.seq)).toEqual([0, 1, 2]);
 */
export async function threadLog(client: TestClient, prefix: string, threadId: string): Promise<LoggedEntry[]> {
  const reply: unknown = await client.sendCommand(["XRANGE", threadKeys(prefix, threadId).events, "-", "+"]);
  return decodeEntries(reply, threadId);
}

/**
 * What a log must be after any failure: sequence numbers 0, 1, 2, … without a gap or a repeat,
 * and no run ended `ABANDONED`. Returns the problems found (none: `[]`).
 *
 * @example
 * expect(logProblems(await threadLog(admin, prefix, "t1"))).toEqual([]);
 */
export function logProblems(log: readonly LoggedEntry[]): string[] {
  const problems: string[] = [];
  log.forEach((entry, index) => {
    if (entry.seq !== index) problems.push(`entry ${entry.cursor} has sequence number ${entry.seq}, expected ${index}`);
    if (entry.event.type === "RUN_ERROR" && entry.event.code === "ABANDONED") problems.push(`entry ${entry.cursor} ended its run ABANDONED`);
  });
  return problems;
}
